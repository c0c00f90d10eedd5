/** startup-missing: No startup probe for the model load. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'startup-missing',
  severity: 'error when liveness would restart a loading model; info otherwise',
  summary: 'No startup probe for the model load.',
  remediation: 'Add a startup probe whose period \u00d7 failureThreshold covers the model load.',
  fix: 'applied',
  checkedIn: ['rules/areas/probes.ts'],
});
