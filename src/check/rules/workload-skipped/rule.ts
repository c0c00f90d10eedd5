/** workload-skipped: A workload that runs no model server the checker knows. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'workload-skipped',
  severity: 'info',
  summary: 'A workload that runs no model server the checker knows.',
  remediation: 'Nothing, if it runs no model server; otherwise give the model server.',
  fix: 'manual',
  checkedIn: ['check.ts'],
});
