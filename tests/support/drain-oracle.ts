/**
 * The drain model's numbers and invariants written out again from the site's page "The drain model"
 * (content/docs/drain-model.mdx, model v2), for the property tests to hold `plan()` against. It takes resolved
 * inputs (so defaults are the resolver's business) and recomputes every output from the page's formulas.
 */
import type { DrainInputs } from '../../src/model/resolve.ts';
import type { Plan } from '../../src/model/plan.ts';
import type { Profiles } from '../../src/facts/profiles.ts';

const INT32_MAX = 2 ** 31 - 1;

/** "Round up to whole seconds, after first rounding to the nearest millisecond." */
const wholeUp = (seconds: number) => Math.ceil(Math.round(seconds * 1000) / 1000);
const toMs = (seconds: number) => Math.round(seconds * 1000) / 1000;

export interface ExpectedPlan {
  removalSeconds: number;
  preStopSeconds: number;
  maxRequestSeconds: number;
  drainSeconds: number;
  terminationGracePeriodSeconds: number;
  strategy: { maxSurge: number; maxUnavailable: number };
  progressDeadlineSecondsAtLeast: number;
  startupFailureThreshold: number;
  drainFlag: { flag: string; seconds: number } | null;
  rolloutSteps: number;
  rolloutSeconds: number;
  rolloutServingReplicas: number;
  preStopAction: 'sleep' | 'exec' | 'none';
  livenessBeforeReadiness: boolean;
}

/** Release numbers of `text` (`v0.18.1` → [0, 18, 1]), or undefined when it is not a release. */
function releaseNumbers(text: string | undefined): number[] | undefined {
  const m = text === undefined ? null : /^v?(\d+(?:\.\d+){0,3})$/.exec(text);
  return m ? m[1].split('.').map(Number) : undefined;
}

/**
 * Whether the manifest may pass the drain flag: the release is the given one, else the one the image names (its tag,
 * on one of the server's own images, by that image's tag pattern; or its name), else the preset image's pinned one; a release older than the flag's first gets none, an unknown
 * release gets it (with a warning).
 */
function flagAllowed(inputs: DrainInputs, server: Profiles['modelServers'][number]): boolean {
  const since = releaseNumbers(server.drain.minVersion);
  if (!since) return true;
  const ref = inputs.image.split('@')[0];
  const tail = ref.slice(ref.lastIndexOf('/') + 1);
  const tag = tail.includes(':') ? tail.slice(tail.indexOf(':') + 1) : undefined;
  // An image's repository, less a registry host and Docker Hub's `library/`.
  const repositoryOf = (image: string) => {
    const parts = image
      .split('@')[0]
      .replace(/:[^/]*$/, '')
      .split('/');
    if (parts.length > 1 && /[.:]|^localhost$/.test(parts[0])) parts.shift();
    if (parts[0] === 'library') parts.shift();
    return parts.join('/');
  };
  const repository = repositoryOf(ref);
  // The drain model page: a tag names the release only on one of the server's own images (its preset image's
  // repository, or a mirror of it with the same last path part; or a listed image, whole or under a mirror's prefix,
  // by that image's own tag pattern). A client tag of the server's repository (Triton's -py3-sdk) is not the server.
  const client = tag !== undefined && server.release.clientTags?.test(tag) === true;
  const preset = repositoryOf(server.image);
  const ownPattern = client
    ? undefined
    : repository === preset || repository.split('/').pop() === preset.split('/').pop()
      ? server.release.tagPattern
      : server.images.find(
          (i) => i.repository && (repository === i.repository || repository.endsWith(`/${i.repository}`)),
        )?.tagPattern;
  const fromTag = tag === undefined ? undefined : ownPattern?.exec(tag)?.[1];
  // An image whose name carries the release (a Deep Learning Container).
  const named = server.images.flatMap((i) => i.repositoryPattern?.exec(repository)?.slice(1).join('.') ?? []);
  const release =
    releaseNumbers(inputs.modelServerVersion)
    ?? releaseNumbers(named[0])
    ?? releaseNumbers(fromTag)
    ?? (inputs.image === server.image ? releaseNumbers(server.release.pinned) : undefined);
  if (!release) return true;
  for (let i = 0; i < Math.max(release.length, since.length); i++) {
    const d = (release[i] ?? 0) - (since[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return true;
}

/** The plan the drain model page gives for these inputs. */
function expectedPlan(inputs: DrainInputs, profiles: Profiles): ExpectedPlan {
  const gateway = profiles.gateways.find((g) => g.id === inputs.gateway)!;
  const server = profiles.modelServers.find((m) => m.id === inputs.modelServer)!;
  // removal: given; or interval × threshold + timeout + propagation; or the profile's number.
  const removalSeconds =
    inputs.removalSeconds !== undefined
      ? toMs(inputs.removalSeconds)
      : inputs.healthCheckIntervalSeconds !== undefined
        ? toMs(
            inputs.healthCheckIntervalSeconds * inputs.healthCheckUnhealthyThreshold!
              + inputs.healthCheckTimeoutSeconds!
              + (inputs.propagationSeconds ?? 0),
          )
        : gateway.removal.seconds!;
  const preStopSeconds = wholeUp(removalSeconds + inputs.removalMarginSeconds);
  // At least one second: a request always takes some time, and a drain of 0 means none (DRAIN-MODEL: rounded up).
  const maxRequestSeconds = Math.max(
    1,
    inputs.maxRequestSeconds !== undefined
      ? wholeUp(inputs.maxRequestSeconds)
      : wholeUp(((inputs.maxOutputTokens * inputs.tpotMs) / 1000) * (1 + inputs.prefillOverheadPercent / 100)),
  );
  // A server that does not drain at SIGTERM (llama.cpp) gets no drain budget, nor does a release older than the drain
  // flag of a server whose default aborts in-flight requests (content/model-servers/vllm.yaml: before the flag,
  // SIGTERM ended the process without coordinating requests).
  // A release older than the flag that waited a fixed time instead (TGI before 3.2.2) drains for the budget, or for
  // that wait when it is shorter.
  const fixedBefore = flagAllowed(inputs, server) ? undefined : server.drain.beforeFlagSeconds;
  const budget = inputs.unboundedDrain
    ? inputs.drainCapSeconds
    : wholeUp(maxRequestSeconds * (1 + inputs.drainHeadroomPercent / 100));
  const drainSeconds =
    server.drain.kind === 'none' || (server.drain.zeroAborts === true && !flagAllowed(inputs, server))
      ? 0
      : Math.min(budget, fixedBefore ?? budget);
  // "Outputs (all whole seconds)": a teardown given in milliseconds is rounded up like every other output.
  const teardownSeconds = wholeUp(inputs.teardownSeconds);
  const surge = inputs.spareGpus >= inputs.gpusPerReplica;
  const grace = preStopSeconds + drainSeconds + teardownSeconds;
  const minor = Number(inputs.kubernetesVersion.split('.')[1]);
  return {
    removalSeconds,
    preStopSeconds,
    maxRequestSeconds,
    drainSeconds,
    terminationGracePeriodSeconds: preStopSeconds + drainSeconds + teardownSeconds,
    strategy: surge ? { maxSurge: 1, maxUnavailable: 0 } : { maxSurge: 0, maxUnavailable: 1 },
    progressDeadlineSecondsAtLeast: Math.max(
      600,
      preStopSeconds + drainSeconds + teardownSeconds + inputs.startupSeconds,
    ),
    startupFailureThreshold: Math.ceil(inputs.startupSeconds / inputs.startupPeriodSeconds),
    drainFlag:
      server.drain.kind === 'flag' && flagAllowed(inputs, server)
        ? { flag: server.drain.flag!, seconds: drainSeconds }
        : null,
    // "Rollout": steps = ⌈replicas / max(maxSurge, maxUnavailable)⌉ (always 1 per step here); each step load + grace.
    rolloutSteps: inputs.replicas,
    rolloutSeconds: inputs.replicas * (inputs.startupSeconds + grace),
    rolloutServingReplicas: surge ? inputs.replicas : inputs.replicas - 1,
    preStopAction: preStopSeconds === 0 ? 'none' : minor < 30 ? 'exec' : 'sleep',
    livenessBeforeReadiness:
      inputs.livenessPeriodSeconds * inputs.livenessFailureThreshold
      < inputs.readinessPeriodSeconds * inputs.readinessFailureThreshold,
  };
}

/** Everything in `plan` that breaks the drain model page's invariants or differs from its formulas. */
export function planViolations(plan: Plan, inputs: DrainInputs, profiles: Profiles): string[] {
  const errors: string[] = [];
  const want = expectedPlan(inputs, profiles);
  const same = (what: string, actual: unknown, expected: unknown) => {
    if (JSON.stringify(actual) !== JSON.stringify(expected))
      errors.push(
        `${what}: plan has ${JSON.stringify(actual)}, the drain model page gives ${JSON.stringify(expected)}`,
      );
  };
  same('removalSeconds', plan.removalSeconds, want.removalSeconds);
  same('preStopSeconds', plan.preStopSeconds, want.preStopSeconds);
  same('maxRequestSeconds', plan.maxRequestSeconds, want.maxRequestSeconds);
  same('drainSeconds', plan.drainSeconds, want.drainSeconds);
  same('terminationGracePeriodSeconds', plan.terminationGracePeriodSeconds, want.terminationGracePeriodSeconds);
  same('strategy', plan.strategy, want.strategy);
  same('startupProbe.failureThreshold', plan.probes.startup.failureThreshold, want.startupFailureThreshold);
  same('drainFlag', plan.drainFlag, want.drainFlag);
  same('rolloutSteps', plan.rolloutSteps, want.rolloutSteps);
  same('rolloutSeconds', plan.rolloutSeconds, want.rolloutSeconds);
  same('rolloutServingReplicas', plan.rolloutServingReplicas, want.rolloutServingReplicas);
  same(
    'grace-exceeds-autoscaler warning',
    plan.warnings.some((w) => w.code === 'grace-exceeds-autoscaler'),
    want.terminationGracePeriodSeconds > 600,
  );
  same('preStopAction', plan.preStopAction, want.preStopAction);
  same(
    'liveness-faster-than-readiness warning',
    plan.warnings.some((w) => w.code === 'liveness-faster-than-readiness'),
    want.livenessBeforeReadiness,
  );
  same(
    'probe periods and thresholds',
    [
      plan.probes.readiness.periodSeconds,
      plan.probes.readiness.failureThreshold,
      plan.probes.liveness.periodSeconds,
      plan.probes.liveness.failureThreshold,
      plan.probes.startup.periodSeconds,
    ],
    [
      inputs.readinessPeriodSeconds,
      inputs.readinessFailureThreshold,
      inputs.livenessPeriodSeconds,
      inputs.livenessFailureThreshold,
      inputs.startupPeriodSeconds,
    ],
  );

  // The invariants, stated as the drain model page states them.
  if (!(plan.preStopSeconds <= plan.terminationGracePeriodSeconds))
    errors.push('invariant: preStopSeconds <= terminationGracePeriodSeconds');
  if (!(plan.terminationGracePeriodSeconds >= plan.preStopSeconds + plan.drainSeconds))
    errors.push('invariant: terminationGracePeriodSeconds >= preStopSeconds + drainSeconds');
  if (
    !(
      plan.progressDeadlineSeconds >= plan.terminationGracePeriodSeconds + inputs.startupSeconds
      && plan.progressDeadlineSeconds >= 600
    )
  ) {
    errors.push(
      `progressDeadlineSeconds ${plan.progressDeadlineSeconds} < max(600, grace + startup = ${want.progressDeadlineSecondsAtLeast})`,
    );
  }
  if (plan.probes.startup.periodSeconds * plan.probes.startup.failureThreshold < inputs.startupSeconds)
    errors.push('startup probe does not cover the model load');
  const int64 = {
    preStopSeconds: plan.preStopSeconds,
    drainSeconds: plan.drainSeconds,
    terminationGracePeriodSeconds: plan.terminationGracePeriodSeconds,
    maxRequestSeconds: plan.maxRequestSeconds,
    rolloutSeconds: plan.rolloutSeconds,
  };
  const int32 = {
    progressDeadlineSeconds: plan.progressDeadlineSeconds,
    ...Object.fromEntries(
      (['startup', 'readiness', 'liveness'] as const).flatMap((p) => [
        [`${p}.periodSeconds`, plan.probes[p].periodSeconds],
        [`${p}.failureThreshold`, plan.probes[p].failureThreshold],
        [`${p}.timeoutSeconds`, plan.probes[p].timeoutSeconds],
      ]),
    ),
    maxSurge: plan.strategy.maxSurge,
    maxUnavailable: plan.strategy.maxUnavailable,
  };
  for (const [name, value] of Object.entries(int64)) {
    if (!(Number.isSafeInteger(value) && value >= 0))
      errors.push(`invariant: ${name} must be a non-negative whole number (got ${value})`);
  }
  for (const [name, value] of Object.entries(int32)) {
    if (!(Number.isInteger(value) && value >= 0 && value <= INT32_MAX))
      errors.push(`invariant: ${name} must be a non-negative int32 (got ${value})`);
  }
  // Messages may quote the reader's own text (a model called "null"): that is taken out before looking for broken values.
  const userTexts = [inputs.image, inputs.model, inputs.name, inputs.namespace].sort((a, b) => b.length - a.length);
  for (const w of plan.warnings) {
    const own = userTexts.reduce((text, user) => text.split(user).join('<user>'), w.message);
    if (!/^[a-z]+(-[a-z]+)*$/.test(w.code) || !w.message || /undefined|NaN|null/.test(own))
      errors.push(`warning ${w.code}: malformed (${w.message})`);
  }
  for (const step of plan.derivation) {
    if (/undefined|NaN|Infinity/.test(`${step.value} ${step.formula} ${step.why}`))
      errors.push(`derivation ${step.field}: ${step.value} = ${step.formula}`);
  }
  return errors;
}
