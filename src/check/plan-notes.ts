/** The plan's own warnings as findings: about the workload where they have a place, else once for the settings. */
import { autoscalerCutsDrain, autoscalerKept, FLAG_PASSED, type WarningCode } from '../model/warnings.ts';
import { AUTOSCALER_GRACE_LIMIT_SECONDS, SAFE_TO_EVICT_ANNOTATION } from '../model/plan-rollout.ts';
import { valueAt } from './read/path.ts';
import { knows, report, type WorkloadContext } from './rules/context.ts';
import { assumedBases, assumedNote, assumedText } from './workload/assumed.ts';
import { poolSelects, statedReplicas } from './workload/locate.ts';
import { formatSeconds } from '../model/seconds.ts';
import { holdsAccelerators } from './workload/pod.ts';
import { drainFlagAt } from '../facts/releases.ts';
import { workloadRelease } from './rules/shared/drain-flag.ts';
import type { Segment } from './read/path.ts';

/** Where a plan warning points in the workload; warnings not listed are about the settings as a whole. */
const WARNING_PATHS: Partial<Record<WarningCode, (ctx: WorkloadContext) => Segment[]>> = {
  'single-replica-outage': () => ['spec', 'replicas'],
  'drain-fixed-shorter': (ctx) => ctx.container.path,
  'no-drain': (ctx) => ctx.container.path,
  'drain-unbounded-server': (ctx) => ctx.container.path,
  'drain-flag-min-version': (ctx) => [...ctx.container.path, 'image'],
  'drain-flag-too-old': (ctx) => [...ctx.container.path, 'image'],
  'drain-flag-release-unknown': (ctx) => [...ctx.container.path, 'image'],
  'exec-sleep': (ctx) => [...ctx.container.path, 'lifecycle'],
};

/** Plan warnings about whether the image's release has the drain flag. */
const DRAIN_FLAG_RELEASE: ReadonlySet<WarningCode> = new Set([
  'drain-flag-min-version',
  'drain-flag-too-old',
  'drain-flag-release-unknown',
]);

/** What the checker says in place of the plan's FLAG_PASSED when the manifest does not pass the flag. */
const FLAG_ABSENT =
  'The manifest does not pass it, so nothing breaks at start; add it (the drain finding says where) only once the release is known to have it.';

/** Plan warnings the checker states as rules of its own, with a path and a fix. */
const RESTATED: ReadonlySet<WarningCode> = new Set(['liveness-faster-than-readiness']);

/** Pass on the plan's warnings for a workload: about the workload where they have a place, else once for the settings. */
export function planNotes(ctx: WorkloadContext, seen: Set<string>): void {
  // The autoscaler's limit is about the workload's grace period: the plan's, or the manifest's where it is longer.
  const { graceTarget } = ctx.targets;
  const annotated =
    valueAt(ctx.object.value, [...ctx.workload.serving.path, 'metadata', 'annotations', SAFE_TO_EVICT_ANNOTATION])
    === 'false';
  // A StatefulSet never surges: it deletes a pod before it creates its replacement, so one replica leaves a gap at
  // every rollout, whatever its accelerators or spare GPUs (the plan's warning is for a Deployment without a spare GPU).
  const statefulOne = ctx.workload.kind === 'StatefulSet' && statedReplicas(ctx.workload) === 1;
  const warnings = ctx.plan.warnings.filter(
    (w) =>
      (w.code !== 'grace-exceeds-autoscaler' || graceTarget > AUTOSCALER_GRACE_LIMIT_SECONDS)
      && !(statefulOne && w.code === 'single-replica-outage'),
  );
  if (statefulOne)
    warnings.push({
      code: 'single-replica-outage',
      severity: 'warning',
      message:
        `A StatefulSet replaces its one pod by deleting it before it creates the new one: no pod takes new requests from the old pod's deletion (the Endpoint Picker drops it at once) `
        + `until the new pod has started and loaded the model: up to ${formatSeconds(graceTarget + ctx.inputs.startupSeconds)}. Add a replica.`,
    });
  if (graceTarget > AUTOSCALER_GRACE_LIMIT_SECONDS && !warnings.some((w) => w.code === 'grace-exceeds-autoscaler'))
    warnings.push(autoscalerCutsDrain(graceTarget));
  for (const planned of warnings) {
    // The plan's autoscaler note says the manifest carries safe-to-evict "false", as Hitless's output does; a
    // workload without it gets the warning, on its own grace period.
    const warning =
      planned.code !== 'grace-exceeds-autoscaler'
        ? planned
        : !annotated
          ? autoscalerCutsDrain(graceTarget)
          : autoscalerKept(graceTarget);
    if (RESTATED.has(warning.code)) continue;
    // About the drain flag of the server the plan assumes: only for a workload whose server the checker knows.
    if (DRAIN_FLAG_RELEASE.has(warning.code) && !ctx.serverKnown) continue;
    // The plan's model is the profile's stand-in where the manifest names none the checker reads (a path): a note
    // comparing it with the default's model would name a model the workload may not serve. The findings that rest on
    // the longest request already name --tpot-ms.
    if (warning.code === 'tpot-default-other-model' && !knows(ctx, 'model')) continue;
    let { severity, message } = warning;
    /** The settings an error demoted for an assumed input needs (`--strict` still fails on it). */
    let demoted: string[] | undefined;
    if (warning.code === 'drain-flag-min-version') {
      const release = workloadRelease(ctx);
      const at = drainFlagAt(ctx.server, release);
      if (at.kind === 'available' || at.kind === 'no-flag') continue;
      if (at.kind === 'too-old') {
        severity = 'warning';
        message = `The image is ${ctx.server.name} ${release}, older than ${at.since}, the first release expected to have ${at.flag}: ${warning.message}`;
      }
    }
    // The plan's message names the plan's grace period; the manifest's (as fixed) is the one that bounds this drain.
    if (warning.code === 'drain-unbounded-server')
      message = `${ctx.server.name} drains until no request remains; terminationGracePeriodSeconds (${ctx.targets.graceTarget}s) is the only bound.`;
    // The autoscaler's limit against a grace period the manifest does not hold (it is within the limit; the grace
    // fix would pass it): a note on applying that fix, not a warning about the manifest.
    if (warning.code === 'grace-exceeds-autoscaler' && ctx.targets.grace.state === 'bad') {
      // A placeholder or unreadable grace period gets no grace fix: the note is on the plan's grace period.
      severity = 'info';
      message = `If terminationGracePeriodSeconds, which the checker could not read, is ${ctx.targets.graceTarget}s as the drain needs: ${lower(message)}`;
    } else if (warning.code === 'grace-exceeds-autoscaler' && ctx.targets.graceNow <= AUTOSCALER_GRACE_LIMIT_SECONDS) {
      severity = 'info';
      message = `If you raise terminationGracePeriodSeconds to ${ctx.targets.graceTarget}s as the grace fix does: ${lower(message)}`;
    }
    // The release-unknown warning says the manifest passes the flag; when it does not, nothing breaks at start.
    if (warning.code === 'drain-flag-release-unknown' && !ctx.targets.flag?.use) {
      severity = 'info';
      message = message.replace(FLAG_PASSED, FLAG_ABSENT);
    }
    // A release before the flag that waits a fixed time cuts only the requests that outlast it: an error only when
    // the longest request is known to.
    if (
      warning.code === 'drain-flag-too-old'
      && severity === 'error'
      && ctx.server.drain.beforeFlagSeconds !== undefined
    ) {
      const assumed = assumedBases(['longest request'], (flag) => knows(ctx, flag));
      if (assumed.length > 0) {
        severity = 'warning';
        message += assumedText(assumed);
        demoted = assumed.flatMap((a) => a.flags);
      }
    }
    // The plan replaces a single replica in place for want of a spare GPU, and the outage lasts the model load: say
    // which of them the manifest did not state.
    if (warning.code === 'single-replica-outage') {
      // A pod that holds no accelerator needs no spare GPU to surge: the plan's in-place replacement is not its case.
      // Nor is a controller's own rollout (Argo's blue-green, KServe's, a serving operator's): whether one replica
      // leaves a gap depends on it.
      if (
        (!ctx.containers.some(holdsAccelerators) && !statefulOne)
        || ctx.workload.served !== undefined
        || ctx.workload.kind === 'LLMInferenceService'
      )
        continue;
      // The plan's words are for a pool's pods; without a pool, Kubernetes removes the pod's endpoints.
      if (!ctx.check.located.pools.some((pool) => poolSelects(pool, ctx.workload)))
        message = message.replace('(the Endpoint Picker drops it at once)', '(its endpoints are removed at once)');
      const assumed = assumedBases(statefulOne ? ['model load time'] : ['spare GPUs', 'model load time'], (flag) =>
        knows(ctx, flag),
      );
      if (assumed.length > 0) message += assumedNote(assumed);
    }
    const where = WARNING_PATHS[warning.code];
    if (where) {
      report(ctx.check, ctx.object, warning.code, severity, where(ctx), message, undefined, demoted);
    } else if (!seen.has(`${warning.code}\n${message}`)) {
      seen.add(`${warning.code}\n${message}`);
      report(ctx.check, undefined, warning.code, severity, [], message);
    }
  }
}

/** A sentence continued after a colon: its first letter in lower case. */
const lower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
