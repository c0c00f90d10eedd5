/** value-unreadable: A drain field that is set to something other than a whole number. */
import { defineRule } from '../../rule.ts';

export const rule = defineRule({
  code: 'value-unreadable',
  severity: 'info; warning for a hitless.dev/ignore annotation it cannot read (nothing is suppressed)',
  summary: 'A drain field that is set to something other than a whole number.',
  remediation: 'Write the field as a whole number (a route timeout as a Gateway API duration such as 300s).',
  fix: 'manual',
  checkedIn: ['checks/drain-flag.ts', 'checks/gateway.ts', 'checks/prestop.ts', 'checks/rollout.ts', 'suppress.ts'],
});
