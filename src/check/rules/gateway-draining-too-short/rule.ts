/** gateway-draining-too-short: A gateway connection-draining timeout shorter than the pod’s preStop + drain. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'gateway-draining-too-short',
  severity: 'warning',
  summary: 'A gateway connection-draining timeout shorter than the pod\u2019s preStop + drain.',
  remediation: 'Raise connection draining to the pod\u2019s preStop + drain.',
  fix: 'applied',
  checkedIn: ['rules/areas/gateway.ts'],
  fixtureSettings: { gateway: 'gke' },
});
