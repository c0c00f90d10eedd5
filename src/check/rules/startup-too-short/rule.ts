/** startup-too-short: The startup probe gives up before the model load time. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'startup-too-short',
  severity: 'error',
  summary: 'The startup probe gives up before the model load time.',
  remediation: 'Raise the startup probe\u2019s failureThreshold to cover the model load.',
  fix: 'applied',
  checkedIn: ['rules/areas/probes.ts'],
});
