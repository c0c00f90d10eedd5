/**
 * Emit the annotated manifest for a plan: the model-server Deployment and its InferencePool, plus any extra
 * objects the gateway's profile lists (`emit-extra.ts`), as one multi-document YAML string built with the `yaml`
 * Document API. Every drain value carries a comment with its arithmetic, taken from the plan's derivation;
 * nothing here computes a number of its own.
 * User strings reach the YAML only as scalar values (the library quotes them) and only after validation.
 */
import { Document, isMap, isScalar, isSeq, type Node, type Scalar, type YAMLMap } from 'yaml';
import { formulaOf, type Plan, type PlannedProbe } from './plan.ts';
import type { ModelServerProfile, Profiles } from './profiles.ts';
import { changedInputs, modelServerById, type DrainInputs } from './resolve.ts';
import { extraManifestDocuments } from './emit-extra.ts';
import { DOCUMENT_OPTIONS, TO_STRING } from './emit-options.ts';

/** The generator's version, named in every manifest header. */
export const GENERATOR_VERSION = '0.1.0';

/** The InferencePool API group and version the manifest uses. */
const INFERENCE_POOL_API_VERSION = 'inference.networking.k8s.io/v1';

/** The label GIE uses to tell the Endpoint Picker which engine serves the pool. */
export const ENGINE_TYPE_LABEL = 'inference.networking.k8s.io/engine-type';

function probeObject(probe: PlannedProbe): Record<string, unknown> {
  const check = probe.path ? { httpGet: { path: probe.path, port: 'http' } } : { tcpSocket: { port: 'http' } };
  return {
    ...check,
    periodSeconds: probe.periodSeconds,
    timeoutSeconds: probe.timeoutSeconds,
    failureThreshold: probe.failureThreshold,
  };
}

/** Expand `{model}` and `{port}` in a profile's arguments. */
function expandArgs(server: ModelServerProfile, inputs: DrainInputs): string[] {
  return server.args.map((arg) => arg.replaceAll('{model}', inputs.model).replaceAll('{port}', String(inputs.port)));
}

function containerFor(plan: Plan, inputs: DrainInputs, server: ModelServerProfile): Record<string, unknown> {
  const args = expandArgs(server, inputs);
  if (plan.drainFlag) args.push(`${plan.drainFlag.flag}=${plan.drainFlag.seconds}`);
  const container: Record<string, unknown> = { name: server.id, image: inputs.image };
  if (server.command) container.command = [...server.command];
  container.args = args;
  container.ports = [{ name: 'http', containerPort: inputs.port }];
  container.resources = { limits: { 'nvidia.com/gpu': inputs.gpusPerReplica } };
  if (plan.preStopAction === 'sleep') container.lifecycle = { preStop: { sleep: { seconds: plan.preStopSeconds } } };
  if (plan.preStopAction === 'exec') container.lifecycle = { preStop: { exec: { command: ['/bin/sleep', String(plan.preStopSeconds)] } } };
  container.startupProbe = probeObject(plan.probes.startup);
  container.readinessProbe = probeObject(plan.probes.readiness);
  container.livenessProbe = probeObject(plan.probes.liveness);
  return container;
}

function deploymentFor(plan: Plan, inputs: DrainInputs, server: ModelServerProfile): Record<string, unknown> {
  const labels = { app: inputs.name, [ENGINE_TYPE_LABEL]: server.engineType };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: inputs.name, namespace: inputs.namespace, labels: { app: inputs.name } },
    spec: {
      replicas: inputs.replicas,
      progressDeadlineSeconds: plan.progressDeadlineSeconds,
      strategy: { type: 'RollingUpdate', rollingUpdate: { ...plan.strategy } },
      selector: { matchLabels: { app: inputs.name } },
      template: {
        metadata: { labels },
        spec: {
          terminationGracePeriodSeconds: plan.terminationGracePeriodSeconds,
          enableServiceLinks: false,
          containers: [containerFor(plan, inputs, server)],
        },
      },
    },
  };
}

function inferencePoolFor(inputs: DrainInputs): Record<string, unknown> {
  return {
    apiVersion: INFERENCE_POOL_API_VERSION,
    kind: 'InferencePool',
    metadata: { name: inputs.name, namespace: inputs.namespace },
    spec: {
      selector: { matchLabels: { app: inputs.name } },
      targetPorts: [{ number: inputs.port }],
      endpointPickerRef: { name: `${inputs.name}-epp`, port: { number: inputs.eppPort }, failureMode: inputs.failureMode },
    },
  };
}

/** The scalar node at a path, for attaching a comment. Throws if the path is not a scalar. */
function scalarAt(doc: Document, path: (string | number)[]): Scalar {
  const node = doc.getIn(path, true);
  if (!isScalar(node)) throw new Error(`no scalar at ${path.join('.')}`);
  return node;
}

/** The key node of a map entry, for a comment on the line(s) above it. */
function keyAt(doc: Document, mapPath: (string | number)[], key: string): Scalar {
  const map = mapPath.length === 0 ? doc.contents : doc.getIn(mapPath, true);
  if (!isMap(map)) throw new Error(`no mapping at ${mapPath.join('.')}`);
  const pair = (map as YAMLMap).items.find((p) => isScalar(p.key) && p.key.value === key);
  if (!pair || !isScalar(pair.key)) throw new Error(`no key ${key} at ${mapPath.join('.')}`);
  return pair.key;
}

/** Add the drain comments to the Deployment document. */
function annotateDeployment(doc: Document, plan: Plan, server: ModelServerProfile): void {
  const pod = ['spec', 'template', 'spec'];
  const container = [...pod, 'containers', 0];
  scalarAt(doc, ['spec', 'progressDeadlineSeconds']).comment = ` ${formulaOf(plan, 'progressDeadlineSeconds')}`;
  scalarAt(doc, ['spec', 'strategy', 'rollingUpdate', 'maxSurge']).comment = ` ${formulaOf(plan, 'strategy')}`;
  keyAt(doc, ['spec'], 'strategy').commentBefore =
    ` Rollout, worst case: ${formulaOf(plan, 'rolloutSeconds')} = ${plan.rolloutSeconds}s; during a step ${formulaOf(plan, 'rolloutCapacity')}.`;
  scalarAt(doc, [...pod, 'terminationGracePeriodSeconds']).comment = ` ${formulaOf(plan, 'terminationGracePeriodSeconds')}`;
  keyAt(doc, pod, 'terminationGracePeriodSeconds').commentBefore =
    ' SIGKILL comes this long after deletion; the countdown includes the preStop sleep.';
  scalarAt(doc, [...pod, 'enableServiceLinks']).comment = ' no Service variables (VLLM_PORT from a Service named vllm breaks vLLM)';
  if (plan.drainFlag) {
    const args = doc.getIn([...container, 'args'], true);
    if (!isSeq(args)) throw new Error('container args is not a sequence');
    const last = args.items[args.items.length - 1] as Node;
    last.comment = ` drain: ${formulaOf(plan, 'drainSeconds')}`
      + (plan.drainFlagStatus === 'unknown-release' ? '; the image tag names no release: one without this flag refuses to start' : '');
  } else {
    keyAt(doc, container, 'args').commentBefore = server.drain.kind === 'flag'
      ? ` ${drainNote(plan, server)}`
      : ` ${server.name} has no drain flag: ${drainNote(plan, server)}`;
  }
  if (plan.preStopAction === 'sleep') {
    scalarAt(doc, [...container, 'lifecycle', 'preStop', 'sleep', 'seconds']).comment = ` ${formulaOf(plan, 'preStopSeconds')}`;
  }
  if (plan.preStopAction === 'exec') {
    scalarAt(doc, [...container, 'lifecycle', 'preStop', 'exec', 'command', 1]).comment =
      ` ${formulaOf(plan, 'preStopSeconds')} (exec: Kubernetes enables the sleep action from 1.30)`;
  }
  if (plan.preStopAction !== 'none') {
    keyAt(doc, container, 'lifecycle').commentBefore = ' SIGTERM waits for this sleep, so gateways stop routing here first.';
  }
  scalarAt(doc, [...container, 'startupProbe', 'failureThreshold']).comment = ` ${formulaOf(plan, 'startupProbe.failureThreshold')}`;
  keyAt(doc, container, 'readinessProbe').commentBefore =
    ' Keep readiness passing while the server accepts requests; the Endpoint Picker drops a deleting pod on its own.';
  scalarAt(doc, [...container, 'readinessProbe', 'failureThreshold']).comment = ` ${formulaOf(plan, 'readinessProbe.window')}`;
  scalarAt(doc, [...container, 'livenessProbe', 'failureThreshold']).comment = ` ${formulaOf(plan, 'livenessProbe.window')}`;
}

function drainNote(plan: Plan, server: ModelServerProfile): string {
  switch (server.drain.kind) {
    case 'flag': return `${server.name} ${plan.modelServerRelease} predates ${server.drain.flag} (first in ${server.drain.minVersion}), so it is left out; `
      + (server.drain.zeroAborts ? 'in-flight requests are aborted at SIGTERM. Use a newer image.' : 'the drain cannot be set. Use a newer image.');
    case 'unbounded': return `it drains until done; the ${plan.terminationGracePeriodSeconds}s grace period is the bound.`;
    case 'fixed': return `its ${server.drain.fixedScope} a fixed ${server.drain.fixedSeconds}s after SIGTERM${server.drain.caveat ? `; ${server.drain.caveat}` : ''}.`;
    case 'none': return `it does not drain; in-flight requests end at SIGTERM${server.drain.caveat ? ` (${server.drain.caveat})` : ''}.`;
    default: return '';
  }
}

/** The PodDisruptionBudget beside the Deployment: evictions one pod at a time. */
function podDisruptionBudgetDocument(plan: Plan, inputs: DrainInputs): Document | undefined {
  if (!plan.podDisruptionBudget) return undefined;
  const doc = new Document({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: inputs.name, namespace: inputs.namespace },
    spec: { maxUnavailable: plan.podDisruptionBudget.maxUnavailable, selector: { matchLabels: { app: inputs.name } } },
  }, DOCUMENT_OPTIONS);
  doc.commentBefore = [
    ' Node drains and cluster-autoscaler scale-downs evict pods without regard to the rollout strategy; this budget',
    ' makes them take one pod at a time. Leave it out (pod-disruption-budget=false) if another budget already selects',
    ' these pods: the eviction API refuses to evict a pod that two budgets select.',
  ].join('\n');
  scalarAt(doc, ['spec', 'maxUnavailable']).comment = ` ${formulaOf(plan, 'podDisruptionBudget')}`;
  return doc;
}

/** The header: generator version, the pair profiled, and how to reproduce the output. */
function headerLines(plan: Plan, inputs: DrainInputs, profiles: Profiles): string[] {
  const changed = changedInputs(inputs, profiles);
  const flags = changed.map(([flag, value]) => (value === 'true' ? `--${flag}` : `--${flag} ${value}`)).join(' ');
  return [
    ` Generated by Hitless ${GENERATOR_VERSION} (drain model v${plan.modelVersion}) for ${plan.gateway} + ${plan.modelServer}.`,
    changed.length > 0 ? ` Inputs changed from defaults: ${flags}` : ' All inputs at their defaults.',
    ` Reproduce (in a Hitless checkout, after npm ci): npx hitless generate${flags ? ` ${flags}` : ''}`,
    ` Drain: ${plan.preStopSeconds}s preStop, ${plan.drainSeconds}s drain, ${plan.teardownSeconds}s teardown = ${plan.terminationGracePeriodSeconds}s grace.`,
  ];
}

/**
 * The documents of the manifest, annotated: the Deployment, the InferencePool, the gateway's extra objects, then the
 * PodDisruptionBudget when the plan has one.
 */
export function manifestDocuments(plan: Plan, inputs: DrainInputs, profiles: Profiles): Document[] {
  const server = modelServerById(profiles, inputs.modelServer);
  const deployment = new Document(deploymentFor(plan, inputs, server), DOCUMENT_OPTIONS);
  deployment.commentBefore = headerLines(plan, inputs, profiles).join('\n');
  annotateDeployment(deployment, plan, server);
  const pool = new Document(inferencePoolFor(inputs), DOCUMENT_OPTIONS);
  keyAt(pool, ['spec'], 'endpointPickerRef').commentBefore =
    [
      ` The Endpoint Picker Service (${inputs.name}-epp) this pool\u2019s gateway asks. GIE v1.5.0\u2019s inferencepool chart`,
      ` installed as release ${inputs.name} creates that Service, and also an InferencePool ${inputs.name} of its own (failureMode`,
      ' FailOpen unless inferenceExtension.failureMode is set). Apply this file without this InferencePool; on GKE leave',
      ' the chart\u2019s provider.name unset so that only these GKE policies exist. Hitless guide: Why requests drop.',
    ].join('\n');
  const budget = podDisruptionBudgetDocument(plan, inputs);
  return [deployment, pool, ...extraManifestDocuments(plan, inputs, profiles).map((extra) => extra.document), ...(budget ? [budget] : [])];
}

/** One document as YAML text, written as in the manifest. */
export function documentText(doc: Document): string {
  return doc.toString(TO_STRING);
}

/** The manifest as YAML text: every document of `manifestDocuments`, separated by `---`. */
export function emitManifest(plan: Plan, inputs: DrainInputs, profiles: Profiles): string {
  return manifestDocuments(plan, inputs, profiles).map(documentText).join('---\n');
}
