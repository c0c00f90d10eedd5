/** prestop-unreadable: A preStop hook that is not a sleep, so its length is unknown. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'prestop-unreadable',
  severity: 'info',
  summary: 'A preStop hook that is not a sleep, so its length is unknown.',
  remediation:
    'Make sure the hook holds SIGTERM back for the removal p99 + margin, or use a plain sleep the checker can time.',
  fix: 'manual',
  checkedIn: ['rules/areas/prestop.ts'],
});
