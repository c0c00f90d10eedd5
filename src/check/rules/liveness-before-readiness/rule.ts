/** liveness-before-readiness: Liveness gives up (period × threshold) before readiness does. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'liveness-before-readiness',
  severity: 'warning',
  summary: 'Liveness gives up (period × threshold) before readiness does.',
  remediation: 'Raise the liveness failureThreshold until period \u00d7 threshold covers the readiness window.',
  fix: 'applied',
  checkedIn: ['rules/areas/probes.ts'],
});
