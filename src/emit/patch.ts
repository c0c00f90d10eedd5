/**
 * The `patch` output form: the drain settings for a Deployment the reader already has, as a kustomization with
 * a strategic-merge patch (and, for a server with a drain flag, a JSON 6902 patch).
 *
 * Why two patches: strategic merge merges maps and merges `containers` by name, but REPLACES a list of strings
 * such as `args` whole, so a patch that set the drain flag in `args` would drop every other argument of the
 * reader's container. The flag is instead appended by a JSON 6902 patch that first tests the container's name at
 * its index, so it fails loudly rather than patch another container or a missing `args`.
 * Probes and the preStop hook set every field they do not use to null, so each replaces the reader's whole: merged
 * into an existing probe, an httpGet would otherwise sit beside the reader's tcpSocket or exec (the API server
 * refuses a probe or hook with two handlers), and the reader's initialDelaySeconds would stretch the planned windows.
 * Null deletes a key under both kubectl's strategic merge and kustomize's (kyaml); a `$patch: replace` directive
 * would be shorter, but kustomize has not always honoured it (kubernetes-sigs/kustomize#2037).
 * The values come from the bundle's Deployment (`emit.ts`), so both forms set the same numbers.
 */
import { Document, isSeq, type Node } from 'yaml';
import { formulaOf, type Plan } from '../model/plan.ts';
import type { ChartFacts, Profiles } from '../facts/profiles.ts';
import { gatewayById, modelServerById, type DrainInputs } from '../model/resolve.ts';
import { annotateRollout, manifestDocuments } from './bundle.ts';
import { chartEppName, installCommand } from './chart-install.ts';
import { DOCUMENT_OPTIONS } from './options.ts';
import { fileOf, type OutputFile } from './files.ts';
import { annotatePodAnnotations, annotatePreStop, annotateProbes, commentOn, keyAt, scalarAt } from './pod.ts';

/** The files of the patch form, as the kustomization names them. */
const PATCH_FILE = 'drain-patch.yaml';
const FLAG_PATCH_FILE = 'drain-flag.yaml';
const KUSTOMIZATION_FILE = 'kustomization.yaml';
/** The reader's own Deployment, which the kustomization lists as its resource. */
const BASE_FILE = 'deployment.yaml';
/** The gateway's objects and the PodDisruptionBudget of the plan, when it has any. */
const OBJECTS_FILE = 'drain-objects.yaml';

// biome-ignore lint/suspicious/noExplicitAny: the bundle's own objects, read by paths the emitter wrote; the tests validate the result with kubernetes-models
type Obj = Record<string, any>;

/** The container a patch targets: the given one, else the model server's id (the bundle's container name). */
function patchContainerName(inputs: DrainInputs): string {
  return inputs.container ?? inputs.modelServer;
}

/**
 * A probe for the reader's container: its port by number, since their container may not name its port `http` as
 * the bundle's does (a probe on a port name the container lacks never passes).
 */
function probeByNumber(probe: Obj, port: number): Obj {
  const out = structuredClone(probe);
  for (const handler of ['httpGet', 'tcpSocket'] as const) if (out[handler]) out[handler].port = port;
  return out;
}

/** Every field of a probe (core/v1 Probe and its ProbeHandler) and of a hook (LifecycleHandler). */
const PROBE_FIELDS = [
  'exec',
  'httpGet',
  'tcpSocket',
  'grpc',
  'initialDelaySeconds',
  'timeoutSeconds',
  'periodSeconds',
  'successThreshold',
  'failureThreshold',
  'terminationGracePeriodSeconds',
];
const HOOK_FIELDS = ['exec', 'httpGet', 'tcpSocket', 'sleep'];

/** A probe or hook whose other fields the merge deletes: the result is this one exactly, as a replacement would be. */
function exactly(value: Obj, fields: readonly string[]): Obj {
  const out: Obj = { ...value };
  for (const f of fields) if (!(f in value)) out[f] = null;
  return out;
}

/** The strategic-merge patch: only the drain settings, the container found by name. */
function patchObject(plan: Plan, inputs: DrainInputs, bundle: Obj): Obj {
  const pod = bundle.spec.template.spec;
  const served = pod.containers[0];
  const container: Obj = { name: patchContainerName(inputs) };
  if (served.lifecycle?.preStop) container.lifecycle = { preStop: exactly(served.lifecycle.preStop, HOOK_FIELDS) };
  container.startupProbe = exactly(probeByNumber(served.startupProbe, inputs.port), PROBE_FIELDS);
  container.readinessProbe = exactly(probeByNumber(served.readinessProbe, inputs.port), PROBE_FIELDS);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    // No namespace: the patch would add one to a Deployment that leaves it to kubectl or the kustomization.
    metadata: { name: inputs.name },
    spec: {
      progressDeadlineSeconds: plan.progressDeadlineSeconds,
      strategy: { type: 'RollingUpdate', rollingUpdate: { ...plan.strategy } },
      template: {
        // The gateway's pod annotations (Istio's sidecar settings), merged key by key into the reader's.
        ...(bundle.spec.template.metadata.annotations
          ? { metadata: { annotations: bundle.spec.template.metadata.annotations } }
          : {}),
        spec: { terminationGracePeriodSeconds: plan.terminationGracePeriodSeconds, containers: [container] },
      },
    },
  };
}

function patchDocument(plan: Plan, inputs: DrainInputs, bundle: Obj, serverName: string, profiles: Profiles): Document {
  const doc = new Document(patchObject(plan, inputs, bundle), DOCUMENT_OPTIONS);
  annotatePodAnnotations(doc, ['spec', 'template', 'metadata'], plan, inputs, gatewayById(profiles, inputs.gateway));
  const container = ['spec', 'template', 'spec', 'containers', 0];
  doc.commentBefore = [
    ` Strategic-merge patch: the drain settings for ${serverName} in your Deployment ${inputs.name}; everything else stays yours.`,
    ' Containers merge by name, maps merge key by key; each null deletes that field of your probe or hook, so they become these.',
    ' Your livenessProbe, resources, image and args stay as they are.',
  ].join('\n');
  annotateRollout(doc, plan, '. Replaces a Recreate strategy.');
  const grace = ['spec', 'template', 'spec', 'terminationGracePeriodSeconds'];
  commentOn(doc, grace, formulaOf(plan, 'terminationGracePeriodSeconds'));
  scalarAt(doc, [...container, 'name']).comment =
    inputs.container === undefined
      ? ' the model server\u2019s id: set --container to your container\u2019s name (a name that matches none adds a container with no image, which the API server refuses)'
      : ' your model-server container';
  annotatePreStop(doc, container, plan);
  keyAt(doc, container, 'startupProbe').commentBefore =
    ` Probes on port ${inputs.port} (--port): set it to your container\u2019s serving port.`;
  annotateProbes(doc, container, plan, ['startup', 'readiness']);
  return doc;
}

/** The JSON 6902 patch that appends the drain flag to the container at index 0, after testing its name. */
function flagPatchDocument(plan: Plan, inputs: DrainInputs): Document | undefined {
  if (!plan.drainFlag) return undefined;
  const flag = `${plan.drainFlag.flag}=${plan.drainFlag.seconds}`;
  const doc = new Document(
    [
      { op: 'test', path: '/spec/template/spec/containers/0/name', value: patchContainerName(inputs) },
      { op: 'add', path: '/spec/template/spec/containers/0/args/-', value: flag },
    ],
    DOCUMENT_OPTIONS,
  );
  doc.commentBefore = [
    ` JSON 6902 patch: appends ${flag} to the args of the container at index 0. A strategic merge would replace`,
    ' the whole args list, dropping your other arguments. The test fails (and kustomize stops) unless the container at',
    ` index 0 is ${patchContainerName(inputs)}: if yours sits elsewhere, change 0 to its position in both paths. If your container has no`,
    ` args list (a shell command), the add fails too: put ${flag} on the server's command line by hand. If your args already`,
    ` carry ${plan.drainFlag.flag}, delete it there first.`,
  ].join('\n');
  const seq = doc.contents;
  if (isSeq(seq))
    (seq.items[1] as Node & { commentBefore?: string }).commentBefore = ` drain: ${formulaOf(plan, 'drainSeconds')}`;
  return doc;
}

/**
 * The pool the patch form expects, and the install that creates it where the reader has none: its gateway objects
 * target the InferencePool named after the Deployment.
 */
function expectedPoolLines(inputs: DrainInputs, profiles: Profiles, chart: ChartFacts, withObjects: boolean): string[] {
  return [
    ` ${withObjects ? `${OBJECTS_FILE} targets` : 'The gateway sends requests through'} the InferencePool ${inputs.name}, whose Endpoint Picker is Service ${chartEppName(inputs.name, chart)},`,
    ` as GIE’s ${chart.chart} chart ${chart.release} creates them when installed as release ${inputs.name}. If you have no such pool, install it`,
    ` (the selector assumes your pods carry the label app: ${inputs.name}; change matchLabels.app, or add keys, to match them):`,
    `   ${installCommand(inputs, profiles, chart)}`,
  ];
}

/**
 * What the patch form takes on trust, made without the reader's manifest: each guess with the setting that states it,
 * and the command that computes the patch from the manifest instead.
 */
function unknownLines(plan: Plan, inputs: DrainInputs, serverName: string, withFlag: boolean): string[] {
  const release = plan.modelServerRelease
    ? `${serverName} ${plan.modelServerRelease}`
    : `${serverName}, release unknown`;
  return [
    ' Made without your manifest, so it takes these on trust (each with the setting that states it):',
    `   the Deployment ${inputs.name} (--name), its container ${patchContainerName(inputs)} (--container) serving on port ${inputs.port} (--port),`,
    `   pods labelled app: ${inputs.name}, the image ${inputs.image} running ${release} (--image, --model-server-version),`,
    ...(withFlag
      ? [
          `   and ${serverName} started with its arguments in args (a server started by a sh -c script needs the flag inside the script).`,
        ]
      : []),
    ` For a patch worked out from what your manifest holds: hitless check ${BASE_FILE} --format patch`,
  ];
}

function kustomizationDocument(
  inputs: DrainInputs,
  withFlag: boolean,
  withObjects: boolean,
  poolLines: readonly string[],
  unknown: readonly string[],
): Document {
  const target = () => ({ group: 'apps', version: 'v1', kind: 'Deployment', name: inputs.name });
  const patches = [
    { path: PATCH_FILE, target: target() },
    ...(withFlag ? [{ path: FLAG_PATCH_FILE, target: target() }] : []),
  ];
  const doc = new Document(
    {
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: [BASE_FILE, ...(withObjects ? [OBJECTS_FILE] : [])],
      patches,
    },
    DOCUMENT_OPTIONS,
  );
  doc.commentBefore = [
    ` Your Deployment ${inputs.name} stays in ${BASE_FILE}; kubectl apply -k . (or kustomize build .) applies the drain settings to it.`,
    ' Check the result before applying: kustomize build . | hitless check -',
    ...unknown,
    ...poolLines,
  ].join('\n');
  return doc;
}

/**
 * The patch form's files: the kustomization, the strategic-merge patch, with a drain flag the JSON 6902 patch, and
 * the gateway's objects and the budget when the plan has any.
 */
export function patchFiles(plan: Plan, inputs: DrainInputs, profiles: Profiles, chart: ChartFacts): OutputFile[] {
  const server = modelServerById(profiles, inputs.modelServer);
  const documents = manifestDocuments(plan, inputs, profiles);
  const bundle = documents[0].toJS() as Obj;
  // The gateway's own objects (GKE's policies: its request timeout and connection draining) and the budget are part
  // of the plan too; the Deployment stays the reader's, and the InferencePool the chart's.
  const objects = documents.slice(1);
  const flag = flagPatchDocument(plan, inputs);
  const withFlag = flag !== undefined;
  const gatewayObjects = objects.some((doc) => doc.get('kind') !== 'PodDisruptionBudget');
  const poolLines = expectedPoolLines(inputs, profiles, chart, gatewayObjects);
  const unknown = unknownLines(plan, inputs, server.name, withFlag);
  const files = [
    fileOf(KUSTOMIZATION_FILE, 'lists your Deployment, the drain objects and the patches', [
      kustomizationDocument(inputs, withFlag, objects.length > 0, poolLines, unknown),
    ]),
    fileOf(PATCH_FILE, 'the drain settings, merged into your Deployment', [
      patchDocument(plan, inputs, bundle, server.name, profiles),
    ]),
  ];
  if (flag)
    files.push(
      fileOf(FLAG_PATCH_FILE, `appends ${server.name}\u2019s drain flag to the container\u2019s args`, [flag]),
    );
  if (objects.length > 0)
    files.push(
      fileOf(
        OBJECTS_FILE,
        'the gateway\u2019s objects and the PodDisruptionBudget the plan needs beside your Deployment',
        objects,
      ),
    );
  return files;
}
