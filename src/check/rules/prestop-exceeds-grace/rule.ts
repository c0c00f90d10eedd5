/** prestop-exceeds-grace: The preStop sleep is longer than terminationGracePeriodSeconds. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'prestop-exceeds-grace',
  severity: 'error',
  summary: 'The preStop sleep is longer than terminationGracePeriodSeconds.',
  remediation: 'Raise terminationGracePeriodSeconds to preStop + drain + teardown.',
  fix: 'applied',
  checkedIn: ['rules/areas/prestop.ts'],
});
