/**
 * Turn raw inputs (CLI flags, URL query, form fields, JSON) into validated drain inputs.
 * Defaults that depend on the chosen gateway or model server come from their profiles.
 */
import { DEFAULT_GATEWAY, DEFAULT_MODEL_SERVER } from '../facts/defaults.ts';
import { FIELDS, fieldFor, type DrainInputs, type FieldSpec } from './fields.ts';
import { parseValue, quoteForMessage } from './parse-value.ts';
import type { GatewayProfile, ModelServerProfile, Profiles } from '../facts/profiles.ts';
import { compareReleases, imageRelease, isClientImage, listsImage, otherServerOf } from '../facts/releases.ts';

export type { DrainInputs } from './fields.ts';
export { DEFAULT_GATEWAY, DEFAULT_MODEL_SERVER } from '../facts/defaults.ts';

/** A problem with one input, named by its flag. */
export interface FieldError {
  flag: string;
  message: string;
}

/** Resolved inputs plus every problem found. Bad values are replaced by their defaults. */
export interface Resolved {
  inputs: DrainInputs;
  errors: FieldError[];
}

/** The profile ids a `profile` field accepts. */
export function profileIdsFor(spec: FieldSpec, profiles: Profiles): string[] {
  return spec.key === 'gateway' ? profiles.gateways.map((g) => g.id) : profiles.modelServers.map((m) => m.id);
}

/** Find an entry of `list` by id, or throw naming `what` and the allowed ids. */
export function byId<T extends { id: string }>(list: readonly T[], id: string, what: string): T {
  const found = list.find((p) => p.id === id);
  if (!found) throw new Error(`${what} must be one of ${list.map((p) => p.id).join(', ')} (got ${JSON.stringify(id)})`);
  return found;
}

/** Find a gateway profile by id, or throw naming the allowed ids. */
export function gatewayById(profiles: Profiles, id: string): GatewayProfile {
  return byId(profiles.gateways, id, 'gateway');
}

/** Find a model-server profile by id, or throw naming the allowed ids. */
export function modelServerById(profiles: Profiles, id: string): ModelServerProfile {
  return byId(profiles.modelServers, id, 'model-server');
}

/** The most characters of a name (the field's maxLength: the inferencepool chart's release names are cut at 53). */
const NAME_MAX = fieldFor('name')!.maxLength!;

/**
 * The default name for a model server and model: the server's id and the model's last path segment, lower-cased,
 * every run of other characters a '-' (vllm + Qwen/Qwen3-32B: vllm-qwen3-32b), cut to the name's length limit.
 */
function defaultName(modelServerId: string, model: string): string {
  const slug = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
  const modelPart = slug(model.split('/').pop() ?? model);
  return [slug(modelServerId), modelPart]
    .filter((part) => part !== '')
    .join('-')
    .slice(0, NAME_MAX)
    .replace(/-+$/, '');
}

/**
 * The GPUs per replica the lws form takes when none is given: one per node of the replica, so they split evenly.
 * The other forms take the field's default.
 */
function defaultGpusPerReplica(output: unknown, nodesPerReplica: number): number | undefined {
  return output === 'lws' ? nodesPerReplica : undefined;
}

/**
 * The default of every field for a gateway and model server. Fields without a default are `undefined`.
 * A profile without a removal number (the custom gateway) supplies example health-check values instead.
 */
export function defaultsFor(profiles: Profiles, gatewayId: string, modelServerId: string): Record<string, unknown> {
  const gateway = gatewayById(profiles, gatewayId);
  const server = modelServerById(profiles, modelServerId);
  const defaults: Record<string, unknown> = {};
  for (const f of FIELDS) defaults[f.key] = f.default === 'profile' ? undefined : f.default;
  defaults.gateway = gatewayId;
  defaults.modelServer = modelServerId;
  defaults.removalSeconds = gateway.removal.seconds;
  if (gateway.removal.seconds === undefined && gateway.healthCheck) {
    defaults.healthCheckIntervalSeconds = gateway.healthCheck.intervalSeconds;
    defaults.healthCheckUnhealthyThreshold = gateway.healthCheck.unhealthyThreshold;
    defaults.healthCheckTimeoutSeconds = gateway.healthCheck.timeoutSeconds;
    defaults.propagationSeconds = gateway.healthCheck.propagationSeconds;
  }
  defaults.tpotMs = profiles.requestDefaults.tpotMs.value;
  defaults.image = server.image;
  defaults.model = server.deploy.defaultModel;
  defaults.name = defaultName(server.id, server.deploy.defaultModel);
  defaults.readinessPeriodSeconds = server.probes.readiness.periodSeconds;
  defaults.readinessFailureThreshold = server.probes.readiness.failureThreshold;
  defaults.livenessPeriodSeconds = server.probes.liveness.periodSeconds;
  defaults.livenessFailureThreshold = server.probes.liveness.failureThreshold;
  defaults.startupPeriodSeconds = server.probes.startup.periodSeconds;
  return defaults;
}

/**
 * Validate raw inputs keyed by flag (`max-output-tokens`) or key (`maxOutputTokens`).
 * Blank values count as not given. Unknown names, bad values and bad combinations become errors;
 * the returned inputs then hold the defaults in their place, so callers can either stop (CLI)
 * or go on with a visible notice (generator page).
 */
export function resolveInputs(raw: Record<string, unknown>, profiles: Profiles): Resolved {
  const errors: FieldError[] = [];
  const given: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    const spec = fieldFor(name);
    if (!spec) {
      errors.push({ flag: name, message: `${quoteForMessage(name)} is not an input of the drain model` });
      continue;
    }
    const blank = value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
    if (blank && spec.kind !== 'bool') continue;
    const parsed = parseValue(spec, value, profileIdsFor(spec, profiles));
    if (parsed.ok) given[spec.key] = parsed.value;
    else errors.push({ flag: spec.flag, message: parsed.message });
  }
  const gatewayId = (given.gateway as string | undefined) ?? DEFAULT_GATEWAY;
  const modelServerId = (given.modelServer as string | undefined) ?? DEFAULT_MODEL_SERVER;
  const inputs = { ...defaultsFor(profiles, gatewayId, modelServerId), ...given } as DrainInputs;
  // Names follow the server and model unless given; the lws form's GPUs follow its nodes unless given.
  if (given.name === undefined) inputs.name = defaultName(inputs.modelServer, inputs.model);
  if (given.gpusPerReplica === undefined)
    inputs.gpusPerReplica = defaultGpusPerReplica(inputs.output, inputs.nodesPerReplica) ?? inputs.gpusPerReplica;
  checkCombinations(inputs, given, profiles, errors);
  return { inputs, errors };
}

const HEALTH_CHECK_KEYS = [
  'healthCheckIntervalSeconds',
  'healthCheckUnhealthyThreshold',
  'healthCheckTimeoutSeconds',
  'propagationSeconds',
] as const;

/** Rules that involve more than one field. A failing rule reverts the fields it names. */
function checkCombinations(
  inputs: DrainInputs,
  given: Record<string, unknown>,
  profiles: Profiles,
  errors: FieldError[],
): void {
  const gateway = gatewayById(profiles, inputs.gateway);
  const givenHealthCheck = HEALTH_CHECK_KEYS.filter((k) => given[k] !== undefined);
  if (givenHealthCheck.length > 0 && !gateway.healthCheck) {
    // Health-check settings describe gateways that notice a gone pod only by failed checks; the others are
    // described by their removal p99, so a mix of both would give two different numbers for one thing.
    errors.push({
      flag: fieldFor(givenHealthCheck[0])!.flag,
      message:
        `${givenHealthCheck.map((k) => fieldFor(k)!.flag).join(', ')} only apply to a gateway that detects gone pods by `
        + `health checks (${profiles.gateways
          .filter((g) => g.healthCheck)
          .map((g) => g.id)
          .join(', ')}); for ${gateway.id}, give removal-seconds instead`,
    });
    for (const k of HEALTH_CHECK_KEYS) inputs[k] = undefined;
  } else if (givenHealthCheck.length > 0 && given.removalSeconds === undefined) {
    // Health-check settings replace the profile's removal number unless a removal is given as well.
    inputs.removalSeconds = undefined;
  }
  if (inputs.maxRequestSeconds === undefined) {
    const derived = ((inputs.maxOutputTokens * inputs.tpotMs) / 1000) * (1 + inputs.prefillOverheadPercent / 100);
    const limit = fieldFor('maxRequestSeconds')!.max!;
    if (derived > limit) {
      errors.push({
        flag: 'max-output-tokens',
        message:
          `max-output-tokens × tpot-ms × prefill overhead gives a ${Math.round(derived)} s request, above the `
          + `${limit.toLocaleString('en-US')} s limit of max-request-seconds; lower them or give max-request-seconds`,
      });
      const defaults = defaultsFor(profiles, inputs.gateway, inputs.modelServer);
      inputs.maxOutputTokens = defaults.maxOutputTokens as number;
      inputs.tpotMs = defaults.tpotMs as number;
      inputs.prefillOverheadPercent = defaults.prefillOverheadPercent as number;
    }
  }
  if (given.image !== undefined) {
    // An image that another server's data names, and this one's does not, runs that server: a manifest with this
    // server's command line would not start.
    const server = modelServerById(profiles, inputs.modelServer);
    const image = inputs.image;
    const owner = listsImage(server, image)
      ? undefined
      : (profiles.modelServers.find((m) => listsImage(m, image)) ?? otherServerOf(profiles.otherServers, image));
    if (owner) {
      const profiled = profiles.modelServers.includes(owner as ModelServerProfile);
      errors.push({
        flag: 'image',
        message: profiled
          ? `image ${image} runs ${owner.name}, not ${server.name}: choose model-server ${owner.id}, or an image of ${server.name}`
          : `image ${image} runs ${owner.name}, which the generator has no profile for (content/other-servers/${owner.id}.yaml): `
            + `choose an image of ${server.name}, or another model server (${profiles.modelServers.map((m) => m.id).join(', ')})`,
      });
      inputs.image = server.image;
    } else if (isClientImage(server, image)) {
      errors.push({
        flag: 'image',
        message: `image ${image} is ${server.name}'s client SDK, which runs no server: choose an image of the server (${server.image})`,
      });
      inputs.image = server.image;
    }
  }
  if (inputs.modelServerVersion !== undefined) {
    // A given release is for images whose tag names none; one that contradicts the tag would plan for a binary
    // the pod does not run.
    const server = modelServerById(profiles, inputs.modelServer);
    const fromTag = imageRelease(server, inputs.image);
    if (fromTag !== undefined && compareReleases(fromTag, inputs.modelServerVersion) !== 0) {
      errors.push({
        flag: 'model-server-version',
        message:
          `model-server-version ${inputs.modelServerVersion} contradicts the image tag, which names ${server.name} ${fromTag}; `
          + 'leave model-server-version empty to use the tag, or change the image',
      });
      inputs.modelServerVersion = undefined;
    }
  }
}

/**
 * The inputs whose values differ from the defaults for their gateway and model server,
 * as [flag, text] pairs in field order. `gateway` and `model-server` are listed first when not default.
 */
export function changedInputs(inputs: DrainInputs, profiles: Profiles): [string, string][] {
  const defaults = defaultsFor(profiles, DEFAULT_GATEWAY, DEFAULT_MODEL_SERVER);
  const ownDefaults = defaultsFor(profiles, inputs.gateway, inputs.modelServer);
  const changed: [string, string][] = [];
  for (const f of FIELDS) {
    const value = inputs[f.key];
    const base =
      f.kind === 'profile'
        ? defaults[f.key]
        : f.key === 'name'
          ? defaultName(inputs.modelServer, inputs.model)
          : f.key === 'gpusPerReplica'
            ? (defaultGpusPerReplica(inputs.output, inputs.nodesPerReplica) ?? ownDefaults[f.key])
            : ownDefaults[f.key];
    if (value !== undefined && value !== base) changed.push([f.flag, String(value)]);
  }
  return changed;
}
