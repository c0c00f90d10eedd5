/** prestop-sleep-unsupported: The sleep action on a Kubernetes version that does not enable it (below 1.30: alpha and off in 1.29, absent before). */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'prestop-sleep-unsupported',
  severity: 'error',
  summary:
    'The sleep action on a Kubernetes version that does not enable it (below 1.30: alpha and off in 1.29, absent before).',
  remediation: 'Below Kubernetes 1.30, sleep with an exec hook (/bin/sleep N) instead of the sleep action.',
  fix: 'applied',
  checkedIn: ['rules/areas/prestop.ts'],
  fixtureSettings: { 'kubernetes-version': '1.29' },
});
