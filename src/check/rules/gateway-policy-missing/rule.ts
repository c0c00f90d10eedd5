/** gateway-policy-missing: No policy of the kind the gateway needs (GKE’s GCPBackendPolicy) targets the InferencePool, so its 30 s response timeout and 0 s connection draining apply; the fix is the generator’s policy. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'gateway-policy-missing',
  severity: 'warning; info when the gateway is only the checker\u2019s default',
  summary:
    'No policy of the kind the gateway needs (GKE\u2019s GCPBackendPolicy) targets the InferencePool, so its 30 s response timeout and 0 s connection draining apply; the fix is the generator\u2019s policy.',
  remediation: 'Add the generator\u2019s policy for the pool (the fix shows it).',
  fix: 'applied',
  checkedIn: ['rules/areas/gateway.ts'],
  fixtureSettings: { gateway: 'gke' },
});
