/**
 * The model-server pod of a plan: its container (command, arguments with the drain and tensor-parallel flags,
 * environment, resources, preStop, probes) and its volumes (a memory-backed /dev/shm, the model repository where the
 * server reads one), and the comments that explain them. Every output form that carries the pod (the Deployment,
 * and any other form built on it) builds it here, so they agree.
 */
import { isMap, isScalar, isSeq, type Document, type Node, type Scalar, type YAMLMap } from 'yaml';
import { formulaOf, type Plan, type PlannedProbe } from '../model/plan.ts';
import type { GatewayProfile, ModelServerProfile } from '../facts/profiles.ts';
import type { DrainInputs } from '../model/resolve.ts';
import {
  AUTOSCALER_GRACE_LIMIT_SECONDS,
  keepsNodesFromScaleDown,
  SAFE_TO_EVICT_ANNOTATION,
} from '../model/plan-rollout.ts';

/** A path into a YAML document, as `doc.getIn` takes it. */
export type DocPath = (string | number)[];

/** The name of the memory-backed volume mounted at /dev/shm. */
const SHM_VOLUME = 'shm';

/** The name of the model-repository volume, for servers that read their model from a path. */
const MODEL_VOLUME = 'model-repository';

function probeObject(probe: PlannedProbe): Record<string, unknown> {
  const check = probe.path ? { httpGet: { path: probe.path, port: 'http' } } : { tcpSocket: { port: 'http' } };
  return {
    ...check,
    periodSeconds: probe.periodSeconds,
    timeoutSeconds: probe.timeoutSeconds,
    failureThreshold: probe.failureThreshold,
  };
}

/** The container's arguments: the profile's, {model} and {port} filled in, then the tensor-parallel and drain flags. */
function containerArgs(plan: Plan, inputs: DrainInputs, server: ModelServerProfile): string[] {
  const args = server.args.map((arg) =>
    arg.replaceAll('{model}', inputs.model).replaceAll('{port}', String(inputs.port)),
  );
  const tensorParallel = server.deploy.tensorParallel.flag;
  if (tensorParallel) args.push(tensorParallel, String(inputs.gpusPerReplica));
  if (plan.drainFlag) args.push(`${plan.drainFlag.flag}=${plan.drainFlag.seconds}`);
  return args;
}

/** The model-server container for a plan. */
function containerFor(plan: Plan, inputs: DrainInputs, server: ModelServerProfile): Record<string, unknown> {
  const container: Record<string, unknown> = { name: server.id, image: inputs.image };
  if (server.command) container.command = [...server.command];
  container.args = containerArgs(plan, inputs, server);
  if (server.deploy.env.length > 0) container.env = server.deploy.env.map(({ name, value }) => ({ name, value }));
  container.ports = [{ name: 'http', containerPort: inputs.port }];
  // CPU and memory requests are estimates from the profile for the replica's GPUs; memory includes /dev/shm.
  const { cpuPerGpu, memoryGiPerGpu } = server.deploy.resources;
  container.resources = {
    requests: {
      cpu: String(cpuPerGpu * inputs.gpusPerReplica),
      memory: `${memoryGiPerGpu * inputs.gpusPerReplica + server.deploy.shm.sizeLimitGi}Gi`,
    },
    limits: { 'nvidia.com/gpu': inputs.gpusPerReplica },
  };
  const mounts: Record<string, unknown>[] = [{ name: SHM_VOLUME, mountPath: '/dev/shm' }];
  const model = server.deploy.modelVolume;
  if (model) mounts.push({ name: MODEL_VOLUME, mountPath: model.mountPath, readOnly: true });
  container.volumeMounts = mounts;
  if (plan.preStopAction !== 'none') container.lifecycle = preStopHook(plan.preStopAction, plan.preStopSeconds);
  container.startupProbe = probeObject(plan.probes.startup);
  container.readinessProbe = probeObject(plan.probes.readiness);
  container.livenessProbe = probeObject(plan.probes.liveness);
  return container;
}

/** A preStop hook that sleeps `seconds`: the sleep action, or /bin/sleep by exec where Kubernetes lacks it (< 1.30). */
export function preStopHook(action: 'sleep' | 'exec', seconds: number): Record<string, unknown> {
  return {
    preStop: action === 'sleep' ? { sleep: { seconds } } : { exec: { command: ['/bin/sleep', String(seconds)] } },
  };
}

/** Where a container's preStop hook holds its seconds: the sleep's `seconds`, or the exec sleep's argument. */
export function preStopSecondsPath(container: DocPath, action: 'sleep' | 'exec'): DocPath {
  const at = action === 'sleep' ? ['sleep', 'seconds'] : ['exec', 'command', 1];
  return [...container, 'lifecycle', 'preStop', ...at];
}

/** The pod's volumes: /dev/shm in memory, and the model repository's claim where the server needs one. */
function podVolumes(inputs: DrainInputs, server: ModelServerProfile): Record<string, unknown>[] {
  const volumes: Record<string, unknown>[] = [
    { name: SHM_VOLUME, emptyDir: { medium: 'Memory', sizeLimit: `${server.deploy.shm.sizeLimitGi}Gi` } },
  ];
  const model = server.deploy.modelVolume;
  if (model) {
    const claimName = `${inputs.name}-${model.claimSuffix}`;
    volumes.push({ name: MODEL_VOLUME, persistentVolumeClaim: { claimName, readOnly: true } });
  }
  return volumes;
}

/** The pod spec of a plan: grace period, no Service links, the container and its volumes. */
export function podSpecFor(plan: Plan, inputs: DrainInputs, server: ModelServerProfile): Record<string, unknown> {
  return {
    terminationGracePeriodSeconds: plan.terminationGracePeriodSeconds,
    enableServiceLinks: false,
    containers: [containerFor(plan, inputs, server)],
    volumes: podVolumes(inputs, server),
  };
}

/** Whether the pod's gateway proxy can run as a native sidecar on this Kubernetes version. */
function nativeSidecars(inputs: DrainInputs, gateway: GatewayProfile): boolean {
  const sidecar = gateway.podSidecar;
  return (
    sidecar !== undefined
    && Number(inputs.kubernetesVersion.split('.')[1]) >= Number(sidecar.nativeFromKubernetes.split('.')[1])
  );
}

/** The annotations a gateway asks for (for Istio, what keeps an injected sidecar alive through the drain). */
function gatewayAnnotations(
  plan: Plan,
  inputs: DrainInputs,
  gateway: GatewayProfile,
): Record<string, string> | undefined {
  const sidecar = gateway.podSidecar;
  if (!sidecar) return undefined;
  if (nativeSidecars(inputs, gateway)) return { [sidecar.nativeAnnotation]: 'true' };
  return { [sidecar.drainAnnotation]: `terminationDrainDuration: ${plan.terminationGracePeriodSeconds}s` };
}

/**
 * The pod annotations: the gateway's, and cluster-autoscaler's safe-to-evict "false" when the grace period is longer
 * than the autoscaler waits for a pod it evicts (so a scale-down would cut the drain); undefined when there are none.
 */
export function podAnnotations(
  plan: Plan,
  inputs: DrainInputs,
  gateway: GatewayProfile,
): Record<string, string> | undefined {
  const annotations = {
    ...gatewayAnnotations(plan, inputs, gateway),
    ...(keepsNodesFromScaleDown(plan) ? { [SAFE_TO_EVICT_ANNOTATION]: 'false' } : {}),
  };
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

/** Comment the pod annotations at `annotations` (a path to their mapping), when there are any. */
export function annotatePodAnnotations(
  doc: Document,
  metadata: DocPath,
  plan: Plan,
  inputs: DrainInputs,
  gateway: GatewayProfile,
): void {
  const sidecar = gateway.podSidecar;
  const above: string[] = [];
  if (sidecar) {
    above.push(` ${gateway.name}: ${sidecar.summary}`);
    const native = nativeSidecars(inputs, gateway);
    commentOn(
      doc,
      [...metadata, 'annotations', native ? sidecar.nativeAnnotation : sidecar.drainAnnotation],
      native
        ? `Kubernetes ${inputs.kubernetesVersion} \u2265 ${sidecar.nativeFromKubernetes}: the sidecar stops after the model server exits`
        : `Kubernetes ${inputs.kubernetesVersion} < ${sidecar.nativeFromKubernetes}: a classic sidecar drains as long as the ${plan.terminationGracePeriodSeconds}s grace`,
    );
  }
  if (keepsNodesFromScaleDown(plan)) {
    above.push(
      ` cluster-autoscaler waits at most ${AUTOSCALER_GRACE_LIMIT_SECONDS}s (its --max-graceful-termination-sec, 600 unless set) for a pod it evicts`,
      ' to remove a node, less than this grace period: a scale-down would cut a drain. With safe-to-evict "false" it does not',
      ' remove a node while one of these pods runs there (cluster-autoscaler FAQ, "What types of pods can prevent CA from',
      ' removing a node?"). The cost: nodes that run them are not scaled down, even when idle. To let them scale down, raise',
      ` --max-graceful-termination-sec to at least ${plan.terminationGracePeriodSeconds} and remove this annotation.`,
    );
    commentOn(
      doc,
      [...metadata, 'annotations', SAFE_TO_EVICT_ANNOTATION],
      `${plan.terminationGracePeriodSeconds}s grace > ${AUTOSCALER_GRACE_LIMIT_SECONDS}s autoscaler limit`,
    );
  }
  if (above.length > 0) keyAt(doc, metadata, 'annotations').commentBefore = above.join('\n');
}

/** The scalar node at a path, for attaching a comment. Throws if the path is not a scalar. */
export function scalarAt(doc: Document, path: DocPath): Scalar {
  const node = doc.getIn(path, true);
  if (!isScalar(node)) throw new Error(`no scalar at ${path.join('.')}`);
  return node;
}

/** Comment the scalar at a path: ` text` after it, on its line. */
export function commentOn(doc: Document, path: DocPath, text: string): void {
  scalarAt(doc, path).comment = ` ${text}`;
}

/** The key node of a map entry, for a comment on the line(s) above it. */
export function keyAt(doc: Document, mapPath: DocPath, key: string): Scalar {
  const map = mapPath.length === 0 ? doc.contents : doc.getIn(mapPath, true);
  if (!isMap(map)) throw new Error(`no mapping at ${mapPath.join('.')}`);
  const pair = (map as YAMLMap).items.find((p) => isScalar(p.key) && p.key.value === key);
  if (!pair || !isScalar(pair.key)) throw new Error(`no key ${key} at ${mapPath.join('.')}`);
  return pair.key;
}

/** The preStop's length with its derivation, on the sleep's seconds or the exec sleep's argument. */
export function annotatePreStop(doc: Document, container: DocPath, plan: Plan): void {
  if (plan.preStopAction === 'none') return;
  const why = plan.preStopAction === 'exec' ? ' (exec: Kubernetes enables the sleep action from 1.30)' : '';
  commentOn(doc, preStopSecondsPath(container, plan.preStopAction), `${formulaOf(plan, 'preStopSeconds')}${why}`);
}

function drainNote(plan: Plan, server: ModelServerProfile): string {
  switch (server.drain.kind) {
    case 'flag':
      return (
        `${server.name} ${plan.modelServerRelease} predates ${server.drain.flag} (first in ${server.drain.minVersion}), so it is left out; `
        + (server.drain.zeroAborts
          ? 'in-flight requests are aborted at SIGTERM. Use a newer image.'
          : 'the drain cannot be set. Use a newer image.')
      );
    case 'unbounded':
      return `it drains until done; the ${plan.terminationGracePeriodSeconds}s grace period is the bound.`;
    case 'fixed':
      return `its ${server.drain.fixedScope} a fixed ${server.drain.fixedSeconds}s after SIGTERM${server.drain.caveat ? `; ${server.drain.caveat}` : ''}.`;
    case 'none':
      return `it does not drain; in-flight requests end at SIGTERM${server.drain.caveat ? ` (${server.drain.caveat})` : ''}.`;
    default:
      return '';
  }
}

/** Comment the container at `container` (a path to its mapping): drain flag, preStop, probes, resources, env, mounts. */
function annotateContainer(
  doc: Document,
  container: DocPath,
  plan: Plan,
  inputs: DrainInputs,
  server: ModelServerProfile,
): void {
  const args = doc.getIn([...container, 'args'], true);
  if (!isSeq(args)) throw new Error('container args is not a sequence');
  const tensorParallel = server.deploy.tensorParallel.flag;
  if (tensorParallel) {
    const flagAt = args.items.findIndex((item) => isScalar(item) && item.value === tensorParallel);
    (args.items[flagAt + 1] as Node).comment =
      ` gpus-per-replica: ${server.name} shards the model over the pod's ${inputs.gpusPerReplica} GPU${inputs.gpusPerReplica === 1 ? '' : 's'}`;
  }
  if (plan.drainFlag) {
    const last = args.items[args.items.length - 1] as Node;
    last.comment =
      ` drain: ${formulaOf(plan, 'drainSeconds')}`
      + (plan.drainFlagStatus === 'unknown-release'
        ? '; the image tag names no release: one without this flag refuses to start'
        : '');
  } else {
    keyAt(doc, container, 'args').commentBefore =
      server.drain.kind === 'flag'
        ? ` ${drainNote(plan, server)}`
        : ` ${server.name} has no drain flag: ${drainNote(plan, server)}`;
  }
  if (server.deploy.env.length > 0) {
    keyAt(doc, container, 'env').commentBefore = server.deploy.env
      .map((e) => ` ${e.name}=${e.value}: ${e.why}`)
      .join('\n');
  }
  const { cpuPerGpu, memoryGiPerGpu } = server.deploy.resources;
  const gpus = inputs.gpusPerReplica;
  const resources = [...container, 'resources'];
  keyAt(doc, resources, 'requests').commentBefore =
    ' CPU and memory requests are estimates, not measurements: size them from the container\u2019s peak working set'
    + ' (container_memory_working_set_bytes) while the model loads and under full load, with a margin.';
  commentOn(doc, [...resources, 'requests', 'cpu'], `estimate: ${cpuPerGpu} per GPU × ${gpus}`);
  commentOn(
    doc,
    [...resources, 'requests', 'memory'],
    `estimate: ${memoryGiPerGpu}Gi per GPU × ${gpus} + ${server.deploy.shm.sizeLimitGi}Gi /dev/shm (memory-backed, counted as the pod\u2019s memory)`,
  );
  if (!tensorParallel) commentOn(doc, [...resources, 'limits', 'nvidia.com/gpu'], server.deploy.tensorParallel.note);
  annotatePreStop(doc, container, plan);
  if (plan.preStopAction !== 'none') {
    keyAt(doc, container, 'lifecycle').commentBefore =
      ' SIGTERM waits for this sleep, so gateways stop routing here first.';
  }
  annotateProbes(doc, container, plan, ['startup', 'readiness', 'liveness']);
  keyAt(doc, container, 'readinessProbe').commentBefore =
    ' Keep readiness passing while the server accepts requests; the Endpoint Picker drops a deleting pod on its own.';
}

/** The derivation of each probe's failureThreshold (the startup probe's, or the readiness and liveness windows). */
export function annotateProbes(
  doc: Document,
  container: DocPath,
  plan: Plan,
  probes: readonly ('startup' | 'readiness' | 'liveness')[],
): void {
  for (const probe of probes) {
    const step = probe === 'startup' ? 'startupProbe.failureThreshold' : `${probe}Probe.window`;
    commentOn(doc, [...container, `${probe}Probe`, 'failureThreshold'], formulaOf(plan, step));
  }
}

/** Comment the pod spec at `pod` (a path to its mapping) and its one container. */
export function annotatePodSpec(
  doc: Document,
  pod: DocPath,
  plan: Plan,
  inputs: DrainInputs,
  server: ModelServerProfile,
): void {
  commentOn(doc, [...pod, 'terminationGracePeriodSeconds'], formulaOf(plan, 'terminationGracePeriodSeconds'));
  keyAt(doc, pod, 'terminationGracePeriodSeconds').commentBefore =
    ' SIGKILL comes this long after deletion; the countdown includes the preStop sleep.';
  commentOn(
    doc,
    [...pod, 'enableServiceLinks'],
    server.deploy.serviceLinksComment ?? 'no Service variables in the container\u2019s environment',
  );
  annotateContainer(doc, [...pod, 'containers', 0], plan, inputs, server);
  commentOn(
    doc,
    [...pod, 'volumes', 0, 'emptyDir', 'sizeLimit'],
    `/dev/shm in memory: ${server.deploy.shm.explanation}`,
  );
  const model = server.deploy.modelVolume;
  if (model) {
    keyAt(doc, [...pod, 'volumes', 1], 'persistentVolumeClaim').commentBefore = ` ${model.explanation}`;
  }
}
