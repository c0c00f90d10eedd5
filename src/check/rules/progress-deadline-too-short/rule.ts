import { PROGRESS_DEADLINE_FLOOR_SECONDS } from '../../../model/plan.ts';
import { formatSeconds as s } from '../../../model/seconds.ts';
import { knows, setFix, type WorkloadContext } from '../context.ts';
import { intField, intOr, probeWindowSeconds, readProbe } from '../../workload/pod.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'progress-deadline-too-short',
  order: 160,
  scope: 'workload',
  severity: {
    warning: 'below the grace period as written + the model load given, read or allowed by the startup probe',
    info: 'only below the grace period the grace fix writes + model load (a note on applying that fix), or on an assumed model load',
  },
  summary: 'progressDeadlineSeconds is below grace + model load (and the 600 s floor).',
  remediation: 'Raise progressDeadlineSeconds to grace + model load (at least 600).',
  remedy: 'applied',
  appliesTo: ({ workload }) => workload.kind === 'Deployment',
  check: (ctx) => {
    const { object, targets: t } = ctx;
    const field = intField(object.value.spec, 'progressDeadlineSeconds', 'int32');
    const now = intOr(field, PROGRESS_DEADLINE_FLOOR_SECONDS);
    const { load, bound, target, refit } = deadlineOf(ctx);
    if (now >= target) return [];
    // The manifest as written is within its deadline; only the grace the grace fix writes would pass it.
    const onlyAfterFix =
      t.graceNow < t.graceTarget
      && now >= Math.max(PROGRESS_DEADLINE_FLOOR_SECONDS, t.graceNow + (refit ? ctx.inputs.startupSeconds : load));
    const assumed = !bound && !knows(ctx, 'startup-seconds');
    return [
      {
        severity: onlyAfterFix || assumed ? 'info' : 'warning',
        path: ['spec', 'progressDeadlineSeconds'],
        message:
          (onlyAfterFix
            ? `If you raise terminationGracePeriodSeconds to ${s(t.graceTarget)} as the grace fix does, raise progressDeadlineSeconds with it: `
            : '')
          + `A rollout step can take ${bound || refit ? 'up to ' : ''}${s(target)} (${stepOf(ctx, !onlyAfterFix)}), longer than progressDeadlineSeconds (${s(now)}${field.state === 'set' ? '' : ', the default'}): `
          + 'the Deployment reports ProgressDeadlineExceeded and kubectl rollout status fails while the rollout is still going fine.'
          + (assumed
            ? ` This rests on an assumed ${s(ctx.inputs.startupSeconds)} model load (a default the manifest does not state): give --startup-seconds (your real value).`
            : ''),
      },
    ];
  },
  fix: (ctx) => setFix(ctx.object, ['spec', 'progressDeadlineSeconds'], deadlineOf(ctx).target, stepOf(ctx)),
});

/**
 * The model load a rollout step allows for: the given or read load time; else, when the server's startup probe
 * allows at least the default load, its window (the kubelet restarts a load that outlasts it, so no step waits
 * longer: `bound`); else the default (a shorter window is raised to it by the startup-too-short fix).
 */
function deadlineOf(ctx: WorkloadContext): { load: number; bound: boolean; target: number; refit: boolean } {
  const startup = readProbe(ctx.container, 'startupProbe');
  const window = startup ? probeWindowSeconds(startup) : 0;
  const known = knows(ctx, 'startup-seconds');
  const bound = window >= ctx.inputs.startupSeconds && !known;
  // A window below an assumed load is raised by the startup-too-short fix to the plan's period × threshold after the
  // same delay, and the load is then waited for up to that window: the step is counted as a check of the fixed
  // manifest counts it.
  const { periodSeconds, failureThreshold } = ctx.plan.probes.startup;
  const refitWindow = startup && !bound && !known ? startup.initialDelaySeconds + periodSeconds * failureThreshold : 0;
  const refit = refitWindow > ctx.inputs.startupSeconds;
  const load = bound ? window : refit ? refitWindow : ctx.inputs.startupSeconds;
  // The plan's deadline counts the default load; a load the probe bounds has only Kubernetes' 600 s floor beside it.
  const floor = bound ? PROGRESS_DEADLINE_FLOOR_SECONDS : ctx.plan.progressDeadlineSeconds;
  return { load, bound, target: Math.max(floor, ctx.targets.graceTarget + load), refit };
}

/**
 * How long a rollout step takes: grace + model load, or the 600s floor. `said`: in a message about the manifest as
 * written, a grace period longer than its own says where it comes from.
 */
function stepOf(ctx: WorkloadContext, said = false): string {
  const { load, bound, target, refit } = deadlineOf(ctx);
  const { graceNow, graceTarget } = ctx.targets;
  const { state } = ctx.targets.grace;
  const step = graceTarget + load;
  const grace =
    !said || graceNow >= graceTarget
      ? `${s(graceTarget)} grace`
      : state === 'bad'
        ? `the ${s(graceTarget)} grace the drain needs`
        : `the grace fix\u2019s ${s(graceTarget)} grace`;
  return step >= target
    ? `${grace} + ${bound || refit ? `${refit && said ? 'the startup fix\u2019s' : 'the startup probe\u2019s'} ${s(load)} window for the model load` : `${s(load)} model load`}`
    : `${s(step)} step, raised to the 600s floor`;
}
