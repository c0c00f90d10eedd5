import { formatSeconds as s } from '../../../model/seconds.ts';
import { drainFlagAt } from '../../../facts/releases.ts';
import type { WorkloadContext } from '../context.ts';
import {
  fixOnContainer,
  onContainer,
  readFlag,
  serverContainers,
  workloadRelease,
  type OnContainer,
} from '../shared/drain-flag.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'drain-aborts-in-flight',
  order: 70,
  scope: 'workload',
  severity: 'error',
  summary: 'A server whose drain flag defaults to aborting (vLLM --shutdown-timeout) runs without it, or with 0.',
  remediation:
    'Set the drain flag to the drain budget on the server\u2019s own command line; on a release without the flag, move the image first.',
  remedy: 'applied',
  check: (ctx): OnContainer[] => serverContainers(ctx).flatMap((at) => judge(ctx, at)),
  fix: fixOnContainer,
});

function judge(first: WorkloadContext, ctx: WorkloadContext): OnContainer[] {
  const f = readFlag(ctx);
  if (f?.now !== 0 || !ctx.server.drain.zeroAborts) return [];
  // A release of the server's own image that predates the flag: the plan's drain-flag-too-old error says the server
  // aborts and that the image must move first; a second error for the same cause would ask for a flag the binary refuses.
  if (
    !f.use
    && ctx.plan.drainFlagStatus === 'too-old'
    && drainFlagAt(ctx.server, workloadRelease(ctx)).kind === 'too-old'
  )
    return [];
  return [
    onContainer(
      first,
      ctx,
      'error',
      `${ctx.server.name} runs ${f.use ? `with ${f.flag}=0` : `without ${f.flag}`}, so at SIGTERM it aborts every in-flight request instead of `
        + `draining (${f.use ? '0' : 'its default, 0,'} means no drain); the preStop sleep and the ${ctx.targets.grace.state === 'bad' ? '' : `${s(ctx.targets.graceNow)} `}grace period do not help.`,
    ),
  ];
}
