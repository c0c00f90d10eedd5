/** pool-selector-mismatch: An InferencePool selector that matches no pod template in the manifest. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'pool-selector-mismatch',
  severity: 'error',
  summary: 'An InferencePool selector that matches no pod template in the manifest.',
  remediation: 'Make the pool\u2019s selector the workload\u2019s pod labels, in the workload\u2019s namespace.',
  fix: 'applied',
  checkedIn: ['rules/areas/pool.ts'],
});
