/** no-workload: An InferencePool without a workload in the input. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'no-workload',
  severity: 'info',
  summary: 'An InferencePool without a workload in the input.',
  remediation: 'Add the workload\u2019s manifest to the input to check the pool against it.',
  fix: 'manual',
  checkedIn: ['rules/areas/pool.ts'],
});
