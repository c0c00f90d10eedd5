import { formatSeconds as s } from '../../../model/seconds.ts';
import { readStrategy, strategyFix } from '../shared/strategy.ts';
import { defineRule } from '../rule.ts';
import { poolSelects, statedReplicas } from '../../workload/locate.ts';

export const rule = defineRule({
  code: 'strategy-recreate',
  order: 170,
  scope: 'workload',
  severity: 'error',
  summary: 'The Recreate strategy removes every pod before new ones load.',
  remediation: 'Use RollingUpdate with the plan\u2019s maxSurge and maxUnavailable.',
  remedy: 'applied',
  check: (ctx) => {
    const { inputs, targets: t, workload } = ctx;
    const strategy = readStrategy(ctx);
    if (strategy?.type !== 'Recreate') return [];
    // Only the count the manifest states: unset or 0, an autoscaler may own it.
    const stated = statedReplicas(workload);
    const pods = stated === undefined ? 'all its pods' : stated === 1 ? 'its one pod' : `all ${stated} pods`;
    const pooled = ctx.check.located.pools.some((pool) => poolSelects(pool, workload));
    return [
      {
        severity: 'error',
        path: [...strategy.shape.base, 'type'],
        message:
          `The Recreate strategy deletes ${pods} before it starts new ones: ${pooled ? 'the pool has no pod' : 'there is no pod'} to serve from the first deletion `
          + `until a new pod has loaded its model: up to ${s(t.graceNow + inputs.startupSeconds)} (Recreate waits up to the ${s(t.graceNow)} grace period `
          + `for the old pods to exit, then the model loads for up to ${s(inputs.startupSeconds)}), and every request in between fails.`,
      },
    ];
  },
  fix: (ctx) => strategyFix(ctx, true),
});
