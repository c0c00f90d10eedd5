import { objectName } from '../context.ts';
import { sameNamespace } from '../../workload/locate.ts';
import { formatLabels, poolTargets, selectorFix } from '../shared/pool-targets.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'pool-selector-mismatch',
  order: 220,
  scope: 'manifest',
  severity: 'error',
  summary: 'An InferencePool selector that matches no pod template in the manifest.',
  remediation: 'Make the pool\u2019s selector the workload\u2019s pod labels, in the workload\u2019s namespace.',
  remedy: 'applied',
  check: (ctx) =>
    ctx.located.pools.flatMap((pool) => {
      const targets = poolTargets(ctx, pool);
      if (!targets || !('intended' in targets)) return [];
      const target = targets.intended;
      return [
        {
          severity: 'error' as const,
          object: pool.object,
          path: pool.selectorPath,
          message: !sameNamespace(pool.object, target.object)
            ? `The InferencePool is in namespace ${pool.object.namespace} but ${objectName(target.object)} runs in ${target.object.namespace}; a pool selects pods in its own namespace only, so it has no endpoints and every request through it fails.`
            : `The InferencePool selects ${formatLabels(pool.selector)}, which no pod template in the input carries (${objectName(target.object)} labels its pods `
              + `${formatLabels(target.workload.serving.labels)}): the pool has no endpoints, so every request through it fails.`,
          pool,
          target,
        },
      ];
    }),
  fix: (_ctx, { pool, target }) => selectorFix(pool, target),
});
