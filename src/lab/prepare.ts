/**
 * Turn a scenario name, a gateway, a model server and any drain-model inputs into everything a run
 * needs: the real plan, the lab setup derived from it, the model's prediction and the run's shape.
 */
import { plan as makePlan, type Plan } from '../model/plan.ts';
import type { GatewayProfile, Mechanism, ModelServerProfile, Profiles } from '../facts/profiles.ts';
import {
  DEFAULT_GATEWAY,
  DEFAULT_MODEL_SERVER,
  gatewayById,
  modelServerById,
  resolveInputs,
} from '../model/resolve.ts';
import { predict, type Prediction } from './predict.ts';
import type { ProxyKind } from './proxy.ts';
import { deriveSetup, labRawInputs, SCENARIOS, scenarioByName, type ScenarioSpec } from './scenarios.ts';
import type { LabSetup } from './setup.ts';
import { runShape, type RunShape } from './shape.ts';

export interface Prepared {
  /** scenario@gateway/model-server, and /nginx when nginx stands in for the gateway */
  id: string;
  spec: ScenarioSpec;
  /** Display names of the gateway and model server, from their profiles. */
  names: { gateway: string; modelServer: string };
  plan: Plan;
  setup: LabSetup;
  prediction: Prediction;
  shape: RunShape;
}

/** The longest run the lab accepts, in model seconds (one wall minute). */
const MAX_RUN_SECONDS = 600;

/** A problem with what was asked for; the CLI reports it as a usage error. */
export class LabInputError extends Error {
  name = 'LabInputError';
}

/** Prepare a scenario; throws LabInputError naming the flag at fault. */
export function prepare(
  name: string,
  profiles: Profiles,
  options: { gateway?: string; modelServer?: string; inputs?: Record<string, string>; proxy?: ProxyKind } = {},
): Prepared {
  const spec = scenarioByName(name);
  if (!spec)
    throw new LabInputError(
      `--scenario must be one of ${SCENARIOS.map((s) => s.name).join(', ')} (got ${JSON.stringify(name)})`,
    );
  const fitting = spec.onlyModelServers
    ? profiles.modelServers.filter(spec.onlyModelServers.fits).map((m) => m.id)
    : [];
  const gatewayId =
    options.gateway
    ?? (spec.onlyMechanism && profiles.gateways.find((g) => g.mechanism === spec.onlyMechanism)?.id)
    ?? DEFAULT_GATEWAY;
  const modelServerId = options.modelServer ?? fitting[0] ?? DEFAULT_MODEL_SERVER;
  let gateway: GatewayProfile;
  let server: ModelServerProfile;
  try {
    gateway = gatewayById(profiles, gatewayId);
    server = modelServerById(profiles, modelServerId);
  } catch (error) {
    throw new LabInputError(`--${(error as Error).message}`);
  }
  if (spec.onlyMechanism && gateway.mechanism !== spec.onlyMechanism) {
    const fitting = profiles.gateways.filter((g) => g.mechanism === spec.onlyMechanism).map((g) => g.id);
    throw new LabInputError(
      `--gateway must be one of ${fitting.join(', ')} for --scenario ${name}, which needs a ${spec.onlyMechanism} gateway (got ${JSON.stringify(gatewayId)})`,
    );
  }
  if (spec.onlyModelServers && !fitting.includes(modelServerId)) {
    throw new LabInputError(
      `--model-server must be ${fitting.length === 1 ? fitting[0] : `one of ${fitting.join(', ')}`} for --scenario ${name}, which needs ${spec.onlyModelServers.needs} (got ${JSON.stringify(modelServerId)})`,
    );
  }
  if (spec.needsDrainFlag && !hasDrainFlag(server)) {
    const fitting = profiles.modelServers.filter(hasDrainFlag).map((m) => m.id);
    throw new LabInputError(
      `--model-server must be one of ${fitting.join(', ')} for --scenario ${name}, which sets a drain flag (got ${JSON.stringify(modelServerId)}, which has none)`,
    );
  }
  const resolved = resolveInputs(labRawInputs(options.inputs ?? {}, gatewayId, modelServerId), profiles);
  if (resolved.errors.length > 0) throw new LabInputError(resolved.errors.map((e) => `--${e.message}`).join('\n  '));
  const planned = makePlan(resolved.inputs, profiles);
  const setup = deriveSetup(spec, resolved.inputs, profiles, planned);
  if (options.proxy === 'nginx') onNginx(setup, gateway);
  const prediction = predict(setup);
  const shape = runShape(setup, prediction);
  if (shape.deadline > MAX_RUN_SECONDS) {
    throw new LabInputError(
      `the inputs make a run last up to ${Math.ceil(shape.deadline)} model seconds; the lab runs at most ${MAX_RUN_SECONDS} `
        + '(lower removal-seconds, max-request-seconds or the grace period)',
    );
  }
  const names = { gateway: gateway.name, modelServer: server.name };
  const id = `${name}@${gatewayId}/${modelServerId}${setup.proxy === 'nginx' ? '/nginx' : ''}`;
  return { id, spec, names, plan: planned, setup, prediction, shape };
}

/**
 * nginx in place of HAProxy. Open-source nginx has no active health checks (NGF's profile says so), so a
 * health-check-only gateway cannot run on it, and an endpoint-view gateway's pod leaves rotation only with the
 * endpoint update. A gateway's draining timeout becomes worker_shutdown_timeout: after a reload, old workers
 * close what they still hold that long after it.
 */
function onNginx(setup: LabSetup, gateway: GatewayProfile): void {
  if (setup.mechanism === 'health-check') {
    throw new LabInputError(
      `--proxy nginx cannot stand in for ${gateway.id}, which only health-checks: open-source nginx has no active health checks`,
    );
  }
  setup.proxy = 'nginx';
  if (setup.checks) {
    setup.checks = null;
    setup.changes.push(
      'nginx runs no health checks (open-source nginx has none): the pod leaves rotation only when its endpoint is removed and nginx reloads',
    );
  }
  if (setup.gatewayDrainingSeconds !== null) {
    setup.changes.push(
      `the gateway's ${setup.gatewayDrainingSeconds} s draining timeout is nginx's worker_shutdown_timeout: the old worker closes what it still holds that long after the reload`,
    );
  }
}

/** Whether a model server's profile has a drain flag the plan can set. */
function hasDrainFlag(server: ModelServerProfile): boolean {
  return server.drain.kind === 'flag' && Boolean(server.drain.flag);
}

/** The first gateway (in profile order) of each detection mechanism. */
function gatewayPerMechanism(profiles: Profiles): string[] {
  const first = new Map<Mechanism, string>();
  for (const g of profiles.gateways) if (!first.has(g.mechanism)) first.set(g.mechanism, g.id);
  return [...first.values()];
}

/** The short CI check: the plan once per detection mechanism, then no-prestop and vllm-abort; the plan and no-prestop on nginx. */
export function checkSet(profiles: Profiles): Prepared[] {
  return [
    ...gatewayPerMechanism(profiles).map((gateway) => prepare('recommended', profiles, { gateway })),
    prepare('no-prestop', profiles),
    prepare('vllm-abort', profiles),
    prepare('recommended', profiles, { proxy: 'nginx' }),
    prepare('no-prestop', profiles, { proxy: 'nginx' }),
  ];
}

/** Each scenario on HAProxy, followed by the same on nginx where nginx can stand in for its gateway. */
function onBothProxies(set: readonly Prepared[], profiles: Profiles): Prepared[] {
  return set.flatMap((p) => {
    if (p.setup.mechanism === 'health-check') return [p];
    const { gateway, modelServer } = p.setup;
    return [p, prepare(p.spec.name, profiles, { gateway, modelServer, proxy: 'nginx' })];
  });
}

/**
 * What --publish runs, each on HAProxy and (but for health-check-only gateways) nginx: the plan once per detection mechanism and every mistake that fits it, with the default
 * model server (vLLM); then, for every other
 * model server, the plan and what its own drain setting predicts: a drain flag shorter than the longest request
 * where the server has a flag, a grace period shorter than the drain where it drains without a bound of its own,
 * and the scenarios that only servers like it fit (Triton held by an idle connection).
 */
export function publishSet(profiles: Profiles): Prepared[] {
  const first = modelServerById(profiles, DEFAULT_MODEL_SERVER);
  const fits = (s: ScenarioSpec, server: ModelServerProfile) => s.onlyModelServers?.fits(server) === true;
  const set = [
    ...gatewayPerMechanism(profiles).map((gateway) =>
      prepare('recommended', profiles, { gateway, modelServer: first.id }),
    ),
    ...SCENARIOS.filter((s) => s.name !== 'recommended' && (!s.onlyModelServers || fits(s, first))).map((s) =>
      prepare(s.name, profiles, { modelServer: first.id }),
    ),
  ];
  for (const server of profiles.modelServers) {
    if (server.id === first.id) continue;
    set.push(prepare('recommended', profiles, { modelServer: server.id }));
    if (hasDrainFlag(server)) set.push(prepare('short-drain', profiles, { modelServer: server.id }));
    if (server.drain.kind === 'unbounded') set.push(prepare('short-grace', profiles, { modelServer: server.id }));
    for (const only of SCENARIOS.filter((s) => fits(s, server)))
      set.push(prepare(only.name, profiles, { modelServer: server.id }));
  }
  return onBothProxies(set, profiles);
}
