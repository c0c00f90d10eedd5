/**
 * Sort the manifest's objects into what the checker reads: workloads that run pods (Deployment,
 * StatefulSet, LeaderWorkerSet), InferencePools, gateway policies, Gateways and HTTPRoutes. The rest
 * is listed as ignored.
 */
import type { Profiles } from '../../facts/profiles.ts';
import { LWS_NAME_LABEL } from '../../emit/lws.ts';
import { groupOf, policyKinds } from './gateway-policies.ts';
import type { Manifest, ManifestObject } from '../read/read-manifest.ts';
import { isRecord, valueAt, type Segment } from '../read/path.ts';

/** A pod template inside a workload, and its role there. */
export interface PodTemplate {
  /** `pod` for Deployment and StatefulSet; `leader` and `worker` for a LeaderWorkerSet. */
  role: 'pod' | 'leader' | 'worker';
  /** Path from the object to the template (`spec.template`). */
  path: Segment[];
  /** Path from the object to the pod spec (`spec.template.spec`; `spec.template` for KServe's LLMInferenceService). */
  specPath: Segment[];
  labels: Record<string, string>;
  spec: Record<string, unknown>;
}

/** A workload whose pods may run a model server. */
export interface Workload {
  object: ManifestObject;
  kind: (typeof WORKLOAD_KINDS)[number];
  /** The template of the pods that serve requests (the leader's, for a LeaderWorkerSet). */
  serving: PodTemplate;
  /** A LeaderWorkerSet's worker template, when it has a separate leader template. */
  workers?: PodTemplate;
  /** Pods (or groups, for a LeaderWorkerSet) it runs; Kubernetes' default 1 when unset. */
  replicas: number;
  /** False when `replicas` is set to something the API server refuses (then `replicas` is the default, not a reading). */
  replicasRead: boolean;
  /** Pods per group of a LeaderWorkerSet (leader included); 1 otherwise. */
  groupSize: number;
}

/** An InferencePool, in the v1 shape or the removed v1alpha2 one. */
export interface Pool {
  object: ManifestObject;
  /** `inference.networking.k8s.io/v1`, or false for the removed `inference.networking.x-k8s.io` versions. */
  current: boolean;
  selector: Record<string, string>;
  /** Path from the object to the selector's labels. */
  selectorPath: Segment[];
  /** Target ports with their paths from the object. */
  targetPorts: { number: number; path: Segment[] }[];
}

/** Everything the checker reads, plus the objects it ignores. */
export interface Located {
  workloads: Workload[];
  pools: Pool[];
  policies: ManifestObject[];
  routes: ManifestObject[];
  gateways: ManifestObject[];
  ignored: ManifestObject[];
}

const LWS_WORKER_INDEX_LABEL = 'leaderworkerset.sigs.k8s.io/worker-index';

const WORKLOAD_KINDS = [
  'Deployment',
  'StatefulSet',
  'LeaderWorkerSet',
  'LLMInferenceService',
  'ReplicaSet',
  'Job',
  'Pod',
] as const;

/**
 * Model-serving kinds the checker cannot read: their pods come from a controller's own defaults, so what the
 * manifest says is not the pod that runs. Named in a warning so that a run does not read as a pass.
 */
export const UNREAD_SERVING_KINDS: Record<string, string> = {
  VLLMRuntime: 'vLLM production-stack',
  InferenceService: 'KServe',
  ServingRuntime: 'KServe',
  ClusterServingRuntime: 'KServe',
  RayService: 'KubeRay',
  ModelAdapter: 'AIBrix',
  RayClusterFleet: 'AIBrix',
  InferenceGraph: 'KServe',
};

/** API groups the checker reads, by kind; gateway policies come from the gateway profiles. */
const KNOWN: Record<string, (group: string) => boolean> = {
  Deployment: (g) => g === 'apps' || g === 'extensions',
  StatefulSet: (g) => g === 'apps',
  ReplicaSet: (g) => g === 'apps' || g === 'extensions',
  Job: (g) => g === 'batch',
  Pod: (g) => g === '',
  LeaderWorkerSet: (g) => g === 'leaderworkerset.x-k8s.io',
  LLMInferenceService: (g) => g === 'serving.kserve.io',
  InferencePool: (g) => g === 'inference.networking.k8s.io' || g === 'inference.networking.x-k8s.io',
  Gateway: (g) => g === 'gateway.networking.k8s.io',
  HTTPRoute: (g) => g === 'gateway.networking.k8s.io',
};

/** The kinds the checker reads, for the note about ignored objects. */
export function readKinds(profiles: Profiles): string[] {
  return [...new Set([...Object.keys(KNOWN), ...policyKinds(profiles).map((p) => p.kind)])];
}

function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isRecord(value))
    for (const [k, v] of Object.entries(value))
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
  return out;
}

function templateAt(object: ManifestObject, role: PodTemplate['role'], path: Segment[]): PodTemplate | undefined {
  const template = valueAt(object.value, path);
  if (!isRecord(template)) return undefined;
  return {
    role,
    path,
    specPath: [...path, 'spec'],
    labels: stringMap(valueAt(template, ['metadata', 'labels'])),
    spec: isRecord(template.spec) ? template.spec : {},
  };
}

/**
 * KServe's LLMInferenceService: `spec.template` is the pod spec itself (a PodSpec, not a PodTemplateSpec), and
 * `spec.worker` the workers' for a multi-node server. The controller labels the pods; the checker reads the
 * pod spec as it is written.
 */
function llmInferenceServiceFrom(object: ManifestObject): Workload | undefined {
  const spec = valueAt(object.value, ['spec', 'template']);
  if (!isRecord(spec)) return undefined;
  const serving: PodTemplate = {
    role: 'pod',
    path: ['spec', 'template'],
    specPath: ['spec', 'template'],
    labels: {},
    spec,
  };
  const worker = valueAt(object.value, ['spec', 'worker']);
  const workers: PodTemplate | undefined = isRecord(worker)
    ? { role: 'worker', path: ['spec', 'worker'], specPath: ['spec', 'worker'], labels: {}, spec: worker }
    : undefined;
  const rawReplicas = valueAt(object.value, ['spec', 'replicas']);
  const replicas = wholeNumber(rawReplicas, 1);
  return { object, kind: 'LLMInferenceService', serving, workers, replicas, replicasRead: true, groupSize: 1 };
}

function wholeNumber(value: unknown, fallback: number): number {
  if (typeof value === 'string' && /^(0|[1-9]\d{0,8})$/.test(value)) return Number(value); // quoted: value-rejected reports it
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
}

function workloadFrom(object: ManifestObject): Workload | undefined {
  const kind = object.kind as Workload['kind'];
  const rawReplicas = valueAt(object.value, ['spec', 'replicas']);
  const replicas = wholeNumber(rawReplicas, 1);
  const replicasRead =
    rawReplicas === undefined || rawReplicas === null || replicas === rawReplicas || String(replicas) === rawReplicas;
  if (kind === 'LeaderWorkerSet') {
    const base = ['spec', 'leaderWorkerTemplate'];
    const workers = templateAt(object, 'worker', [...base, 'workerTemplate']);
    const leader = templateAt(object, 'leader', [...base, 'leaderTemplate']);
    const served = leader ?? (workers ? { ...workers, role: 'leader' as const } : undefined);
    if (!served) return undefined;
    // The LeaderWorkerSet controller labels every pod with the set's name, and the leader with worker index 0.
    const serving = {
      ...served,
      labels: { ...served.labels, [LWS_NAME_LABEL]: object.name, [LWS_WORKER_INDEX_LABEL]: '0' },
    };
    const groupSize = wholeNumber(valueAt(object.value, [...base, 'size']), 1) || 1;
    return { object, kind, serving, workers: leader ? workers : undefined, replicas, replicasRead, groupSize };
  }
  // A Pod is its own template (`kubectl get pod -o yaml` gives one, as the controller rendered it).
  const serving = kind === 'Pod' ? templateAt(object, 'pod', []) : templateAt(object, 'pod', ['spec', 'template']);
  if (!serving) return undefined;
  // A Job's pods are not replicas behind one Service: it is read as one pod.
  return kind === 'Job' || kind === 'Pod'
    ? { object, kind, serving, replicas: 1, replicasRead: false, groupSize: 1 }
    : { object, kind, serving, replicas, replicasRead, groupSize: 1 };
}

function poolFrom(object: ManifestObject): Pool {
  const current = groupOf(object.apiVersion) === 'inference.networking.k8s.io';
  const spec = isRecord(object.value.spec) ? object.value.spec : {};
  if (current) {
    const ports = Array.isArray(spec.targetPorts) ? spec.targetPorts : [];
    return {
      object,
      current,
      selector: stringMap(valueAt(spec, ['selector', 'matchLabels'])),
      selectorPath: ['spec', 'selector', 'matchLabels'],
      targetPorts: ports.flatMap((p, i) =>
        isRecord(p) && typeof p.number === 'number'
          ? [{ number: p.number, path: ['spec', 'targetPorts', i, 'number'] }]
          : [],
      ),
    };
  }
  // v1alpha2: a flat selector map and a single targetPortNumber.
  return {
    object,
    current,
    selector: stringMap(spec.selector),
    selectorPath: ['spec', 'selector'],
    targetPorts:
      typeof spec.targetPortNumber === 'number'
        ? [{ number: spec.targetPortNumber, path: ['spec', 'targetPortNumber'] }]
        : [],
  };
}

/** Sort every object of a manifest by what the checker does with it. */
export function locate(manifest: Pick<Manifest, 'objects'>, profiles: Profiles): Located {
  const located: Located = { workloads: [], pools: [], policies: [], routes: [], gateways: [], ignored: [] };
  const policies = policyKinds(profiles);
  for (const object of manifest.objects) {
    const group = groupOf(object.apiVersion);
    if (policies.some((p) => p.kind === object.kind && p.group === group)) {
      located.policies.push(object);
      continue;
    }
    const known = KNOWN[object.kind];
    if (!known?.(group)) {
      located.ignored.push(object);
      continue;
    }
    if ((WORKLOAD_KINDS as readonly string[]).includes(object.kind)) {
      const workload = object.kind === 'LLMInferenceService' ? llmInferenceServiceFrom(object) : workloadFrom(object);
      if (workload) located.workloads.push(workload);
      else located.ignored.push(object);
    } else if (object.kind === 'InferencePool') located.pools.push(poolFrom(object));
    else if (object.kind === 'HTTPRoute') located.routes.push(object);
    else located.gateways.push(object);
  }
  return located;
}

/** Whether two objects share a namespace; an object without one is taken to be in the other's. */
export function sameNamespace(a: ManifestObject, b: ManifestObject): boolean {
  return a.namespace === undefined || b.namespace === undefined || a.namespace === b.namespace;
}

/** Whether a pool selects a workload's pods: in the same namespace, by its selector. */
export function poolSelects(pool: Pool, workload: Workload): boolean {
  return sameNamespace(pool.object, workload.object) && selects(pool.selector, workload.serving.labels);
}

/** Whether a selector's labels are all on a pod template. An empty selector matches nothing here. */
export function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  const entries = Object.entries(selector);
  return entries.length > 0 && entries.every(([k, v]) => labels[k] === v);
}
