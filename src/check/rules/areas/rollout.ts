/** Rules on how a rollout replaces pods: strategy, surge without spare GPUs, progress deadline, LWS workers. */
import { formatSeconds as s } from '../../../model/seconds.ts';
import { formulaOf, report, setEdit, type WorkloadContext } from '../context.ts';
import type { Edit } from '../../fix/edit.ts';
import type { Fix } from '../findings.ts';
import { isRecord, quote, valueAt, type Segment } from '../../read/path.ts';
import { containersOf, DEFAULT_GRACE_SECONDS, intField, intOr } from '../../workload/pod.ts';

/** A rolling-update bound as Kubernetes resolves it: a count, or a percentage of replicas rounded up (surge) or down (unavailable). */
function resolveBound(
  value: unknown,
  replicas: number,
  fallback: number | string,
  roundUp: boolean,
): number | undefined {
  const v = value === undefined || value === null ? fallback : value;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  const m = typeof v === 'string' ? /^(\d+)%$/.exec(v.trim()) : null;
  if (!m) return undefined;
  const exact = (Number(m[1]) * replicas) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/** Where a workload kind keeps its rolling-update bounds, and their Kubernetes defaults. */
function strategyShape(
  kind: string,
):
  | { base: Segment[]; bounds: Segment[]; surgeDefault: number | string; unavailableDefault: number | string }
  | undefined {
  if (kind === 'Deployment')
    return {
      base: ['spec', 'strategy'],
      bounds: ['spec', 'strategy', 'rollingUpdate'],
      surgeDefault: '25%',
      unavailableDefault: '25%',
    };
  if (kind === 'LeaderWorkerSet')
    return {
      base: ['spec', 'rolloutStrategy'],
      bounds: ['spec', 'rolloutStrategy', 'rollingUpdateConfiguration'],
      surgeDefault: 0,
      unavailableDefault: 1,
    };
  return undefined;
}

function strategyFix(ctx: WorkloadContext, bounds: Segment[], base: Segment[], setType: boolean): Fix {
  const { object, plan } = ctx;
  const edits: Edit[] = [];
  if (setType) edits.push(setEdit(object, [...base, 'type'], 'RollingUpdate'));
  edits.push(setEdit(object, [...bounds, 'maxSurge'], plan.strategy.maxSurge, ` ${formulaOf(plan, 'strategy')}`));
  edits.push(setEdit(object, [...bounds, 'maxUnavailable'], plan.strategy.maxUnavailable));
  const key = bounds.at(-1) as string;
  return {
    text: `${setType ? 'type: RollingUpdate, ' : ''}${key}: { maxSurge: ${plan.strategy.maxSurge}, maxUnavailable: ${plan.strategy.maxUnavailable} } (${formulaOf(plan, 'strategy')})`,
    edits,
  };
}

/** Check the rollout strategy of a Deployment or LeaderWorkerSet. */
function checkStrategy(ctx: WorkloadContext): void {
  const { check, object, workload, plan, inputs, targets: t } = ctx;
  const shape = strategyShape(workload.kind);
  if (!shape) return;
  const type = valueAt(object.value, [...shape.base, 'type']);
  if (type === 'Recreate') {
    report(
      check,
      object,
      'strategy-recreate',
      'error',
      [...shape.base, 'type'],
      `The Recreate strategy deletes all ${inputs.replicas} pods before it starts new ones: the pool has no pod to serve from the first deletion `
        + `until a new pod has loaded its model: up to ${s(t.graceNow + inputs.startupSeconds)} (Recreate waits up to the ${s(t.graceNow)} grace period `
        + `for the old pods to exit, then the model loads for up to ${s(inputs.startupSeconds)}), and every request in between fails.`,
      strategyFix(ctx, shape.bounds, shape.base, true),
    );
    return;
  }
  const bounds = valueAt(object.value, shape.bounds);
  const surgeRaw = isRecord(bounds) ? bounds.maxSurge : undefined;
  const unavailableRaw = isRecord(bounds) ? bounds.maxUnavailable : undefined;
  const surge = resolveBound(surgeRaw, workload.replicas, shape.surgeDefault, true);
  let unavailable = resolveBound(unavailableRaw, workload.replicas, shape.unavailableDefault, false);
  if (surge === undefined || unavailable === undefined) {
    report(
      check,
      object,
      'value-unreadable',
      'info',
      shape.bounds,
      `maxSurge ${quote(surgeRaw ?? shape.surgeDefault)} or maxUnavailable ${quote(unavailableRaw ?? shape.unavailableDefault)} is neither a count nor a percentage.`,
    );
    return;
  }
  if (surge === 0 && unavailable === 0) unavailable = 1; // Kubernetes' own rule when both resolve to 0.
  // A pod that requests no accelerator needs none to surge: the spare-GPU rule does not apply.
  const accelerator = ctx.containers.find((c) => c.gpus > 0)?.accelerator;
  if (surge > 0 && plan.strategy.maxSurge === 0 && accelerator) {
    const defaulted =
      surgeRaw === undefined
        ? ` (unset: Kubernetes\u2019 default ${shape.surgeDefault} of ${workload.replicas} replica${workload.replicas === 1 ? '' : 's'})`
        : '';
    const needs = `starts an extra pod that needs ${inputs.gpusPerReplica} ${accelerator}${inputs.gpusPerReplica === 1 ? '' : 's'} while ${inputs.spareGpus} ${inputs.spareGpus === 1 ? 'is' : 'are'} spare`;
    report(
      check,
      object,
      'surge-without-spare-gpus',
      unavailable === 0 ? 'error' : 'warning',
      surgeRaw === undefined ? shape.base : [...shape.bounds, 'maxSurge'],
      unavailable === 0
        ? `maxSurge ${surge}${defaulted} ${needs}, and maxUnavailable 0 removes no old pod to free one: the new pod stays Pending and the rollout stalls.`
        : `maxSurge ${surge}${defaulted} ${needs}: the extra pod waits Pending (or makes a cluster autoscaler add a GPU node) until an old pod has drained and freed its GPUs.`,
      strategyFix(ctx, shape.bounds, shape.base, false),
    );
  }
}

/** Check a Deployment's progressDeadlineSeconds against a rollout step: grace + model load. */
function checkProgressDeadline(ctx: WorkloadContext): void {
  const { check, object, workload, targets: t, inputs } = ctx;
  if (workload.kind !== 'Deployment') return;
  const field = intField(object.value.spec, 'progressDeadlineSeconds');
  const now = intOr(field, 600);
  if (now >= t.progressDeadlineTarget) return;
  const step = t.graceTarget + inputs.startupSeconds;
  const why =
    step >= t.progressDeadlineTarget
      ? `${s(t.graceTarget)} grace + ${s(inputs.startupSeconds)} model load`
      : `${s(step)} step, raised to the 600s floor`;
  report(
    check,
    object,
    'progress-deadline-too-short',
    'warning',
    ['spec', 'progressDeadlineSeconds'],
    `A rollout step can take ${s(t.progressDeadlineTarget)} (${why}), longer than progressDeadlineSeconds (${s(now)}${field.state === 'set' ? '' : ', the default'}): `
      + 'the Deployment reports ProgressDeadlineExceeded and kubectl rollout status fails while the rollout is still going fine.',
    {
      text: `progressDeadlineSeconds: ${t.progressDeadlineTarget} # ${why}`,
      edits: [setEdit(object, ['spec', 'progressDeadlineSeconds'], t.progressDeadlineTarget, ` ${why}`)],
    },
  );
}

/** Check that a LeaderWorkerSet's workers outlive the leader's drain. */
function checkWorkers(ctx: WorkloadContext): void {
  const { check, object, workload, targets: t } = ctx;
  if (!workload.workers) return;
  const field = intField(workload.workers.spec, 'terminationGracePeriodSeconds');
  const grace = intOr(field, DEFAULT_GRACE_SECONDS);
  if (grace >= t.graceTarget) return;
  const path = [...workload.workers.specPath, 'terminationGracePeriodSeconds'];
  report(
    check,
    object,
    'lws-worker-grace-shorter',
    'warning',
    path,
    `The worker pods get SIGKILL ${s(grace)} after deletion${field.state === 'set' ? '' : ' (the default)'}, before the leader\u2019s drain ends at ${s(t.graceTarget)}: `
      + 'the leader loses its workers and the requests it is still serving fail.',
    {
      text: `terminationGracePeriodSeconds: ${t.graceTarget} # the leader's grace period`,
      edits: [setEdit(object, path, t.graceTarget, ' the leader\u2019s grace period')],
    },
  );
}

/**
 * A LeaderWorkerSet's workers get SIGTERM at deletion like the leader. A worker that exits while the leader still
 * drains takes the group down, so each worker's server container holds SIGTERM back with a preStop sleep for the
 * leader's preStop and drain: it stops only once the leader has finished.
 */
function checkWorkerPreStop(ctx: WorkloadContext): void {
  const { check, object, workload, plan, targets: t } = ctx;
  if (!workload.workers || workload.kind !== 'LeaderWorkerSet') return;
  const containers = containersOf(workload.workers);
  const worker = containers.find((c) => c.gpus > 0) ?? containers[0];
  if (!worker) return;
  const hook = valueAt(worker.value, ['lifecycle', 'preStop']);
  if (hook !== undefined) return;
  const seconds = t.preStopTarget + plan.drainSeconds;
  const why = `the leader\u2019s ${s(t.preStopTarget)} preStop + ${s(plan.drainSeconds)} drain`;
  const action =
    plan.preStopAction === 'exec' ? { exec: { command: ['/bin/sleep', String(seconds)] } } : { sleep: { seconds } };
  const leaf = plan.preStopAction === 'exec' ? ['exec', 'command', 1] : ['sleep', 'seconds'];
  const path = [...worker.path, 'lifecycle', 'preStop'];
  report(
    check,
    object,
    'lws-worker-prestop-missing',
    'warning',
    [...worker.path, 'lifecycle'],
    `The ${worker.name} worker container has no preStop hook: it gets SIGTERM at deletion and exits while the leader is still draining, `
      + 'and a worker that exits takes the group down, so the requests the leader is finishing fail.',
    {
      text: `lifecycle.preStop ${plan.preStopAction === 'exec' ? `exec /bin/sleep ${seconds}` : `sleep ${seconds}`} on the worker (${why})`,
      edits: [
        setEdit(object, path, action),
        setEdit(object, [...path, ...leaf], plan.preStopAction === 'exec' ? String(seconds) : seconds, ` ${why}`),
      ],
    },
  );
}

/** Check how the workload rolls out. */
export function checkRollout(ctx: WorkloadContext): void {
  checkStrategy(ctx);
  checkProgressDeadline(ctx);
  checkWorkers(ctx);
  checkWorkerPreStop(ctx);
}
