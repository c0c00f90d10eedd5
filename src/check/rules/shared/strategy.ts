/** How a Deployment or LeaderWorkerSet rolls out as Kubernetes reads it: shared by the strategy rules. */
import { formulaOf, setEdit, type WorkloadContext } from '../context.ts';
import type { Edit } from '../../fix/edit.ts';
import type { Fix } from '../findings.ts';
import { isRecord, valueAt, type Segment } from '../../read/path.ts';
import { holdsAccelerators } from '../../workload/pod.ts';

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

/**
 * The fix that sets the plan's rolling-update bounds (and the RollingUpdate type when `setType`). A pod that holds no
 * accelerator waits for no spare GPU: a new pod starts before an old one stops (maxSurge 1, maxUnavailable 0), so a
 * single replica keeps serving through the rollout; unless it mounts a PersistentVolumeClaim, which a surge pod may not
 * attach while the old pod holds it (ReadWriteOnce), so it is replaced in place as the plan says.
 */
export function strategyFix(ctx: WorkloadContext, setType: boolean): Fix {
  const { object, plan } = ctx;
  const { base, bounds } = strategyShape(ctx.workload.kind)!;
  const volumes = ctx.workload.serving.spec.volumes;
  const claims = Array.isArray(volumes) && volumes.some((v) => isRecord(v) && v.persistentVolumeClaim !== undefined);
  const cpuOnly = !ctx.containers.some(holdsAccelerators) && !claims;
  const { maxSurge, maxUnavailable } = cpuOnly ? { maxSurge: 1, maxUnavailable: 0 } : plan.strategy;
  const why = cpuOnly
    ? 'no accelerator to wait for: a new pod starts before an old one stops'
    : formulaOf(plan, 'strategy');
  const edits: Edit[] = [];
  if (setType) edits.push(setEdit(object, [...base, 'type'], 'RollingUpdate'));
  edits.push(setEdit(object, [...bounds, 'maxSurge'], maxSurge, ` ${why}`));
  edits.push(setEdit(object, [...bounds, 'maxUnavailable'], maxUnavailable));
  const key = bounds.at(-1) as string;
  return {
    text: `${setType ? 'type: RollingUpdate, ' : ''}${key}: { maxSurge: ${maxSurge}, maxUnavailable: ${maxUnavailable} } (${why})`,
    edits,
  };
}

/** A workload's rollout strategy: its shape, its type, and its bounds as given and as Kubernetes resolves them. */
export function readStrategy(ctx: WorkloadContext) {
  const { object, workload } = ctx;
  const shape = strategyShape(workload.kind);
  if (!shape) return undefined;
  const type = valueAt(object.value, [...shape.base, 'type']);
  const bounds = valueAt(object.value, shape.bounds);
  const surgeRaw = isRecord(bounds) ? bounds.maxSurge : undefined;
  const unavailableRaw = isRecord(bounds) ? bounds.maxUnavailable : undefined;
  const surge = resolveBound(surgeRaw, workload.replicas, shape.surgeDefault, true);
  const unavailable = resolveBound(unavailableRaw, workload.replicas, shape.unavailableDefault, false);
  return { shape, type, surgeRaw, unavailableRaw, surge, unavailable };
}
