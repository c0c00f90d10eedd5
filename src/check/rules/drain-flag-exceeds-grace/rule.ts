import { formatSeconds as s } from '../../../model/seconds.ts';
import { flagFix, flagPath, readFlag } from '../shared/drain-flag.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'drain-flag-exceeds-grace',
  order: 90,
  scope: 'workload',
  severity: 'warning',
  summary: 'The drain flag is longer than the grace period leaves after the preStop sleep and teardown.',
  remediation:
    'Lower the drain flag to what the grace period leaves after preStop and teardown, or raise the grace period.',
  remedy: 'applied',
  check: (ctx) => {
    const { plan, server, targets: t } = ctx;
    const f = readFlag(ctx);
    if (!f || (f.now === 0 && server.drain.zeroAborts) || f.now < plan.maxRequestSeconds || f.now < plan.drainSeconds)
      return [];
    // A release before the flag: nothing to set, and its fixed wait ends early once the requests do.
    if (f.now <= f.target || plan.drainFlagStatus === 'too-old') return [];
    // Say where the bound comes from: the flag as written, or its default.
    const bound = f.use
      ? `${f.flag}=${f.now} lets ${server.name}`
      : `${f.flag} is unset, and its default, ${f.now}, lets ${server.name}`;
    return [
      {
        severity: 'warning',
        path: flagPath(ctx),
        message:
          `${bound} drain past SIGKILL: the ${s(t.graceTarget)} grace period leaves ${s(f.target)} after the `
          + `${s(t.preStopTarget)} preStop sleep and ${s(plan.teardownSeconds)} teardown, so the kubelet, not the server, ends the last requests and the teardown is cut.`,
      },
    ];
  },
  fix: (ctx) => {
    const { plan, targets: t } = ctx;
    const f = readFlag(ctx);
    const why = `${s(t.graceTarget)} grace - ${s(t.preStopTarget)} preStop - ${s(plan.teardownSeconds)} teardown`;
    return f && flagFix(ctx, f.flag, f.target, why);
  },
});
