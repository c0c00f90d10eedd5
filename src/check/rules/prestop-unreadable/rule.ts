import { formatSeconds as s } from '../../../model/seconds.ts';
import { formulaOf } from '../context.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'prestop-unreadable',
  order: 50,
  scope: 'workload',
  severity: 'info',
  summary: 'A preStop hook that is not a sleep, so its length is unknown.',
  remediation:
    'Make sure the hook holds SIGTERM back for the removal p99 + margin, or use a plain sleep the checker can time.',
  remedy: 'manual',
  check: ({ plan, targets: t }) =>
    t.preStop.kind === 'other'
      ? [
          {
            severity: 'info',
            path: t.preStop.path,
            message:
              `The preStop hook is ${t.preStop.how}, so the checker cannot tell how long it holds SIGTERM back; it must last at least `
              + `${s(plan.preStopSeconds)} (${formulaOf(plan, 'preStopSeconds')}) for gateways to stop routing to the pod first.`,
          },
        ]
      : [],
});
