/**
 * Sort the manifest's objects into what the checker reads: workloads that run pods (Deployment,
 * StatefulSet, LeaderWorkerSet), InferencePools, gateway policies, Gateways and HTTPRoutes. The rest
 * is listed as ignored.
 */
import type { Profiles, ServingKind } from '../../facts/profiles.ts';
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
  /** The ConfigMaps of the input in the workload's namespace: script files its containers may run. */
  scripts?: readonly ManifestObject[];
}

/** A workload whose pods may run a model server. */
export interface Workload {
  object: ManifestObject;
  /** One of WORKLOAD_KINDS, or a serving controller's kind (`served`). */
  kind: string;
  /** The template of the pods that serve requests (the leader's, for a LeaderWorkerSet). */
  serving: PodTemplate;
  /** A LeaderWorkerSet's worker template, when it has a separate leader template and its groups have workers. */
  workers?: PodTemplate;
  /** A LeaderWorkerSet's worker template that makes no pod: its size is 1 (the default), the leader alone. */
  unusedWorkers?: PodTemplate;
  /** Pods (or groups, for a LeaderWorkerSet) it runs; Kubernetes' default 1 when unset. */
  replicas: number;
  /** False when `replicas` is set to something the API server refuses (then `replicas` is the default, not a reading). */
  replicasRead: boolean;
  /** Pods per group of a LeaderWorkerSet (leader included); 1 otherwise. */
  groupSize: number;
  /**
   * A KServe LLMInferenceService's bases: the LLMInferenceServiceConfig objects its `spec.baseRefs` name. `found` ones
   * are in the input and merged into `serving` and `workers`; `missing` ones are not. Under them all the controller
   * merges a well-known config of its own, which no input holds: the pod that runs may hold what the checker does
   * not see.
   */
  bases?: { found: string[]; missing: string[] };
  /** The serving controller that makes the pods from this object's template (content/controllers/). */
  served?: Served;
}

/** A serving controller's kind, as its data file describes it. */
export interface Served {
  /** The controller's name (`Kthena`). */
  controller: string;
  kind: ServingKind;
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

/** The command that checks a pod as its controller rendered it, for findings on what a controller adds. */
export const CHECK_RENDERED_POD = 'kubectl get pod NAME -o yaml | hitless check -';

/** A serving controller's kind (content/controllers/) an object is of, if any. */
export function servingKindOf(
  object: Pick<ManifestObject, 'kind' | 'apiVersion'>,
  profiles: Pick<Profiles, 'controllers'>,
): Served | undefined {
  const group = groupOf(object.apiVersion);
  for (const controller of profiles.controllers) {
    const kind = controller.kinds.find((k) => k.kind === object.kind && k.group === group);
    if (kind) return { controller: controller.name, kind };
  }
  return undefined;
}

/** The controller that makes the pods of a model-serving object the checker cannot read, if it is one. */
export function unreadServing(
  object: Pick<ManifestObject, 'kind' | 'apiVersion'>,
  profiles: Pick<Profiles, 'controllers'>,
): string | undefined {
  const served = servingKindOf(object, profiles);
  return served && !served.kind.pods ? served.controller : undefined;
}

/** API groups the checker reads, by kind; gateway policies come from the gateway profiles. */
const KNOWN: Record<string, (group: string) => boolean> = {
  Deployment: (g) => g === 'apps' || g === 'extensions',
  StatefulSet: (g) => g === 'apps',
  ReplicaSet: (g) => g === 'apps' || g === 'extensions',
  Job: (g) => g === 'batch',
  Pod: (g) => g === '',
  LeaderWorkerSet: (g) => g === 'leaderworkerset.x-k8s.io',
  LLMInferenceService: (g) => g === 'serving.kserve.io',
  LLMInferenceServiceConfig: (g) => g === 'serving.kserve.io',
  InferencePool: (g) => g === 'inference.networking.k8s.io' || g === 'inference.networking.x-k8s.io',
  Gateway: (g) => g === 'gateway.networking.k8s.io',
  HTTPRoute: (g) => g === 'gateway.networking.k8s.io',
};

/**
 * The replica count a workload's object states at spec.replicas: `undefined` when it is unset, not a count, or 0
 * (scaled down: an autoscaler, KEDA or a Rollout's workloadRef sets the count), so that no number is made up.
 */
export function statedReplicas(workload: Workload): number | undefined {
  const stated =
    valueAt(workload.object.value, ['spec', 'replicas']) !== undefined
    && workload.replicasRead
    && workload.replicas > 0;
  return stated ? workload.replicas : undefined;
}

/** Whether the checker reads objects of this kind and API group (a workload, a pool, a config, a route). */
export function readsKind(object: Pick<ManifestObject, 'kind' | 'apiVersion'>): boolean {
  return Object.hasOwn(KNOWN, object.kind) && KNOWN[object.kind](groupOf(object.apiVersion));
}

/** The kinds the checker reads, for the note about ignored objects. */
export function readKinds(profiles: Profiles): string[] {
  // A served kind is named with its group: llmaz's Service is not the core one.
  const served = profiles.controllers.flatMap((c) =>
    c.kinds.filter((k) => k.pods).map((k) => `${k.kind} (${k.group})`),
  );
  return [...new Set([...Object.keys(KNOWN), ...served, ...policyKinds(profiles).map((p) => p.kind)])];
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

/** A template that is the pod spec itself (a PodSpec at `path`, not a PodTemplateSpec): no labels of its own. */
function podSpecTemplate(role: PodTemplate['role'], path: Segment[], spec: unknown): PodTemplate | undefined {
  return isRecord(spec) ? { role, path, specPath: path, labels: {}, spec } : undefined;
}

/** A pod spec with another laid over it: containers of the same name as one (the later's fields win), the rest by key. */
function overPodSpec(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base, ...over };
  for (const key of ['containers', 'initContainers']) {
    const under = Array.isArray(base[key]) ? (base[key] as unknown[]) : [];
    const top = Array.isArray(over[key]) ? (over[key] as unknown[]) : [];
    if (under.length === 0 || top.length === 0) continue;
    const named = (c: unknown) => (isRecord(c) && typeof c.name === 'string' ? c.name : undefined);
    const topNames = new Set(top.map(named));
    // The object's own containers keep their indexes (findings point into it); the base's others follow.
    merged[key] = [
      ...top.map((c) => {
        const match = under.find((u) => named(u) !== undefined && named(u) === named(c));
        return isRecord(match) && isRecord(c) ? { ...match, ...c } : c;
      }),
      ...under.filter((u) => !topNames.has(named(u))),
    ];
  }
  return merged;
}

/**
 * KServe's LLMInferenceService: `spec.template` is the pod spec itself (a PodSpec, not a PodTemplateSpec), and
 * `spec.worker` the workers' for a multi-node server. The controller labels the pods. It merges, with a strategic
 * merge, a well-known config of its own for the shape (kserve-config-llm-template for one node), then the
 * LLMInferenceServiceConfig objects `spec.baseRefs` names in order, then the object's own spec, which wins
 * (pkg/controller/v1alpha2/llmisvc/config_merge.go, combineBaseRefsConfig, at kserve v0.19.0); the named configs in
 * the input are read that way, and the well-known one is unknown.
 */
function llmInferenceServiceFrom(
  object: ManifestObject,
  configs: readonly ManifestObject[],
  used: Set<ManifestObject>,
): Workload | undefined {
  const refs = valueAt(object.value, ['spec', 'baseRefs']);
  const names = Array.isArray(refs)
    ? refs.flatMap((r) => (isRecord(r) && typeof r.name === 'string' ? [r.name] : []))
    : [];
  const found: ManifestObject[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const config = configs.find((c) => c.name === name && sameNamespace(c, object));
    if (config) {
      found.push(config);
      used.add(config);
    } else missing.push(name);
  }
  const layered = (path: Segment[]): Record<string, unknown> | undefined => {
    let spec: Record<string, unknown> | undefined;
    for (const layer of [...found, object]) {
      const value = valueAt(layer.value, path);
      if (isRecord(value)) spec = spec ? overPodSpec(spec, value) : value;
    }
    return spec;
  };
  const serving = podSpecTemplate('pod', ['spec', 'template'], layered(['spec', 'template']));
  if (!serving) return undefined;
  const workers = podSpecTemplate('worker', ['spec', 'worker'], layered(['spec', 'worker']));
  let rawReplicas: unknown;
  for (const layer of [...found, object]) rawReplicas = valueAt(layer.value, ['spec', 'replicas']) ?? rawReplicas;
  const replicas = wholeNumber(rawReplicas, 1);
  const bases = { found: found.map((c) => c.name), missing };
  return { object, kind: 'LLMInferenceService', serving, workers, replicas, replicasRead: true, groupSize: 1, bases };
}

/** A field path of a controller's data file as segments. */
const segments = (path: string): Segment[] => path.split('.').map((s) => (/^\d+$/.test(s) ? Number(s) : s));

/** A pod template at `path` in the shape the controller's data gives. */
function servedTemplate(
  object: ManifestObject,
  role: PodTemplate['role'],
  path: Segment[],
  shape: 'PodTemplateSpec' | 'PodSpec',
): PodTemplate | undefined {
  return shape === 'PodTemplateSpec'
    ? templateAt(object, role, path)
    : podSpecTemplate(role, path, valueAt(object.value, path));
}

/**
 * The workloads of a serving controller's resource (content/controllers/): one per entry of its `each` list, or one.
 * The serving pods' labels are the template's over those the controller adds.
 */
function servedFrom(object: ManifestObject, served: Served): Workload[] {
  const pods = served.kind.pods!;
  const list = pods.each ? valueAt(object.value, segments(pods.each)) : undefined;
  const entries: Segment[][] = !pods.each
    ? [[]]
    : Array.isArray(list)
      ? list.map((_, i) => [...segments(pods.each!), i])
      : [];
  return entries.flatMap((entry): Workload[] => {
    const at = (path: string) => [...entry, ...segments(path)];
    const role = pods.workers ? 'leader' : 'pod';
    const from = pods.serving.find((t) => isRecord(valueAt(object.value, at(t.path))));
    const template = from && servedTemplate(object, role, at(from.path), from.shape);
    if (!template) return [];
    const workers =
      pods.workers && pods.workers.path !== from.path
        ? servedTemplate(object, 'worker', at(pods.workers.path), pods.workers.shape)
        : undefined;
    const number = (field: { path: string; default: number } | undefined) => {
      const raw = field ? valueAt(object.value, at(field.path)) : undefined;
      return { value: wholeNumber(raw, field?.default ?? 1), read: raw === undefined || wholeNumber(raw, -1) >= 0 };
    };
    const replicas = number(pods.replicas);
    const group = pods.groupSize ? number(pods.groupSize).value : 1;
    const groupSize = pods.groupSize?.counts === 'workers' ? group + 1 : Math.max(group, 1);
    const added: Record<string, string> = {};
    for (const [key, value] of Object.entries(pods.addsLabels)) {
      let unread = false;
      const text = value.replace(/\{(name|entry\.[A-Za-z0-9.]+|object\.[A-Za-z0-9.]+)\}/g, (_, field: string) => {
        const [from, ...path] = field.split('.');
        const found =
          from === 'name'
            ? object.name
            : valueAt(object.value, [...(from === 'entry' ? entry : []), ...segments(path.join('.'))]);
        if (typeof found !== 'string') unread = true;
        return String(found);
      });
      if (!unread) added[key] = text;
    }
    const serving = { ...template, labels: { ...added, ...template.labels } };
    return [
      {
        object,
        kind: object.kind,
        serving,
        workers,
        replicas: replicas.value,
        replicasRead: replicas.read,
        groupSize,
        served,
      },
    ];
  });
}

function wholeNumber(value: unknown, fallback: number): number {
  if (typeof value === 'string' && /^(0|[1-9]\d{0,8})$/.test(value)) return Number(value); // quoted: value-rejected reports it
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
}

function workloadFrom(object: ManifestObject): Workload | undefined {
  const { kind } = object;
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
    const size = valueAt(object.value, [...base, 'size']);
    const groupSize = wholeNumber(size, 1) || 1;
    // Size 1 (its default) is the leader alone, with a worker StatefulSet of 0 replicas (LWS api/leaderworkerset/v1,
    // LeaderWorkerTemplate.Size at v0.10.0); a size the checker cannot read may still make workers.
    const alone = size === undefined || size === null || size === 1;
    return {
      object,
      kind,
      serving,
      workers: leader && !alone ? workers : undefined,
      ...(leader && alone && workers ? { unusedWorkers: workers } : {}),
      replicas,
      replicasRead,
      groupSize,
    };
  }
  // A Pod is its own template (`kubectl get pod -o yaml` gives one, as the controller rendered it).
  const serving = templateAt(object, 'pod', kind === 'Pod' ? [] : ['spec', 'template']);
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
  // LLMInferenceServiceConfig objects are read as the bases an LLMInferenceService names; unnamed ones are ignored.
  const isConfig = (o: ManifestObject) =>
    o.kind === 'LLMInferenceServiceConfig' && KNOWN.LLMInferenceServiceConfig(groupOf(o.apiVersion));
  const configs = manifest.objects.filter(isConfig);
  const based = new Set<ManifestObject>();
  for (const object of manifest.objects) {
    if (isConfig(object)) continue;
    const group = groupOf(object.apiVersion);
    if (policies.some((p) => p.kind === object.kind && p.group === group)) {
      located.policies.push(object);
      continue;
    }
    const served = servingKindOf(object, profiles);
    if (served?.kind.pods) {
      const workloads = servedFrom(object, served);
      if (workloads.length > 0) located.workloads.push(...workloads);
      else located.ignored.push(object);
      continue;
    }
    const known = KNOWN[object.kind];
    if (!known?.(group)) {
      located.ignored.push(object);
      continue;
    }
    if ((WORKLOAD_KINDS as readonly string[]).includes(object.kind)) {
      const workload =
        object.kind === 'LLMInferenceService' ? llmInferenceServiceFrom(object, configs, based) : workloadFrom(object);
      if (workload) located.workloads.push(workload);
      else located.ignored.push(object);
    } else if (object.kind === 'InferencePool') located.pools.push(poolFrom(object));
    else if (object.kind === 'HTTPRoute') located.routes.push(object);
    else located.gateways.push(object);
  }
  located.ignored.push(...configs.filter((c) => !based.has(c)));
  const configMaps = located.ignored.filter((o) => o.kind === 'ConfigMap' && o.apiVersion === 'v1');
  for (const workload of configMaps.length > 0 ? located.workloads : []) {
    const scripts = configMaps.filter((c) => sameNamespace(c, workload.object));
    for (const template of [workload.serving, workload.workers]) if (template) template.scripts = scripts;
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
