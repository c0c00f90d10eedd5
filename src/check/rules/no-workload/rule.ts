import { formatLabels } from '../shared/pool-targets.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'no-workload',
  order: 330,
  scope: 'manifest',
  severity: 'info',
  summary: 'An InferencePool without a workload in the input.',
  remediation: 'Add the workload\u2019s manifest to the input to check the pool against it.',
  remedy: 'manual',
  appliesTo: ({ located }) => located.workloads.length === 0,
  check: ({ located }) =>
    located.pools.map((pool) => ({
      severity: 'info' as const,
      object: pool.object,
      path: pool.selectorPath,
      message: `The input has no Deployment, StatefulSet or LeaderWorkerSet for this pool to select (${formatLabels(pool.selector)}), so its selector and ports were not checked.`,
    })),
});
