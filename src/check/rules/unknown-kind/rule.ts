/** unknown-kind: Objects of kinds the checker does not read (ignored). */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'unknown-kind',
  severity: 'info',
  summary: 'Objects of kinds the checker does not read (ignored).',
  remediation: 'Nothing: check the model-server workload and its pool.',
  fix: 'manual',
  checkedIn: ['rules/areas/notes.ts'],
});
