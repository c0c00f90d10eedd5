/**
 * lws-worker-prestop-missing: a LeaderWorkerSet's workers get SIGTERM at deletion like the leader. A worker that exits
 * while the leader still drains takes the group down, so each worker's server container holds SIGTERM back with a
 * preStop sleep for the leader's preStop and drain: it stops only once the leader has finished.
 */
import { formatSeconds as s } from '../../../model/seconds.ts';
import type { WorkloadContext } from '../context.ts';
import { valueAt } from '../../read/path.ts';
import { containersOf, holdsAccelerators } from '../../workload/pod.ts';
import { sleepHook } from '../shared/prestop.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'lws-worker-prestop-missing',
  order: 190,
  scope: 'workload',
  severity: 'warning',
  summary:
    'A LeaderWorkerSet worker with no preStop hook exits at SIGTERM while the leader drains, taking the group down.',
  remediation: 'Add a preStop sleep of the leader\u2019s preStop + drain to the worker\u2019s container.',
  remedy: 'applied',
  appliesTo: ({ workload }) => workload.workers !== undefined,
  check: (ctx) => {
    const worker = hooklessWorker(ctx);
    if (!worker) return [];
    return [
      {
        severity: 'warning',
        path: [...worker.path, 'lifecycle'],
        message:
          `The ${worker.name} worker container has no preStop hook: it gets SIGTERM at deletion and exits while the leader is still draining, `
          + 'and a worker that exits takes the group down, so the requests the leader is finishing fail.',
      },
    ];
  },
  fix: (ctx) => {
    const { plan, targets: t } = ctx;
    const worker = hooklessWorker(ctx)!;
    const seconds = t.preStopTarget + plan.drainSeconds;
    const why = `the leader\u2019s ${s(t.preStopTarget)} preStop + ${s(plan.drainSeconds)} drain`;
    return {
      text: `lifecycle.preStop ${plan.preStopAction === 'exec' ? `exec /bin/sleep ${seconds}` : `sleep ${seconds}`} on the worker (${why})`,
      edits: sleepHook(ctx, [...worker.path, 'lifecycle', 'preStop'], seconds, why).edits,
    };
  },
});

/** The worker's server container (the one with GPUs, else the first) when it has no preStop hook. */
function hooklessWorker({ workload }: WorkloadContext) {
  const containers = workload.workers ? containersOf(workload.workers) : [];
  const worker = containers.find(holdsAccelerators) ?? containers[0];
  return worker && valueAt(worker.value, ['lifecycle', 'preStop']) === undefined ? worker : undefined;
}
