/** The objects the checker ignores, by kind: the rules on unread kinds note each kind once. */
import { objectName, type CheckContext } from '../context.ts';
import type { ManifestObject } from '../../read/read-manifest.ts';
import { isRecord } from '../../read/path.ts';
import type { Profiles } from '../../../facts/profiles.ts';
import { groupOf } from '../../workload/gateway-policies.ts';
import { readsKind, servingKindOf } from '../../workload/locate.ts';
import { isAcceleratorResource } from '../../workload/pod.ts';

/** Objects that belong beside a model-server workload and carry nothing the checker reads: no note for them. */
const COMPANION_KINDS: ReadonlySet<string> = new Set(['policy/v1 PodDisruptionBudget']);

/** The ignored objects grouped by apiVersion and kind, in input order; companions (a PodDisruptionBudget) left out. */
export function ignoredByKind(check: CheckContext): ManifestObject[][] {
  const byKind = new Map<string, ManifestObject[]>();
  for (const object of check.located.ignored) {
    // The generator writes a PodDisruptionBudget beside the Deployment; it holds no drain setting to check.
    if (COMPANION_KINDS.has(`${object.apiVersion} ${object.kind}`)) continue;
    const key = `${object.apiVersion} ${object.kind}`;
    byKind.set(key, [...(byKind.get(key) ?? []), object]);
  }
  return [...byKind.values()];
}

/** The first three objects' names, and how many more: "Kind/a, Kind/b, Kind/c and 2 more". */
export function namesOf(objects: ManifestObject[]): string {
  return objects.slice(0, 3).map(objectName).join(', ') + (objects.length > 3 ? ` and ${objects.length - 3} more` : '');
}

/** The controllers' data and a reader's kinds aside, whether an object holds a pod spec: where its `containers` list is. */
function podSpecPath(value: unknown, depth = 0): (string | number)[] | undefined {
  // Deep enough for a role's leader-worker template (spec.roles[].spec.leaderWorkerTemplate.workerTemplate.spec).
  if (depth > 10 || typeof value !== 'object' || value === null) return undefined;
  const containers = isRecord(value) ? value.containers : undefined;
  if (Array.isArray(containers) && containers.some((c) => isRecord(c) && typeof c.image === 'string'))
    return ['containers'];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  for (const [key, child] of entries) {
    // Status and metadata hold no template; a ConfigMap's or Secret's data is text.
    if (depth === 0 && (key === 'status' || key === 'metadata' || key === 'data' || key === 'stringData')) continue;
    const inner = podSpecPath(child, depth + 1);
    if (inner) return [key, ...inner];
  }
  return undefined;
}

/** Kubernetes' own API groups: their kinds that hold containers (DaemonSet, CronJob) are no controller's custom resource. */
const BUILT_IN_GROUP = /^(|apps|batch|extensions|policy|autoscaling|[a-z0-9.-]+\.k8s\.io)$/;

/**
 * Where a custom resource of a kind no data file names holds containers, or undefined: a built-in kind, one
 * content/controllers/ knows, or no containers.
 */
export function unknownPodSpec(
  object: ManifestObject,
  profiles: Pick<Profiles, 'controllers'>,
): (string | number)[] | undefined {
  if (BUILT_IN_GROUP.test(groupOf(object.apiVersion)) || servingKindOf(object, profiles) || readsKind(object))
    return undefined;
  return podSpecPath(object.value) ?? imageWithAccelerators(object.value);
}

/**
 * An operator's CR that names no containers but an image and accelerators for it (NVIDIA's NIMService:
 * spec.image.repository, spec.resources.limits["nvidia.com/gpu"]): where its image is, when it has both.
 */
function imageWithAccelerators(value: Record<string, unknown>): (string | number)[] | undefined {
  const { spec } = value;
  if (!isRecord(spec)) return undefined;
  const { image } = spec;
  const named =
    (typeof image === 'string' && image !== '') || (isRecord(image) && typeof image.repository === 'string');
  return named && hasAccelerator(spec) ? ['spec', 'image'] : undefined;
}

function hasAccelerator(value: unknown, depth = 0): boolean {
  if (depth > 8 || typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, child]) => isAcceleratorResource(key) || hasAccelerator(child, depth + 1));
}
