import { drainWhy, flagFix } from '../shared/drain-flag.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'server-invocation-unknown',
  order: 340,
  scope: 'workload',
  severity: { warning: 'when the server aborts without its drain flag', info: 'otherwise' },
  summary:
    'The command that starts the model server cannot be found with certainty, so its drain flag is a manual fix.',
  remediation: 'Add the drain flag by hand to the command that starts the server, where the finding says.',
  remedy: 'manual',
  appliesTo: ({ targets }) => targets.flag !== undefined && !targets.flag.invocation.found,
  check: ({ container, server, targets }) => {
    const f = targets.flag!;
    const reason = f.invocation.found ? '' : f.invocation.reason;
    return [
      {
        severity: server.drain.zeroAborts ? 'warning' : 'info',
        path: [...container.path, container.line.hasCommand ? 'command' : 'image'],
        message:
          `The checker cannot find the command that starts ${server.name} in the ${container.name} container (${reason}), so it cannot tell whether ${f.flag} is set`
          + `${server.drain.zeroAborts ? `; without it ${server.name} aborts every in-flight request at SIGTERM` : ''}.`,
      },
    ];
  },
  fix: (ctx) => flagFix(ctx, ctx.targets.flag!.flag, ctx.plan.drainSeconds, drainWhy(ctx)),
});
