import { policyPlans, refName, routeRules } from '../shared/gateway.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'policy-target-elsewhere',
  order: 380,
  scope: 'manifest',
  severity: 'info',
  summary:
    'A gateway policy or route aimed at something other than an InferencePool of the input (another pool, a Service): it is neither checked nor fixed with this input\u2019s plan.',
  remediation: 'Check the policy together with the manifests of what it targets.',
  remedy: 'manual',
  fixtureSettings: { gateway: 'gke' },
  check: (ctx) => [
    // Aimed at another pool or at a Service: sized for (and fixed to) a workload the input does not hold.
    ...policyPlans(ctx)
      .filter(({ plan }) => !plan)
      .map(({ policy, ref }) => ({
        severity: 'info' as const,
        object: policy,
        path: ['spec', 'targetRef'],
        message:
          `${policy.kind}/${policy.name} targets ${refName(ref)}, which is not an InferencePool in the input, so it applies to none of the pools here `
          + 'and was neither checked nor fixed; check it with the manifests of what it targets.',
      })),
    ...routeRules(ctx)
      .filter(({ plan }) => !plan)
      .map(({ route, index, pool }) => ({
        severity: 'info' as const,
        object: route,
        path: ['spec', 'rules', index, 'backendRefs'],
        message: `Rule ${index} sends requests to ${refName(pool)}, which is not an InferencePool in the input, so its timeouts were not checked against any workload here; check it with that pool's manifests.`,
      })),
  ],
});
