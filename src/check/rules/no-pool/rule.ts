import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'no-pool',
  order: 320,
  scope: 'manifest',
  severity: 'info',
  summary: 'Model-server workloads without an InferencePool in the input.',
  remediation: 'Add the InferencePool\u2019s manifest to the input to check its selector and ports.',
  remedy: 'manual',
  appliesTo: ({ contexts, located }) => contexts.length > 0 && located.pools.length === 0,
  check: () => [
    {
      severity: 'info',
      object: null,
      path: [],
      message:
        'The input has no InferencePool, so the pool\u2019s selector and target ports were not checked; add its manifest to check them.',
    },
  ],
});
