import { readProbe } from '../../workload/pod.ts';
import { addProbeFix } from '../shared/probes.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'readiness-missing',
  order: 100,
  scope: 'workload',
  severity: { error: 'without a startup probe', warning: 'with one' },
  summary: 'The model-server container has no readiness probe.',
  remediation: 'Add a readiness probe on the server\u2019s port with the profile\u2019s path and timing.',
  remedy: 'applied',
  // For a server the checker cannot tell, the container it looks at may not be the server: another container's readiness
  // probe (Pathways' leader: the proxy has none, the JetStream container has one) already gates the pod.
  appliesTo: ({ container, containers, serverKnown }) =>
    !readProbe(container, 'readinessProbe')
    && (serverKnown || !containers.some((c) => c.index !== container.index && readProbe(c, 'readinessProbe'))),
  check: ({ container }) => {
    const startup = readProbe(container, 'startupProbe');
    return [
      {
        severity: startup ? 'warning' : 'error',
        path: [...container.path, 'readinessProbe'],
        message: startup
          ? 'Without a readiness probe a server that stops answering stays in rotation, and the rollout counts it as available.'
          : 'Without a readiness or startup probe the pod counts as ready as soon as its container starts: the rollout moves on to the next '
            + 'old pod and gateways route requests to a server still loading its model.',
      },
    ];
  },
  fix: (ctx) => addProbeFix(ctx, 'readinessProbe', ctx.plan.probes.readiness),
});
