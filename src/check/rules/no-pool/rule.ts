/** no-pool: Model-server workloads without an InferencePool in the input. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'no-pool',
  severity: 'info',
  summary: 'Model-server workloads without an InferencePool in the input.',
  remediation: 'Add the InferencePool\u2019s manifest to the input to check its selector and ports.',
  fix: 'manual',
  checkedIn: ['check.ts'],
});
