/**
 * The Hitless drain model (v2): from resolved inputs to whole-second settings, warnings and the derivation in
 * words. The site's page "The drain model" (content/docs/drain-model.mdx) is its specification; the guide
 * "The grace-period math" works it through for readers.
 */
import type { Profiles } from '../facts/profiles.ts';
import { planGatewaySettings, withHeadroom } from './plan-gateway.ts';
import { describeRelease, planRelease } from './plan-release.ts';
import { planRollout, type PlannedRollout } from './plan-rollout.ts';
import { gatewayById, modelServerById, type DrainInputs } from './resolve.ts';
import { ceilSeconds, formatFactor, formatSeconds, roundMs } from './seconds.ts';

import { collectWarnings } from './warnings.ts';
import type { DerivationStep, Plan, PlannedProbe } from './plan-types.ts';

export type { DerivationStep, Plan, PlannedProbe } from './plan-types.ts';

/** The version of the drain model this code implements; links and CLI calls made under older ones are migrated. */
export const MODEL_VERSION = 2;

/** The Kubernetes default for progressDeadlineSeconds, which Hitless never goes below. */
export const PROGRESS_DEADLINE_FLOOR_SECONDS = 600;

/** The removal p99, where it came from, and its arithmetic. */
interface PlannedRemoval {
  fact: Pick<Plan, 'removalSeconds' | 'removalSource' | 'removalBasis'>;
  formula: string;
}

/**
 * The removal p99: a given number wins; otherwise health-check inputs give
 * interval × threshold + timeout + propagation; otherwise the gateway profile's number.
 */
function planRemoval(inputs: DrainInputs, profiles: Profiles): PlannedRemoval {
  const gateway = gatewayById(profiles, inputs.gateway);
  if (inputs.removalSeconds !== undefined) {
    const seconds = roundMs(inputs.removalSeconds);
    if (seconds === gateway.removal.seconds) {
      return {
        fact: { removalSeconds: seconds, removalSource: 'profile', removalBasis: gateway.removal.basis },
        formula: `${formatSeconds(seconds)} (${gateway.name}, ${gateway.removal.basis})`,
      };
    }
    return {
      fact: { removalSeconds: seconds, removalSource: 'given', removalBasis: 'given' },
      formula: `${formatSeconds(seconds)} given`,
    };
  }
  const i = inputs.healthCheckIntervalSeconds!;
  const n = inputs.healthCheckUnhealthyThreshold!;
  const t = inputs.healthCheckTimeoutSeconds!;
  const p = inputs.propagationSeconds ?? 0;
  const seconds = roundMs(i * n + t + p);
  return {
    fact: {
      removalSeconds: seconds,
      removalSource: 'health-check',
      removalBasis: gateway.healthCheck?.basis ?? 'given',
    },
    formula: `${formatSeconds(i)} interval × ${n} + ${formatSeconds(t)} timeout + ${formatSeconds(p)} propagation = ${formatSeconds(seconds)}`,
  };
}

/** Compute the drain plan for resolved inputs. The inputs must come from `resolveInputs` without errors. */
export function plan(inputs: DrainInputs, profiles: Profiles): Plan {
  const server = modelServerById(profiles, inputs.modelServer);
  const derivation: DerivationStep[] = [];

  const { fact: removal, formula: removalFormula } = planRemoval(inputs, profiles);
  derivation.push({
    field: 'removalSeconds',
    value: removal.removalSeconds,
    formula: removalFormula,
    why: 'p99 time from pod deletion until no gateway path sends the pod a new request.',
  });

  const preStopSeconds = ceilSeconds(removal.removalSeconds + inputs.removalMarginSeconds);
  derivation.push({
    field: 'preStopSeconds',
    value: preStopSeconds,
    formula: `${formatSeconds(removal.removalSeconds)} removal p99 + ${formatSeconds(inputs.removalMarginSeconds)} margin`,
    why: 'SIGTERM waits for this sleep, so the server keeps accepting until every gateway has stopped routing to it.',
  });

  const maxRequestDerived = inputs.maxRequestSeconds === undefined;
  const derived = ((inputs.maxOutputTokens * inputs.tpotMs) / 1000) * (1 + inputs.prefillOverheadPercent / 100);
  // Rounded up to a whole second, at least 1: a request under half a millisecond would round to 0, and a drain flag
  // of 0 means no drain at all on a server whose 0 aborts (vLLM's --shutdown-timeout).
  const maxRequestSeconds = Math.max(1, ceilSeconds(inputs.maxRequestSeconds ?? derived));
  derivation.push({
    field: 'maxRequestSeconds',
    value: maxRequestSeconds,
    formula: maxRequestDerived
      ? `${inputs.maxOutputTokens} tokens × ${roundMs(inputs.tpotMs)}ms × ${formatFactor(inputs.prefillOverheadPercent)} prefill = ${formatSeconds(derived)}, rounded up`
      : `${formatSeconds(inputs.maxRequestSeconds!)} given`,
    why: 'The longest request the drain must let finish.',
  });

  // A server that does not drain (llama.cpp: SIGTERM stops its task loop and HTTP server at once), or a release that
  // predates the drain flag of a server whose default aborts (vLLM before 0.18), gets no drain budget: nothing waits
  // for running requests, and a grace period longer than the exit only holds the GPUs.
  const release = planRelease(inputs, server);
  const tooOld = release.flagAt.kind === 'too-old' && server.drain.zeroAborts === true;
  // A release before the flag that waited a fixed time (TGI before 3.2.2: 90 s) drains for the budget when the wait is
  // longer (the server exits once its requests end) and for the wait when it is shorter (it ends what still runs).
  const fixedBefore = release.flagAt.kind === 'too-old' ? server.drain.beforeFlagSeconds : undefined;
  const drains = server.drain.kind !== 'none' && !tooOld;
  const budget = inputs.unboundedDrain
    ? inputs.drainCapSeconds
    : withHeadroom(maxRequestSeconds, inputs.drainHeadroomPercent);
  const cut = fixedBefore !== undefined && fixedBefore < budget;
  const drainSeconds = !drains ? 0 : cut ? fixedBefore : budget;
  derivation.push({
    field: 'drainSeconds',
    value: drainSeconds,
    formula: tooOld
      ? `${server.name} ${release.release} predates ${server.drain.flag}: 0s`
      : cut
        ? `${server.name} ${release.release} predates ${server.drain.flag}: its fixed ${formatSeconds(fixedBefore)}, under the ${formatSeconds(budget)} budget`
        : !drains
          ? `${server.name} does not drain: 0s`
          : inputs.unboundedDrain
            ? `unbounded drain, capped at ${formatSeconds(drainSeconds)}`
            : `${formatSeconds(maxRequestSeconds)} longest request × ${formatFactor(inputs.drainHeadroomPercent)} headroom`,
    why: tooOld
      ? `${server.name} has ${server.drain.flag} from ${server.drain.minVersion}; before it, SIGTERM aborts in-flight requests. Nothing waits for running requests, so the grace period is the preStop sleep and the teardown.`
      : cut
        ? `${server.name} has ${server.drain.flag} from ${server.drain.minVersion}; before it, the server waits a fixed ${formatSeconds(fixedBefore)} for running requests and then ends them, so waiting longer gains nothing.`
        : !drains
          ? `${server.drain.whileDraining} Nothing waits for running requests, so the grace period is the preStop sleep and the teardown.`
          : inputs.unboundedDrain
            ? 'The server drains until every request ends; Kubernetes still needs a bound, the cap.'
            : 'The drain budget: after SIGTERM the server should let running requests finish for up to this long. '
              + 'Whether it does, and whether it refuses new ones, depends on the server (see its page).',
  });

  const terminationGracePeriodSeconds = preStopSeconds + drainSeconds + inputs.teardownSeconds;
  derivation.push({
    field: 'terminationGracePeriodSeconds',
    value: terminationGracePeriodSeconds,
    formula: `${formatSeconds(preStopSeconds)} preStop + ${formatSeconds(drainSeconds)} drain + ${formatSeconds(inputs.teardownSeconds)} teardown`,
    why: 'The kubelet sends SIGKILL this long after deletion; the countdown includes the preStop sleep.',
  });

  const flagAt = release.flagAt;
  if (flagAt.kind !== 'no-flag') {
    const since = flagAt.kind === 'available' ? server.drain.minVersion : flagAt.since;
    derivation.push({
      field: 'modelServerRelease',
      value: release.release ?? 'unknown',
      formula: `${server.name} ${describeRelease(release)}${since !== undefined ? `; ${flagAt.flag} is in ${since} and later` : ''}`,
      why: 'The drain flag goes into the manifest only for a release that has it: a binary without it refuses to start.',
    });
  }
  // An unknown release gets the flag too (plan-release.ts says why); the warnings say so.
  const drainFlag =
    flagAt.kind === 'available' || flagAt.kind === 'unknown-release'
      ? { flag: flagAt.flag, seconds: drainSeconds }
      : null;
  if (drainFlag) {
    derivation.push({
      field: 'drainFlag',
      value: `${drainFlag.flag}=${drainFlag.seconds}`,
      formula: `drain ${formatSeconds(drainSeconds)}`,
      why: `${server.name} drains on SIGTERM for up to this long${server.drain.defaultSeconds !== undefined ? `; its default is ${server.drain.defaultSeconds}` : ''}.`,
    });
  }

  const { steps: gatewaySteps, ...gatewaySettings } = planGatewaySettings(
    gatewayById(profiles, inputs.gateway),
    inputs,
    { maxRequestSeconds, preStopSeconds, drainSeconds },
  );
  derivation.push(...gatewaySteps);

  const surge = inputs.spareGpus >= inputs.gpusPerReplica;
  const strategy = surge ? { maxSurge: 1, maxUnavailable: 0 } : { maxSurge: 0, maxUnavailable: 1 };
  derivation.push({
    field: 'strategy',
    value: `maxSurge ${strategy.maxSurge}, maxUnavailable ${strategy.maxUnavailable}`,
    formula: surge
      ? `${inputs.spareGpus} spare GPUs ≥ ${inputs.gpusPerReplica} per replica: start the new pod first`
      : `${inputs.spareGpus} spare GPUs < ${inputs.gpusPerReplica} per replica: replace in place`,
    why: surge
      ? 'A spare GPU lets the new pod load before an old one drains, so capacity never drops.'
      : 'Without a spare GPU a surge pod would sit Pending; one old pod drains first and its GPU goes to the new one.',
  });

  const rolloutStep = terminationGracePeriodSeconds + inputs.startupSeconds;
  const progressDeadlineSeconds = Math.max(PROGRESS_DEADLINE_FLOOR_SECONDS, rolloutStep);
  derivation.push({
    field: 'progressDeadlineSeconds',
    value: progressDeadlineSeconds,
    formula:
      rolloutStep >= PROGRESS_DEADLINE_FLOOR_SECONDS
        ? `${formatSeconds(terminationGracePeriodSeconds)} grace + ${formatSeconds(inputs.startupSeconds)} model load`
        : `${formatSeconds(terminationGracePeriodSeconds)} grace + ${formatSeconds(inputs.startupSeconds)} model load = ${formatSeconds(rolloutStep)}, raised to the ${PROGRESS_DEADLINE_FLOOR_SECONDS}s floor`,
    why: 'A rollout step can take a full drain plus a model load before the new pod is ready.',
  });

  const rollout: PlannedRollout = planRollout(inputs, strategy, terminationGracePeriodSeconds);
  derivation.push(...rollout.steps);

  const startupFailureThreshold = Math.ceil(inputs.startupSeconds / inputs.startupPeriodSeconds);
  derivation.push({
    field: 'startupProbe.failureThreshold',
    value: startupFailureThreshold,
    formula: `${formatSeconds(inputs.startupSeconds)} model load / ${formatSeconds(inputs.startupPeriodSeconds)} period, rounded up`,
    why: 'The startup probe must wait out the slowest model load, or the pod restarts in a loop.',
  });

  const readinessWindow = inputs.readinessPeriodSeconds * inputs.readinessFailureThreshold;
  const livenessWindow = inputs.livenessPeriodSeconds * inputs.livenessFailureThreshold;
  derivation.push({
    field: 'readinessProbe.window',
    value: readinessWindow,
    formula: `${formatSeconds(inputs.readinessPeriodSeconds)} period × ${inputs.readinessFailureThreshold} failures = ${formatSeconds(readinessWindow)} to leave rotation`,
    why: 'How long a pod that stops answering keeps getting requests through readiness-based paths.',
  });
  derivation.push({
    field: 'livenessProbe.window',
    value: livenessWindow,
    formula:
      `${formatSeconds(inputs.livenessPeriodSeconds)} period × ${inputs.livenessFailureThreshold} failures = ${formatSeconds(livenessWindow)} to restart, `
      + (livenessWindow >= readinessWindow ? 'after readiness' : 'BEFORE readiness'),
    why: 'A restart reloads the model, so liveness should fail later than readiness.',
  });

  // The profile's path and timeout; the period and threshold the inputs and the derivation give.
  const probe = (kind: keyof Plan['probes'], periodSeconds: number, failureThreshold: number): PlannedProbe => {
    const { path, timeoutSeconds } = server.probes[kind];
    return { path, periodSeconds, failureThreshold, timeoutSeconds };
  };
  const probes = {
    startup: probe('startup', inputs.startupPeriodSeconds, startupFailureThreshold),
    readiness: probe('readiness', inputs.readinessPeriodSeconds, inputs.readinessFailureThreshold),
    liveness: probe('liveness', inputs.livenessPeriodSeconds, inputs.livenessFailureThreshold),
  };

  const minor = Number(inputs.kubernetesVersion.split('.')[1]);
  const preStopAction = preStopSeconds === 0 ? 'none' : minor < 30 ? 'exec' : 'sleep';

  const result: Plan = {
    modelVersion: MODEL_VERSION,
    gateway: inputs.gateway,
    modelServer: inputs.modelServer,
    ...removal,
    preStopSeconds,
    preStopAction,
    maxRequestSeconds,
    maxRequestDerived,
    drainSeconds,
    unboundedDrain: inputs.unboundedDrain,
    teardownSeconds: inputs.teardownSeconds,
    terminationGracePeriodSeconds,
    modelServerRelease: release.release,
    modelServerReleaseSource: release.source,
    drainFlagStatus: release.flagAt.kind,
    drainFlag,
    ...gatewaySettings,
    strategy,
    progressDeadlineSeconds,
    ...rollout.fact,
    probes,
    warnings: [],
    derivation,
  };
  result.warnings = collectWarnings(result, inputs, profiles);
  return result;
}

/** The derivation formula for a field, used verbatim as its YAML comment; throws when the plan has no such step. */
export function formulaOf(plan: Plan, field: string): string {
  const step = plan.derivation.find((s) => s.field === field);
  if (!step) throw new Error(`the plan has no derivation step for ${field}`);
  return step.formula;
}
