import { formatSeconds as s } from '../../../model/seconds.ts';
import { graceFix, judgedSleepSeconds } from '../shared/prestop.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'prestop-exceeds-grace',
  order: 30,
  scope: 'workload',
  severity: 'error',
  summary: 'The preStop sleep is longer than terminationGracePeriodSeconds.',
  remediation: 'Raise terminationGracePeriodSeconds to preStop + drain + teardown.',
  remedy: 'applied',
  check: (ctx) => {
    const { targets: t } = ctx;
    const now = judgedSleepSeconds(ctx);
    if (now === undefined || now <= t.graceNow || t.grace.state === 'bad') return [];
    const graceSource = t.grace.state === 'set' ? '' : ', the default';
    return [
      {
        severity: 'error',
        path: [...ctx.workload.serving.specPath, 'terminationGracePeriodSeconds'],
        message:
          t.preStop.kind === 'sleep'
            ? `The ${s(now)} preStop sleep is longer than terminationGracePeriodSeconds (${s(t.graceNow)}${graceSource}), which Kubernetes rejects: no pod of this template starts.`
            : `The ${s(now)} preStop sleep outlasts terminationGracePeriodSeconds (${s(t.graceNow)}${graceSource}): the kubelet kills the container mid-sleep, so the server never drains.`,
      },
    ];
  },
  fix: graceFix,
});
