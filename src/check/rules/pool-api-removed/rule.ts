/** pool-api-removed: An InferencePool in the removed inference.networking.x-k8s.io API. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'pool-api-removed',
  severity: 'info',
  summary: 'An InferencePool in the removed inference.networking.x-k8s.io API.',
  remediation: 'Move the pool to inference.networking.k8s.io/v1 (spec.selector.matchLabels, spec.targetPorts).',
  fix: 'manual',
  checkedIn: ['rules/areas/pool.ts'],
});
