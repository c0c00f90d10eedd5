/** value-unreadable: A drain field that is set to something other than a whole number. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'value-unreadable',
  severity: 'info; warning for a hitless.dev/ignore annotation it cannot read (nothing is suppressed)',
  summary: 'A drain field that is set to something other than a whole number.',
  remediation: 'Write the field as a whole number (a route timeout as a Gateway API duration such as 300s).',
  fix: 'manual',
  checkedIn: [
    'rules/areas/drain-flag.ts',
    'rules/areas/gateway.ts',
    'rules/areas/prestop.ts',
    'rules/areas/rollout.ts',
    'suppress.ts',
  ],
});
