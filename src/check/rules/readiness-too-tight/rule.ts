/** readiness-too-tight: A readiness probe every second with a one-second timeout: a busy server misses it and leaves the pool mid-load. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'readiness-too-tight',
  severity: 'warning',
  summary:
    'A readiness probe every second with a one-second timeout: a busy server misses it and leaves the pool mid-load.',
  remediation: 'Use the profile\u2019s readiness period and timeout.',
  fix: 'applied',
  checkedIn: ['rules/areas/probes.ts'],
});
