/** value-rejected: A whole-number field the API server refuses as written (a quoted number, a negative count, a fraction). */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'value-rejected',
  severity: 'error',
  summary: 'A whole-number field the API server refuses as written (a quoted number, a negative count, a fraction).',
  remediation: 'Write the field as an unquoted whole number in range.',
  fix: 'applied',
  checkedIn: ['rules/areas/rejected-values.ts'],
});
