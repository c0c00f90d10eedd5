/**
 * Warnings about a plan: each has a stable `code` (tests, the checker and the CLI's JSON rely on it),
 * a severity, and a message that says what will happen and what to change.
 */
import type { Plan, Warning, WarningCode, WarningLink } from './plan-types.ts';

export type { Warning, WarningCode } from './plan-types.ts';
import type { Profiles } from '../facts/profiles.ts';
import { imageRepository, isServerImage } from '../facts/releases.ts';
import { gatewayById, modelServerById, type DrainInputs } from './resolve.ts';
import { formatFactor, formatSeconds } from './seconds.ts';
import { AUTOSCALER_GRACE_LIMIT_SECONDS, keepsNodesFromScaleDown, SAFE_TO_EVICT_ANNOTATION } from './plan-rollout.ts';
import { withHeadroom } from './plan-gateway.ts';

/** The guide that measures a rollout and the numbers behind it with `hitless verify`. */
const MEASURE_LINK: WarningLink = {
  path: '/guides/verify-a-rollout/#step-by-step',
  label: 'Measure it with hitless verify',
};

/** Where the plan's release came from, as a parenthesis in messages. */
const RELEASE_SOURCE_WORDS: Record<Plan['modelServerReleaseSource'], string> = {
  given: 'given as model-server-version',
  image: 'from the image tag',
  'image-name': 'from the image name',
  pinned: 'the preset image',
  unknown: 'unknown',
};

/** "The 788s grace period is longer than the 600s cluster-autoscaler gives a pod when it removes a node (…)". */
const overAutoscaler = (graceSeconds: number) =>
  `The ${formatSeconds(graceSeconds)} grace period is longer than the ${formatSeconds(AUTOSCALER_GRACE_LIMIT_SECONDS)} `
  + 'cluster-autoscaler gives a pod when it removes a node (its --max-graceful-termination-sec, 600 unless set)';

/**
 * The autoscaler warning for pods that do NOT carry safe-to-evict "false" (a manifest the checker reads, not one
 * Hitless wrote): a scale-down kills a draining pod after 600 s. `collectWarnings` gives the note instead, since
 * every output form adds the annotation.
 */
export function autoscalerCutsDrain(graceSeconds: number): Warning {
  return {
    code: 'grace-exceeds-autoscaler',
    severity: 'warning',
    message:
      `${overAutoscaler(graceSeconds)}: a scale-down `
      + `kills a draining pod after ${formatSeconds(AUTOSCALER_GRACE_LIMIT_SECONDS)} and cuts its requests. Raise --max-graceful-termination-sec to at least `
      + `${graceSeconds}, or keep these pods off nodes it removes (the pod annotation `
      + `${SAFE_TO_EVICT_ANNOTATION}: "false"); a node drain that shortens the grace period (kubectl drain --grace-period below it) cuts them the same way, while kubectl drain --timeout only bounds how long the command waits.`,
  };
}

/** The autoscaler's limit on a grace period above it, for pods that carry safe-to-evict "false": what that costs. */
export function autoscalerKept(graceSeconds: number): Warning {
  return {
    code: 'grace-exceeds-autoscaler',
    severity: 'info',
    message:
      `${overAutoscaler(graceSeconds)}, so the manifest `
      + `adds the pod annotation ${SAFE_TO_EVICT_ANNOTATION}: "false": the autoscaler then does not remove a node while one of these pods `
      + 'runs there, and such nodes are not scaled down, even when idle. To let them scale down, raise --max-graceful-termination-sec '
      + `to at least ${graceSeconds} and remove the annotation. A node drain that shortens the grace period (kubectl drain --grace-period below it) `
      + 'still cuts these pods; kubectl drain --timeout only bounds how long the command waits.',
  };
}

/** The release-unknown warning's reason: the manifest passes the drain flag (the checker's says when it does not). */
export const FLAG_PASSED =
  'The manifest passes it: a release without it refuses to start, so the new pod never becomes ready and the rollout stops while the old pods keep serving.';

/** Every warning that applies to a plan, in a fixed order. */
export function collectWarnings(plan: Plan, inputs: DrainInputs, profiles: Profiles): Warning[] {
  const gateway = gatewayById(profiles, inputs.gateway);
  const server = modelServerById(profiles, inputs.modelServer);
  const warnings: Warning[] = [];
  const add = (code: WarningCode, severity: Warning['severity'], message: string, see?: WarningLink) =>
    warnings.push(see ? { code, severity, message, see } : { code, severity, message });

  if (plan.removalSource === 'profile' && plan.removalBasis === 'estimate') {
    add(
      'removal-estimate',
      'info',
      `The ${formatSeconds(plan.removalSeconds)} removal p99 for ${gateway.name} is an estimate, not a measurement. `
        + `Measure it (${gateway.removal.howToMeasure}) and set removal-seconds.`,
      { path: `/gateways/${gateway.id}/`, label: `How to measure ${gateway.name}'s removal` },
    );
  }
  const requestDefaults = profiles.requestDefaults;
  if (
    plan.maxRequestDerived
    && inputs.tpotMs === requestDefaults.tpotMs.value
    && inputs.model !== requestDefaults.model
  ) {
    add(
      'tpot-default-other-model',
      'info',
      `The ${formatSeconds(plan.maxRequestSeconds)} longest request uses the default ${requestDefaults.tpotMs.value} ms per output token, `
        + `a figure for ${requestDefaults.model}, not for ${inputs.model}. Measure the p99 time per output token of ${inputs.model} `
        + 'at full batch on your GPUs and set tpot-ms, or set max-request-seconds.',
      MEASURE_LINK,
    );
  }
  if (plan.removalSource === 'health-check' && plan.removalBasis === 'example') {
    add(
      'removal-example',
      'warning',
      `The health-check values are examples, not your load balancer's. Set health-check-interval-seconds, `
        + `health-check-unhealthy-threshold, health-check-timeout-seconds and propagation-seconds from its configuration, or measure removal-seconds.`,
    );
  }
  if (plan.removalSource === 'health-check' || gateway.mechanism === 'health-check') {
    add(
      'health-check-only',
      'warning',
      `A load balancer that only health-checks the pod stops routing to it only when its checks fail. ${server.name} keeps `
        + `passing them during a plain preStop sleep, so requests still arrive until about ${formatSeconds(plan.removalSeconds)} after `
        + 'SIGTERM and are refused while it drains: the sleep alone does not help. Make the check fail when termination starts while the '
        + 'server still serves: have the preStop hook create a file that the checked health endpoint (or a small sidecar in front of it) '
        + `reports as 503, then sleep ${formatSeconds(plan.preStopSeconds)}. Or have the load balancer follow endpoints (NEGs, EndpointSlices) `
        + 'rather than checks alone. The sleep still covers the Endpoint Picker and EndpointSlice paths.',
    );
  }
  if (inputs.failureMode === 'FailOpen' && gateway.failOpenNote) {
    add('fail-open-endpoint-view', 'info', gateway.failOpenNote);
  }
  if (plan.preStopAction === 'none') {
    add(
      'no-prestop',
      'warning',
      'The removal p99 and margin add up to 0 s, so there is no preStop sleep: the pod gets SIGTERM while gateways may still route to it. '
        + 'Give removal-seconds a measured value.',
    );
  }
  if (plan.preStopAction === 'exec') {
    add(
      'exec-sleep',
      'info',
      `Kubernetes ${inputs.kubernetesVersion} does not enable the native sleep action (it is alpha and off in 1.29, beta and on from 1.30), `
        + 'so the preStop runs /bin/sleep in the container. The image must have a sleep binary; upgrade to 1.30 or later to drop that need.',
    );
  }
  if (plan.drainFlagStatus === 'available' && server.drain.minVersionNote) {
    add(
      'drain-flag-min-version',
      'info',
      `${server.drain.flag} is expected from ${server.name} ${server.drain.minVersion} (${server.drain.minVersionNote}); `
        + `this plan is for ${plan.modelServerRelease}. Check that the image you pin has it.`
        + (server.drain.zeroAborts
          ? ` Without it, or with ${server.drain.flag}=0, in-flight requests are aborted at SIGTERM.`
          : ''),
    );
  }
  const fixedBefore = server.drain.beforeFlagSeconds;
  if (plan.drainFlagStatus === 'too-old' && fixedBefore !== undefined) {
    // Releases before the flag drained for a fixed time (the plan's drain): enough when it covers the longest request.
    const enough = fixedBefore >= plan.maxRequestSeconds;
    add(
      'drain-flag-too-old',
      enough ? 'info' : 'error',
      `${server.name} ${plan.modelServerRelease} (${RELEASE_SOURCE_WORDS[plan.modelServerReleaseSource]}) `
        + `predates ${server.drain.flag} (from ${server.drain.minVersion}), so the manifest leaves it out: a binary without the flag would refuse to start. `
        + `Releases before it drain for a fixed ${formatSeconds(fixedBefore)}`
        + (enough
          ? `, which covers the ${formatSeconds(plan.maxRequestSeconds)} longest request: the server exits once its requests end.`
          : `, less than the ${formatSeconds(plan.maxRequestSeconds)} longest request: requests still running then are cut. Use an image of ${server.name} ${server.drain.minVersion} or later.`),
    );
  } else if (plan.drainFlagStatus === 'too-old') {
    add(
      'drain-flag-too-old',
      'error',
      `${server.name} ${plan.modelServerRelease} (${RELEASE_SOURCE_WORDS[plan.modelServerReleaseSource]}) `
        + `predates ${server.drain.flag}, which ${server.name} has from ${server.drain.minVersion}`
        + (server.drain.minVersionNote ? ` (${server.drain.minVersionNote})` : '')
        + ', so the manifest leaves it out: a binary without the flag would refuse to start. '
        + (server.drain.zeroAborts
          ? `Without it ${server.name} aborts every in-flight request at SIGTERM, as its default, 0, does. `
          : `Without it ${server.name} cannot be told to drain for the ${formatSeconds(plan.drainSeconds)} budget. `)
        + `Use an image of ${server.name} ${server.drain.minVersion} or later.`,
    );
  }
  if (plan.drainFlagStatus === 'unknown-release') {
    add(
      'drain-flag-release-unknown',
      'warning',
      (isServerImage(server, inputs.image)
        ? `The tag of the image ${inputs.image} names no ${server.name} release`
        : `The image ${inputs.image} is not ${server.name}'s own (${imageRepository(server.image)}), so its tag does not name the ${server.name} release it runs`)
        + `, so Hitless cannot tell whether it has `
        + `${server.drain.flag}${server.drain.minVersion ? ` (${server.name} ${server.drain.minVersion} and later)` : ''}. `
        + `${FLAG_PASSED} Pin an image tag that names the release, or set model-server-version.`,
    );
  }
  if (server.drain.kind === 'fixed' && server.drain.fixedSeconds! < plan.drainSeconds) {
    add(
      'drain-fixed-shorter',
      'warning',
      `${server.name}'s ${server.drain.fixedScope} a fixed ${formatSeconds(server.drain.fixedSeconds!)} after SIGTERM`
        + (server.drain.caveat ? ` (${server.drain.caveat})` : '')
        + `, less than the ${formatSeconds(plan.drainSeconds)} drain budget: requests longer than that are cut. `
        + 'Lower max-output-tokens or choose a server with a drain setting.',
    );
  }
  if (server.drain.kind === 'unbounded') {
    add(
      'drain-unbounded-server',
      'info',
      `${server.name} drains until no request remains; terminationGracePeriodSeconds (${formatSeconds(plan.terminationGracePeriodSeconds)}) is the only bound.`,
    );
  }
  if (server.drain.kind === 'none') {
    add(
      'no-drain',
      'warning',
      `${server.name} does not drain on SIGTERM${server.drain.caveat ? ` (${server.drain.caveat})` : ''}: requests still running when the preStop sleep ends are cut. `
        + 'Send it long requests only through a route you can retry, or run a server that drains.',
    );
  }
  if (inputs.unboundedDrain && server.drain.kind !== 'none') {
    add(
      'unbounded-drain-cost',
      'info',
      `Each terminating pod can hold its GPUs for up to ${formatSeconds(plan.terminationGracePeriodSeconds)}; rollouts and node drains wait as long.`,
    );
  }
  if (inputs.unboundedDrain && server.drain.kind !== 'none' && plan.drainSeconds < plan.maxRequestSeconds) {
    add(
      'drain-cap-below-request',
      'error',
      `The drain cap, ${formatSeconds(plan.drainSeconds)}, is shorter than the ${formatSeconds(plan.maxRequestSeconds)} longest request: `
        + 'the drain ends at the cap, so at every rollout the requests longer than that are cut. '
        + `Raise drain-cap-seconds to at least ${plan.maxRequestSeconds}, or lower the longest request.`,
    );
  }
  const readinessWindow = plan.derivation.find((s) => s.field === 'readinessProbe.window')!.value as number;
  const livenessWindow = plan.derivation.find((s) => s.field === 'livenessProbe.window')!.value as number;
  if (livenessWindow < readinessWindow) {
    add(
      'liveness-faster-than-readiness',
      'warning',
      `Liveness fails after ${formatSeconds(livenessWindow)} but readiness only after ${formatSeconds(readinessWindow)}: a slow pod is restarted `
        + '(and its model reloaded) before it is taken out of rotation. Raise liveness-failure-threshold or liveness-period-seconds.',
    );
  }
  if (inputs.replicas === 1 && plan.strategy.maxUnavailable === 1) {
    add(
      'single-replica-outage',
      'warning',
      `With one replica and no spare GPU, no pod takes new requests from the old pod's deletion (the Endpoint Picker drops it at once) `
        + `until the new pod has its GPU and has loaded the model: up to ${formatSeconds(plan.terminationGracePeriodSeconds + inputs.startupSeconds)}. `
        + 'Add a replica or a spare GPU.',
    );
  }
  if (keepsNodesFromScaleDown(plan)) {
    // Resolved in the output: every form puts the annotation on the pods (src/emit/pod.ts), so this is a note of
    // what it costs, not a warning.
    const note = autoscalerKept(plan.terminationGracePeriodSeconds);
    add(note.code, note.severity, note.message);
  }
  const route = gateway.routeTimeout;
  const routeNeeded = withHeadroom(plan.maxRequestSeconds, inputs.drainHeadroomPercent);
  const routeWhy = `the ${formatSeconds(plan.maxRequestSeconds)} longest request × ${formatFactor(inputs.drainHeadroomPercent)} headroom`;
  if (route?.honored && route.defaultSeconds !== undefined && route.defaultSeconds < routeNeeded) {
    add(
      'route-timeout-default',
      'warning',
      `${gateway.name} cuts a request after ${formatSeconds(route.defaultSeconds)} unless the HTTPRoute that sends it to the pool ${inputs.name} `
        + `sets spec.rules[].timeouts.request. Set it there to at least ${routeNeeded}s (${routeWhy}): timeouts: {request: ${routeNeeded}s}.`,
      { path: `/gateways/${gateway.id}/#route-timeout`, label: `${gateway.name}'s route timeout` },
    );
  }
  if (route && !route.honored && route.instead && route.instead.defaultSeconds < plan.maxRequestSeconds) {
    add(
      'route-timeout-unsupported',
      'warning',
      `${gateway.name} ignores timeouts on an HTTPRoute rule (it accepts the route and reports them as unsupported); ${route.instead.setting} `
        + (route.instead.scope === 'between-reads'
          ? `defaults to ${formatSeconds(route.instead.defaultSeconds)} between two reads, so a response that is not streamed and generates for longer is cut (a streamed one is not). `
          : `defaults to ${formatSeconds(route.instead.defaultSeconds)}, less than the ${formatSeconds(plan.maxRequestSeconds)} longest request. `)
        + `Set it to at least ${routeNeeded}s (${routeWhy}) on the HTTPRoute that sends requests to the pool ${inputs.name}.`,
      { path: `/gateways/${gateway.id}/#route-timeout`, label: `${gateway.name}'s route timeout` },
    );
  }
  for (const capped of plan.cappedGatewaySettings) {
    add(
      'gateway-setting-capped',
      'warning',
      `${gateway.name}'s ${capped.setting} goes up to ${formatSeconds(capped.maxSeconds)}, less than the ${formatSeconds(capped.wantedSeconds)} `
        + 'this plan wants: requests or drains longer than that are cut at the gateway. Shorten the longest request or the drain.',
    );
  }
  return warnings;
}
