/** policy-target-elsewhere: A gateway policy or route aimed at something other than an InferencePool of the input (another pool, a Service): it is neither checked nor fixed with this input’s plan. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'policy-target-elsewhere',
  severity: 'info',
  summary:
    'A gateway policy or route aimed at something other than an InferencePool of the input (another pool, a Service): it is neither checked nor fixed with this input\u2019s plan.',
  remediation: 'Check the policy together with the manifests of what it targets.',
  fix: 'manual',
  checkedIn: ['rules/areas/gateway.ts'],
  fixtureSettings: { gateway: 'gke' },
});
