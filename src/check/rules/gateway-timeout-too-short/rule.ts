/** gateway-timeout-too-short: A gateway policy or HTTPRoute timeout that cuts long responses. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'gateway-timeout-too-short',
  severity: 'error below the longest request; warning below the plan\u2019s gateway timeout',
  summary: 'A gateway policy or HTTPRoute timeout that cuts long responses.',
  remediation: 'Raise the timeout to the plan\u2019s: the longest request with headroom.',
  fix: 'applied',
  checkedIn: ['rules/areas/gateway.ts'],
  fixtureSettings: { gateway: 'gke' },
});
