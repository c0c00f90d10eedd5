/** progress-deadline-too-short: progressDeadlineSeconds is below grace + model load (and the 600 s floor). */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'progress-deadline-too-short',
  severity: 'warning',
  summary: 'progressDeadlineSeconds is below grace + model load (and the 600 s floor).',
  remediation: 'Raise progressDeadlineSeconds to grace + model load (at least 600).',
  fix: 'applied',
  checkedIn: ['rules/areas/rollout.ts'],
});
