/** drain-flag-exceeds-grace: The drain flag is longer than the grace period leaves after the preStop sleep and teardown. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'drain-flag-exceeds-grace',
  severity: 'warning',
  summary: 'The drain flag is longer than the grace period leaves after the preStop sleep and teardown.',
  remediation:
    'Lower the drain flag to what the grace period leaves after preStop and teardown, or raise the grace period.',
  fix: 'applied',
  checkedIn: ['rules/areas/drain-flag.ts'],
});
