import { plannedHook } from '../shared/prestop.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'prestop-sleep-unsupported',
  order: 40,
  scope: 'workload',
  severity: 'error',
  summary:
    'The sleep action on a Kubernetes version that does not enable it (below 1.30: alpha and off in 1.29, absent before).',
  remediation: 'Below Kubernetes 1.30, sleep with an exec hook (/bin/sleep N) instead of the sleep action.',
  remedy: 'applied',
  fixtureSettings: { 'kubernetes-version': '1.29' },
  appliesTo: (ctx) => ctx.targets.preStop.kind === 'sleep' && ctx.plan.preStopAction === 'exec',
  check: ({ container, inputs }) => [
    {
      severity: 'error',
      path: [...container.path, 'lifecycle', 'preStop', 'sleep'],
      message:
        `Kubernetes ${inputs.kubernetesVersion} does not enable the preStop sleep action (it is alpha and off in 1.29, beta and on from 1.30), `
        + 'so this hook does not delay SIGTERM and gateways still route to the pod when the server stops accepting; use an exec sleep.',
    },
  ],
  fix: (ctx) => plannedHook(ctx, ctx.targets.preStopTarget),
});
