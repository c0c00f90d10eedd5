/** The preStop hook and grace period the plan wants, as fixes: shared by the preStop and grace rules. */
import { formatSeconds as s } from '../../../model/seconds.ts';
import type { Edit } from '../../fix/edit.ts';
import { formulaOf, setEdit, snippet, type WorkloadContext } from '../context.ts';
import type { Fix } from '../findings.ts';
import type { Segment } from '../../read/path.ts';

/**
 * The edits that write a preStop hook at `path` that sleeps `seconds` with the plan's action (exec: `/bin/sleep N`,
 * else the sleep action), `why` beside the seconds; with the hook and the path of its seconds inside it.
 */
export function sleepHook({ object, plan }: WorkloadContext, path: Segment[], seconds: number, why: string) {
  const [hook, leaf, value]: [unknown, Segment[], unknown] =
    plan.preStopAction === 'exec'
      ? [{ exec: { command: ['/bin/sleep', String(seconds)] } }, ['exec', 'command', 1], String(seconds)]
      : [{ sleep: { seconds } }, ['sleep', 'seconds'], seconds];
  return { hook, leaf, edits: [setEdit(object, path, hook), setEdit(object, [...path, ...leaf], value, ` ${why}`)] };
}

/** The preStop hook the plan wants, as edits under `lifecycle.preStop` and as a snippet. */
export function plannedHook(ctx: WorkloadContext, seconds: number): Fix {
  const why = seconds === ctx.plan.preStopSeconds ? formulaOf(ctx.plan, 'preStopSeconds') : 'kept from the manifest';
  const { hook, leaf, edits } = sleepHook(ctx, [...ctx.container.path, 'lifecycle', 'preStop'], seconds, why);
  return { edits, text: snippet('lifecycle', { preStop: hook }, [[['preStop', ...leaf], why]]) };
}

/** The fix that raises terminationGracePeriodSeconds to its target. */
export function graceFix(ctx: WorkloadContext): { text: string; edits: Edit[] } {
  const { object, plan, targets: t } = ctx;
  const formula = `${s(t.preStopTarget)} preStop + ${s(plan.drainSeconds)} drain + ${s(plan.teardownSeconds)} teardown`;
  const comment =
    t.graceTarget === t.preStopTarget + plan.drainSeconds + plan.teardownSeconds ? ` ${formula}` : undefined;
  return {
    text: `terminationGracePeriodSeconds: ${t.graceTarget}${comment ? ` #${comment}` : ''}`,
    edits: [
      setEdit(object, [...ctx.workload.serving.specPath, 'terminationGracePeriodSeconds'], t.graceTarget, comment),
    ],
  };
}

/**
 * The preStop sleep the rules on its length judge: its seconds, unless the hook is missing, not a sleep, or a sleep
 * action the cluster does not enable (prestop-missing, prestop-unreadable and prestop-sleep-unsupported say so).
 */
export function judgedSleepSeconds(ctx: WorkloadContext): number | undefined {
  const { preStop } = ctx.targets;
  if (preStop.kind === 'none' || preStop.kind === 'other') return undefined;
  if (preStop.kind === 'sleep' && ctx.plan.preStopAction === 'exec') return undefined;
  return ctx.targets.preStopNow;
}
