/**
 * The inputs of the drain model, one entry per field.
 *
 * Every surface reads this table: the CLI's long flags, the generator's URL query keys and form,
 * and the validation messages all use `flag`; JSON uses `key`. Ranges are the allowed values,
 * inclusive. A `default` of `'profile'` means the value comes from the data files: the chosen gateway or
 * model-server profile, or the sourced request defaults (see `resolve.ts`); `undefined` means the field is
 * optional and has no default. The type of the resolved inputs, `DrainInputs`, is derived from this table: adding
 * an entry adds its key (a number for `int`/`number`, a boolean for `bool`, the choices of an `enum`, else text;
 * optional without a default or with `optional: true`). The drain model these fields feed is explained on the site's page
 * "The drain model" (content/docs/drain-model.mdx).
 */
import { DEFAULT_GATEWAY, DEFAULT_MODEL_SERVER } from '../facts/defaults.ts';

/**
 * How a field's text is read. `version` is a Kubernetes version (1.34); `release` is a model server's release
 * (0.18.1, v3.3.5, 25.05), read by `releases.ts`.
 */
export type FieldKind = 'int' | 'number' | 'bool' | 'enum' | 'name' | 'text' | 'version' | 'release' | 'profile';

/** The form group a field belongs to, in the order the generator shows them. */
export type FieldGroup =
  | 'gateway'
  | 'request'
  | 'model-server'
  | 'kubernetes'
  | 'rollout'
  | 'probes'
  | 'names'
  | 'output';

/** One input of the drain model; `K` narrows `key` to the keys of the table (`InputKey`). */
export interface FieldSpec<K extends string = string> {
  /** camelCase key used in JSON and in code. */
  key: K;
  /** kebab-case name: the CLI's long flag and the URL query key. */
  flag: string;
  kind: FieldKind;
  group: FieldGroup;
  label: string;
  /** One sentence a reader sees under the field. */
  help: string;
  /** Unit shown beside the field (s, ms, %, tokens). */
  unit?: string;
  min?: number;
  max?: number;
  /** Allowed values of an `enum` field. */
  choices?: readonly string[];
  /** Pattern and length of a `name` or `text` field. */
  pattern?: RegExp;
  maxLength?: number;
  /** What a valid value looks like, for messages about `name`/`text` fields. */
  shape?: string;
  default?: number | boolean | string | 'profile';
  /** The resolved value may stay `undefined` although the field has a profile default (a profile without one). */
  optional?: boolean;
  /** The output form the field applies to; the others ignore it, and the generator's form leaves it out for them. */
  onlyForOutput?: OutputForm;
}

/**
 * What two sources report as time per output token for Qwen3-32B, in milliseconds. Kept only for the guide
 * "The grace-period math", which quotes both; the default itself, with its sources, is in
 * content/request-defaults.yaml (`profiles.requestDefaults`).
 */
export const REPORTED_TPOT_MS = { model: 'Qwen3-32B', low: 47, high: 100 } as const;

/**
 * The output forms of `hitless generate --output` and the generator: the whole bundle, a patch for an existing
 * Deployment, values for GIE's inferencepool chart, or a LeaderWorkerSet.
 */
export const OUTPUT_FORMS = ['bundle', 'patch', 'helm-values', 'lws'] as const;

/** One output form. */
export type OutputForm = (typeof OUTPUT_FORMS)[number];

/** DNS-1123 label: lower-case letters, digits and '-', starting and ending alphanumeric. */
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The field table, literal, so `DrainInputs` can be derived from it; read it through `FIELDS`. */
// biome-ignore format: one field per entry, its help on the second line, reads as a table
const FIELD_TABLE = [
  // gateway
  { key: 'gateway', flag: 'gateway', kind: 'profile', group: 'gateway', label: 'Gateway', default: DEFAULT_GATEWAY,
    help: 'The gateway implementation in front of the InferencePool; it sets how fast a terminating pod stops getting requests.' },
  { key: 'removalSeconds', flag: 'removal-seconds', kind: 'number', group: 'gateway', label: 'Removal p99', unit: 's', min: 0, max: 600, default: 'profile', optional: true,
    help: 'p99 seconds from pod deletion until no new request reaches the pod, over every routing path.' },
  { key: 'healthCheckIntervalSeconds', flag: 'health-check-interval-seconds', kind: 'number', group: 'gateway', label: 'Health-check interval', unit: 's', min: 1, max: 300,
    help: 'For gateways that detect a gone pod by health checks: seconds between checks.' },
  { key: 'healthCheckUnhealthyThreshold', flag: 'health-check-unhealthy-threshold', kind: 'int', group: 'gateway', label: 'Unhealthy threshold', min: 1, max: 20,
    help: 'Failed checks in a row before the load balancer stops sending requests.' },
  { key: 'healthCheckTimeoutSeconds', flag: 'health-check-timeout-seconds', kind: 'number', group: 'gateway', label: 'Health-check timeout', unit: 's', min: 0, max: 300,
    help: 'Seconds one check waits for an answer.' },
  { key: 'propagationSeconds', flag: 'propagation-seconds', kind: 'number', group: 'gateway', label: 'Propagation', unit: 's', min: 0, max: 600,
    help: 'Seconds from the failed check until every proxy has stopped routing to the pod.' },
  { key: 'removalMarginSeconds', flag: 'removal-margin-seconds', kind: 'number', group: 'gateway', label: 'Removal margin', unit: 's', min: 0, max: 300, default: 5,
    help: 'Added to the removal p99 for requests already picked and still in transit. Hitless\u2019s choice, not from a source: raise it if your measured removal times vary widely.' },
  { key: 'failureMode', flag: 'failure-mode', kind: 'enum', group: 'gateway', label: 'EPP failure mode', choices: ['FailClose', 'FailOpen'], default: 'FailClose',
    help: 'What the gateway does when the Endpoint Picker is unreachable. FailOpen falls back to the gateway\u2019s own endpoint view.' },
  // request
  { key: 'maxRequestSeconds', flag: 'max-request-seconds', kind: 'number', group: 'request', label: 'Longest request', unit: 's', min: 1, max: 86400,
    help: 'The longest request the drain must let finish. Leave empty to derive it from tokens and time per token.' },
  { key: 'maxOutputTokens', flag: 'max-output-tokens', kind: 'int', group: 'request', label: 'Max output tokens', unit: 'tokens', min: 1, max: 1000000, default: 4096,
    help: 'The largest max_tokens your clients send, or the server\u2019s cap.' },
  { key: 'tpotMs', flag: 'tpot-ms', kind: 'number', group: 'request', label: 'Time per output token', unit: 'ms', min: 0.1, max: 10000, default: 'profile',
    help: 'p99 milliseconds per output token at full batch for your model and GPUs; measure it with your own benchmark.' },
  { key: 'prefillOverheadPercent', flag: 'prefill-overhead-percent', kind: 'number', group: 'request', label: 'Prefill overhead', unit: '%', min: 0, max: 1000, default: 20,
    help: 'Extra decode time from prefills of other requests sharing the batch.' },
  { key: 'drainHeadroomPercent', flag: 'drain-headroom-percent', kind: 'number', group: 'request', label: 'Drain headroom', unit: '%', min: 0, max: 1000, default: 50,
    help: 'Safety added to the longest request to get the drain budget.' },
  { key: 'unboundedDrain', flag: 'unbounded-drain', kind: 'bool', group: 'request', label: 'Unbounded drain', default: false,
    help: 'Drain until every request finishes. Kubernetes still needs a number: the cap below.' },
  { key: 'drainCapSeconds', flag: 'drain-cap-seconds', kind: 'int', group: 'request', label: 'Drain cap', unit: 's', min: 1, max: 86400, default: 3600,
    help: 'With unbounded drain: the most a drain may take before the kubelet kills the pod.' },
  // model server
  { key: 'modelServer', flag: 'model-server', kind: 'profile', group: 'model-server', label: 'Model server', default: DEFAULT_MODEL_SERVER,
    help: 'The model server in the pod; it decides how SIGTERM is handled and which flag bounds the drain.' },
  { key: 'teardownSeconds', flag: 'teardown-seconds', kind: 'int', group: 'model-server', label: 'Teardown', unit: 's', min: 0, max: 600, default: 15,
    help: 'Process and GPU teardown after the drain ends.' },
  { key: 'image', flag: 'image', kind: 'text', group: 'model-server', label: 'Image', default: 'profile', maxLength: 255,
    pattern: /^[A-Za-z0-9][A-Za-z0-9._/:@-]*$/, shape: 'an image reference such as vllm/vllm-openai:v0.18.1',
    help: 'The container image. Its tag tells which release runs, and so whether the drain flag exists.' },
  { key: 'modelServerVersion', flag: 'model-server-version', kind: 'release', group: 'model-server', label: 'Model-server release', maxLength: 20,
    help: 'The release the image runs, for an image whose tag names none (latest, a digest). Leave empty to read it from the tag.' },
  { key: 'model', flag: 'model', kind: 'text', group: 'model-server', label: 'Model', default: 'profile', maxLength: 200,
    pattern: /^[A-Za-z0-9][A-Za-z0-9._/:-]*$/, shape: 'a model id such as Qwen/Qwen3-32B',
    help: 'The model the server loads (for llama.cpp, a Hugging Face GGUF repository, user/repo[:quant]).' },
  // kubernetes
  { key: 'kubernetesVersion', flag: 'kubernetes-version', kind: 'version', group: 'kubernetes', label: 'Kubernetes version', min: 25, max: 40, default: '1.34',
    help: 'Below 1.30 the native sleep action is not enabled (it is alpha and off in 1.29, absent before, beta and on from 1.30), so the preStop uses an exec sleep.' },
  { key: 'name', flag: 'name', kind: 'name', group: 'names', label: 'Name', default: 'profile', maxLength: 53, pattern: DNS_LABEL,
    shape: 'lower-case letters, digits and "-", starting and ending with a letter or digit',
    help: 'Name of the Deployment and InferencePool, and the app label that ties them. Leave empty for the model server and model (vllm-qwen3-32b).' },
  { key: 'namespace', flag: 'namespace', kind: 'name', group: 'names', label: 'Namespace', default: 'default', maxLength: 63, pattern: DNS_LABEL,
    shape: 'lower-case letters, digits and "-", starting and ending with a letter or digit',
    help: 'Namespace of both objects; an InferencePool selects pods in its own namespace only.' },
  { key: 'port', flag: 'port', kind: 'int', group: 'names', label: 'Model-server port', min: 1, max: 65535, default: 8000,
    help: 'The container port named http, and the InferencePool target port.' },
  { key: 'eppPort', flag: 'epp-port', kind: 'int', group: 'names', label: 'Endpoint Picker port', min: 1, max: 65535, default: 9002,
    help: 'The ext-proc port of the Endpoint Picker Service (<name>-epp).' },
  // rollout
  { key: 'replicas', flag: 'replicas', kind: 'int', group: 'rollout', label: 'Replicas', min: 1, max: 1000, default: 3,
    help: 'Model-server pods in the Deployment.' },
  { key: 'gpusPerReplica', flag: 'gpus-per-replica', kind: 'int', group: 'rollout', label: 'GPUs per replica', min: 1, max: 64, default: 1,
    help: 'nvidia.com/gpu each pod requests.' },
  { key: 'spareGpus', flag: 'spare-gpus', kind: 'int', group: 'rollout', label: 'Spare GPUs', min: 0, max: 100000, default: 0,
    help: 'Free GPUs a rollout can use for one extra pod. Fewer than one pod\u2019s worth means replace in place.' },
  { key: 'podDisruptionBudget', flag: 'pod-disruption-budget', kind: 'bool', group: 'rollout', label: 'PodDisruptionBudget', default: true,
    help: 'Add a PodDisruptionBudget (maxUnavailable 1), so node drains and autoscaler scale-downs evict one pod at a time. Turn it off if one already covers these pods.' },
  { key: 'startupSeconds', flag: 'startup-seconds', kind: 'int', group: 'rollout', label: 'Model load time', unit: 's', min: 1, max: 86400, default: 600,
    help: 'Worst-case seconds from container start until the model serves: sizes the startup probe and the progress deadline.' },
  // probes
  { key: 'readinessPeriodSeconds', flag: 'readiness-period-seconds', kind: 'int', group: 'probes', label: 'Readiness period', unit: 's', min: 1, max: 300, default: 'profile',
    help: 'Seconds between readiness checks.' },
  { key: 'readinessFailureThreshold', flag: 'readiness-failure-threshold', kind: 'int', group: 'probes', label: 'Readiness failure threshold', min: 1, max: 100000, default: 'profile',
    help: 'Failed readiness checks before the pod is marked not ready. Kubernetes takes any positive count; probes meant never to fail use thousands (6000 is common), so the range reaches 100000.' },
  { key: 'livenessPeriodSeconds', flag: 'liveness-period-seconds', kind: 'int', group: 'probes', label: 'Liveness period', unit: 's', min: 1, max: 300, default: 'profile',
    help: 'Seconds between liveness checks.' },
  { key: 'livenessFailureThreshold', flag: 'liveness-failure-threshold', kind: 'int', group: 'probes', label: 'Liveness failure threshold', min: 1, max: 100000, default: 'profile',
    help: 'Failed liveness checks before the container is restarted (and the model reloaded).' },
  { key: 'startupPeriodSeconds', flag: 'startup-period-seconds', kind: 'int', group: 'probes', label: 'Startup period', unit: 's', min: 1, max: 300, default: 'profile',
    help: 'Seconds between startup checks while the model loads.' },
  // output form
  { key: 'output', flag: 'output', kind: 'enum', group: 'output', label: 'Output form', choices: OUTPUT_FORMS, default: 'bundle',
    help: 'bundle: the Deployment and gateway objects, after one helm install of GIE\u2019s chart. patch: a patch for your own Deployment. helm-values: values for GIE\u2019s inferencepool chart. lws: a LeaderWorkerSet for replicas that span nodes.' },
  { key: 'container', flag: 'container', kind: 'name', group: 'output', label: 'Container (patch)', maxLength: 63, pattern: DNS_LABEL, onlyForOutput: 'patch',
    shape: 'lower-case letters, digits and "-", starting and ending with a letter or digit',
    help: 'With the patch form: the name of the model-server container in your Deployment. Leave empty for the model server\u2019s id (vllm, sglang, \u2026).' },
  { key: 'nodesPerReplica', flag: 'nodes-per-replica', kind: 'int', group: 'output', label: 'Nodes per replica (lws)', min: 1, max: 64, default: 2, onlyForOutput: 'lws',
    help: 'With the lws form: pods (one per node) that one replica spans, the leader included; the GPUs per replica are split evenly over them (one GPU per node unless gpus-per-replica is set).' },
] as const satisfies readonly FieldSpec[];

/** A camelCase key of the field table. */
type InputKey = (typeof FIELD_TABLE)[number]['key'];

/** Every input of the drain model, in table order. */
export const FIELDS: readonly FieldSpec<InputKey>[] = FIELD_TABLE;

type FieldEntry = (typeof FIELD_TABLE)[number];

/** The value type a field resolves to: numbers, booleans, an enum's choices, or text. */
type ValueOf<F extends FieldEntry> = F extends { kind: 'int' | 'number' }
  ? number
  : F extends { kind: 'bool' }
    ? boolean
    : F extends { kind: 'enum'; choices: readonly (infer C)[] }
      ? C
      : string;

/** Keys that may stay `undefined` after resolving: no default, or a profile default a profile may lack. */
type OptionalKey = Exclude<FieldEntry, { default: unknown }>['key'] | Extract<FieldEntry, { optional: true }>['key'];

/** Every input of the drain model, resolved, derived from the field table. Optional fields are `undefined` when not given. */
export type DrainInputs = Flatten<
  { [F in FieldEntry as F['key'] extends OptionalKey ? never : F['key']]: ValueOf<F> } & {
    [F in FieldEntry as F['key'] extends OptionalKey ? F['key'] : never]?: ValueOf<F>;
  }
>;

/** One object type from an intersection, so editors and messages show the fields. */
type Flatten<T> = { [K in keyof T]: T[K] };

/** Look up a field by its camelCase key or its kebab-case flag. */
export function fieldFor(keyOrFlag: string): FieldSpec<InputKey> | undefined {
  return FIELDS.find((f) => f.key === keyOrFlag || f.flag === keyOrFlag);
}

/** The field groups in display order, with their headings. */
export const GROUPS: readonly { id: FieldGroup; label: string }[] = [
  { id: 'gateway', label: 'Gateway' },
  { id: 'request', label: 'Requests and drain' },
  { id: 'model-server', label: 'Model server' },
  { id: 'kubernetes', label: 'Kubernetes' },
  { id: 'rollout', label: 'Rollout' },
  { id: 'probes', label: 'Probe settings' },
  { id: 'names', label: 'Names and ports' },
  { id: 'output', label: 'Output form' },
];
