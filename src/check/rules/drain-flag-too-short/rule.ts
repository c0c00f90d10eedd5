import { formatSeconds as s } from '../../../model/seconds.ts';
import { formulaOf, type WorkloadContext } from '../context.ts';
import { drainWhy, flagFix, flagPath, inContainer, readFlag, serverContainers } from '../shared/drain-flag.ts';
import { defineRule, type Verdict } from '../rule.ts';

/** A verdict on one of the pod's server containers. */
interface OnContainer extends Verdict {
  at: WorkloadContext;
}

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
  fix: (_ctx, verdict: OnContainer) => {
    const f = readFlag(verdict.at);
    return f && flagFix(verdict.at, f.flag, f.target, drainWhy(verdict.at));
  },
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
      ? {
          severity: 'error',
          at: ctx,
          path: flagPath(ctx),
          message: inContainer(
            first,
            ctx,
            `${server.name} ${how} and then ends what is still running, but requests can take ${s(plan.maxRequestSeconds)}: long requests are cut at every rollout.`,
          ),
        }
      : {
          severity: 'warning',
          at: ctx,
          path: flagPath(ctx),
          message: inContainer(
            first,
            ctx,
            `${server.name} ${how}: that covers the ${s(plan.maxRequestSeconds)} longest request but not the ${s(plan.drainSeconds)} drain budget `
              + `(${formulaOf(plan, 'drainSeconds')}), so a request slower than the estimate is cut.`,
          ),
        },
  ];
}
