/** value-out-of-range: A value the manifest states that is outside the range the drain model reads (readiness failureThreshold 600), so the check could not use it. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'value-out-of-range',
  severity: 'warning',
  summary:
    'A value the manifest states that is outside the range the drain model reads (readiness failureThreshold 600), so the check could not use it.',
  remediation: 'Check that setting by hand: the drain model cannot use the value as written.',
  fix: 'manual',
  checkedIn: ['check.ts'],
});
