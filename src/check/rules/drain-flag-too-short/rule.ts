import { formatSeconds as s } from '../../../model/seconds.ts';
import { formulaOf, type WorkloadContext } from '../context.ts';
import { fixOnContainer, onContainer, readFlag, serverContainers, type OnContainer } from '../shared/drain-flag.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'drain-flag-too-short',
  order: 80,
  scope: 'workload',
  severity: { error: 'below the longest request', warning: 'below the drain budget' },
  restsOn: ['longest request'],
  summary: 'The server\u2019s drain flag (or its default) ends the drain early.',
  remediation: 'Raise the drain flag to the drain budget.',
  remedy: 'applied',
  check: (ctx): OnContainer[] => serverContainers(ctx).flatMap((at) => judge(ctx, at)),
  fix: fixOnContainer,
});

function judge(first: WorkloadContext, ctx: WorkloadContext): OnContainer[] {
  const { plan, server } = ctx;
  const f = readFlag(ctx);
  // A flag at 0 on a server that then aborts is drain-aborts-in-flight's.
  if (!f || (f.now === 0 && server.drain.zeroAborts) || f.now >= plan.drainSeconds) return [];
  const how = f.use
    ? `drains for at most ${s(f.now)} (${f.flag}=${f.now})`
    : `runs without ${f.flag}, so it drains for only its default ${s(f.now)}`;
  return [
    f.now < plan.maxRequestSeconds
      ? onContainer(
          first,
          ctx,
          'error',
          `${server.name} ${how} and then ends what is still running, but requests can take ${s(plan.maxRequestSeconds)}: long requests are cut at every rollout.`,
        )
      : onContainer(
          first,
          ctx,
          'warning',
          `${server.name} ${how}: that covers the ${s(plan.maxRequestSeconds)} longest request but not the ${s(plan.drainSeconds)} drain budget `
            + `(${formulaOf(plan, 'drainSeconds')}), so a request slower than the estimate is cut.`,
        ),
  ];
}
