/** grace-too-short: terminationGracePeriodSeconds leaves too little time after the preStop sleep. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'grace-too-short',
  severity: 'error below preStop + longest request; warning below preStop + drain + teardown',
  summary: 'terminationGracePeriodSeconds leaves too little time after the preStop sleep.',
  remediation: 'Raise terminationGracePeriodSeconds to preStop + drain + teardown.',
  fix: 'applied',
  checkedIn: ['rules/areas/grace.ts'],
});
