import { formatSeconds as s } from '../../../model/seconds.ts';
import { readPreStop, sidecarsOf } from '../../workload/pod.ts';
import { plannedHook } from '../shared/prestop.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'prestop-missing',
  order: 10,
  scope: 'workload',
  severity: 'error',
  summary: 'The model-server container has no preStop hook, while the plan sleeps before SIGTERM.',
  remediation: 'Add a preStop sleep of the plan\u2019s length (removal p99 + margin) to the model-server container.',
  remedy: 'applied',
  appliesTo: (ctx) => ctx.targets.preStop.kind === 'none' && ctx.plan.preStopAction !== 'none',
  check: ({ container, plan, workload }) => {
    // A native sidecar's hook runs beside this container's, from deletion: it holds back only the sidecar's SIGTERM.
    const hooked = sidecarsOf(workload.serving).find((c) => readPreStop(c).kind !== 'none');
    return [
      {
        severity: 'error',
        path: [...container.path, 'lifecycle'],
        message:
          `The ${container.name} container has no preStop hook, so it gets SIGTERM the moment the pod is deleted, while gateways can still `
          + `route new requests to it for up to ${s(plan.removalSeconds)} (the removal p99): those requests fail.`
          + (hooked
            ? ` The preStop hook of the ${hooked.name} sidecar does not help: the kubelet runs each container’s hook at deletion, side by side, and it holds back only ${hooked.name}’s own SIGTERM.`
            : ''),
      },
    ];
  },
  fix: (ctx) => plannedHook(ctx, ctx.targets.preStopTarget),
});
