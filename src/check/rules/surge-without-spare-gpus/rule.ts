import { readStrategy, strategyFix } from '../shared/strategy.ts';
import { defineRule } from '../rule.ts';
import { holdsAccelerators } from '../../workload/pod.ts';

export const rule = defineRule({
  code: 'surge-without-spare-gpus',
  order: 150,
  scope: 'workload',
  severity: { error: 'when maxUnavailable is 0', warning: 'otherwise' },
  restsOn: ['spare GPUs'],
  summary: 'maxSurge above 0 while the cluster has no spare GPUs for an extra pod.',
  remediation: 'Set maxSurge 0 and maxUnavailable 1, or say how many GPUs are spare (--spare-gpus).',
  remedy: 'applied',
  check: (ctx) => {
    const { workload, plan, inputs } = ctx;
    const strategy = readStrategy(ctx);
    if (!strategy || strategy.type === 'Recreate') return [];
    const { shape, surgeRaw, surge } = strategy;
    let { unavailable } = strategy;
    if (surge === undefined || unavailable === undefined) return [];
    if (surge === 0 && unavailable === 0) unavailable = 1; // Kubernetes' own rule when both resolve to 0.
    // A pod that requests no accelerator needs none to surge: the spare-GPU rule does not apply.
    const accelerator = ctx.containers.find(holdsAccelerators)?.accelerator;
    if (surge === 0 || plan.strategy.maxSurge !== 0 || !accelerator) return [];
    const defaulted =
      surgeRaw === undefined
        ? ` (unset: Kubernetes\u2019 default ${shape.surgeDefault} of ${workload.replicasRead ? `${workload.replicas} replica${workload.replicas === 1 ? '' : 's'}` : 'the replicas, rounded up: at least 1'})`
        : '';
    const needs = `starts an extra pod that needs ${inputs.gpusPerReplica} ${accelerator}${inputs.gpusPerReplica === 1 ? '' : 's'} while ${inputs.spareGpus} ${inputs.spareGpus === 1 ? 'is' : 'are'} spare`;
    return [
      {
        severity: unavailable === 0 ? 'error' : 'warning',
        path: surgeRaw === undefined ? shape.base : [...shape.bounds, 'maxSurge'],
        message:
          unavailable === 0
            ? `maxSurge ${surge}${defaulted} ${needs}, and maxUnavailable 0 removes no old pod to free one: the new pod stays Pending and the rollout stalls.`
            : `maxSurge ${surge}${defaulted} ${needs}: the extra pod waits Pending (or makes a cluster autoscaler add a GPU node) until an old pod has drained and freed its GPUs.`,
      },
    ];
  },
  fix: (ctx) => strategyFix(ctx, false),
});
