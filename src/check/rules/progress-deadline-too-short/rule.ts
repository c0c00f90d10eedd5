import { formatSeconds as s } from '../../../model/seconds.ts';
import { knows, setFix, type WorkloadContext } from '../context.ts';
import { intField, intOr } from '../../workload/pod.ts';
import { defineRule } from '../rule.ts';
import { valueAt } from '../../read/path.ts';

export const rule = defineRule({
  code: 'progress-deadline-too-short',
  order: 160,
  scope: 'workload',
  severity: {
    warning: 'below the grace period as written + model load',
    info: 'only below the grace period the grace fix writes + model load (a note on applying that fix), or on an assumed model load',
  },
  summary: 'progressDeadlineSeconds is below grace + model load (and the 600 s floor).',
  remediation: 'Raise progressDeadlineSeconds to grace + model load (at least 600).',
  remedy: 'applied',
  appliesTo: ({ workload }) => workload.kind === 'Deployment',
  check: (ctx) => {
    const { object, targets: t } = ctx;
    const field = intField(object.value.spec, 'progressDeadlineSeconds', 'int32');
    const now = intOr(field, 600);
    if (now >= t.progressDeadlineTarget) return [];
    // The manifest as written is within its deadline; only the grace the grace fix writes would pass it.
    const onlyAfterFix = t.graceNow < t.graceTarget && now >= Math.max(600, t.graceNow + ctx.inputs.startupSeconds);
    // The model load time is a default unless given, read, or bounded by the server's startup probe: else a note.
    const loadKnown = knows(ctx, 'startup-seconds') || valueAt(ctx.container.value, ['startupProbe']) !== undefined;
    return [
      {
        severity: onlyAfterFix || !loadKnown ? 'info' : 'warning',
        path: ['spec', 'progressDeadlineSeconds'],
        message:
          (onlyAfterFix
            ? `If you raise terminationGracePeriodSeconds to ${s(t.graceTarget)} as the grace fix does, raise progressDeadlineSeconds with it: `
            : '')
          + `A rollout step can take ${s(t.progressDeadlineTarget)} (${stepOf(ctx)}), longer than progressDeadlineSeconds (${s(now)}${field.state === 'set' ? '' : ', the default'}): `
          + 'the Deployment reports ProgressDeadlineExceeded and kubectl rollout status fails while the rollout is still going fine.'
          + (loadKnown
            ? ''
            : ` This rests on an assumed ${s(ctx.inputs.startupSeconds)} model load (a default the manifest does not state): give --startup-seconds (your real value).`),
      },
    ];
  },
  fix: (ctx) =>
    setFix(ctx.object, ['spec', 'progressDeadlineSeconds'], ctx.targets.progressDeadlineTarget, stepOf(ctx)),
});

/** How long a rollout step takes: grace + model load, or the 600s floor. */
function stepOf({ targets: t, inputs }: WorkloadContext): string {
  const step = t.graceTarget + inputs.startupSeconds;
  return step >= t.progressDeadlineTarget
    ? `${s(t.graceTarget)} grace + ${s(inputs.startupSeconds)} model load`
    : `${s(step)} step, raised to the 600s floor`;
}
