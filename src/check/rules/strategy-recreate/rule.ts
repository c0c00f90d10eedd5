/** strategy-recreate: The Recreate strategy removes every pod before new ones load. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'strategy-recreate',
  severity: 'error',
  summary: 'The Recreate strategy removes every pod before new ones load.',
  remediation: 'Use RollingUpdate with the plan\u2019s maxSurge and maxUnavailable.',
  fix: 'applied',
  checkedIn: ['rules/areas/rollout.ts'],
});
