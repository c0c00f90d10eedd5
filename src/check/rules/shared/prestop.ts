/** The preStop hook and grace period the plan wants, as fixes: shared by the preStop and grace rules. */
import { formatSeconds as s } from '../../../model/seconds.ts';
import type { Edit } from '../../fix/edit.ts';
import { formulaOf, setEdit, snippet, type WorkloadContext } from '../context.ts';
import type { Fix } from '../findings.ts';

/** The preStop hook the plan wants, as edits under `lifecycle.preStop` and as a snippet. */
export function plannedHook(ctx: WorkloadContext, seconds: number): Fix {
  const { object, container, plan } = ctx;
  const hook = [...container.path, 'lifecycle', 'preStop'];
  const why = seconds === plan.preStopSeconds ? formulaOf(plan, 'preStopSeconds') : 'kept from the manifest';
  if (plan.preStopAction === 'exec') {
    return {
      edits: [
        setEdit(object, hook, { exec: { command: ['/bin/sleep', String(seconds)] } }),
        setEdit(object, [...hook, 'exec', 'command', 1], String(seconds), ` ${why}`),
      ],
      text: snippet('lifecycle', { preStop: { exec: { command: ['/bin/sleep', String(seconds)] } } }, [
        [['preStop', 'exec', 'command', 1], why],
      ]),
    };
  }
  return {
    edits: [
      setEdit(object, hook, { sleep: { seconds } }),
      setEdit(object, [...hook, 'sleep', 'seconds'], seconds, ` ${why}`),
    ],
    text: snippet('lifecycle', { preStop: { sleep: { seconds } } }, [[['preStop', 'sleep', 'seconds'], why]]),
  };
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
