/** readiness-missing: The model-server container has no readiness probe. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'readiness-missing',
  severity: 'error without a startup probe; warning with one',
  summary: 'The model-server container has no readiness probe.',
  remediation: 'Add a readiness probe on the server\u2019s port with the profile\u2019s path and timing.',
  fix: 'applied',
  checkedIn: ['rules/areas/probes.ts'],
});
