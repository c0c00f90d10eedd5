/** surge-without-spare-gpus: maxSurge above 0 while the cluster has no spare GPUs for an extra pod. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'surge-without-spare-gpus',
  severity: 'error when maxUnavailable is 0; warning otherwise',
  summary: 'maxSurge above 0 while the cluster has no spare GPUs for an extra pod.',
  remediation: 'Set maxSurge 0 and maxUnavailable 1, or say how many GPUs are spare (--spare-gpus).',
  fix: 'applied',
  checkedIn: ['rules/areas/rollout.ts'],
});
