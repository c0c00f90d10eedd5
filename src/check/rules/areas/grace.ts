/** Rules on terminationGracePeriodSeconds: it must cover the preStop sleep, the drain and the teardown. */
import { formatSeconds as s } from '../../../model/seconds.ts';
import { report, type WorkloadContext } from '../context.ts';
import { graceFix } from './prestop.ts';

/** Check the grace period against the preStop sleep (as fixed) and the plan's drain and teardown. */
export function checkGrace(ctx: WorkloadContext): void {
  const { check, object, plan, targets: t } = ctx;
  const path = [...ctx.workload.serving.specPath, 'terminationGracePeriodSeconds'];
  // A value the API server refuses is value-rejected's; the rest is checked as if it were the default.
  if (t.grace.state === 'bad') return;
  // prestop-exceeds-grace already reports (and fixes) a grace period shorter than the sleep itself.
  if (t.preStopNow !== undefined && t.preStopNow > t.graceNow) return;
  const source = t.grace.state === 'set' ? '' : ' (unset: the 30s default)';
  const left = t.graceNow - t.preStopTarget;
  const sleep =
    t.preStopNow === t.preStopTarget
      ? `the ${s(t.preStopTarget)} preStop sleep`
      : `a ${s(t.preStopTarget)} preStop sleep`;
  if (left < plan.maxRequestSeconds) {
    report(
      check,
      object,
      'grace-too-short',
      'error',
      path,
      `SIGKILL comes ${s(t.graceNow)} after deletion${source}: after ${sleep} that leaves ${left > 0 ? s(left) : 'no time'} to drain, `
        + `less than the ${s(plan.maxRequestSeconds)} longest request, so long requests are cut mid-stream.`,
      graceFix(ctx),
    );
  } else if (t.graceNow < t.preStopTarget + plan.drainSeconds + plan.teardownSeconds) {
    report(
      check,
      object,
      'grace-too-short',
      'warning',
      path,
      `SIGKILL comes ${s(t.graceNow)} after deletion${source}, but ${sleep}, the ${s(plan.drainSeconds)} drain budget and `
        + `${s(plan.teardownSeconds)} teardown need ${s(t.preStopTarget + plan.drainSeconds + plan.teardownSeconds)}: the drain\u2019s headroom or the teardown is cut short.`,
      graceFix(ctx),
    );
  }
}
