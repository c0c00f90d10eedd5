/** Rules on the preStop hook: is there one, does it outlast the gateway's removal, does it fit the grace period. */
import { formatSeconds as s } from '../../../model/seconds.ts';
import { formulaOf, report, setEdit, snippet, type WorkloadContext } from '../context.ts';
import type { Edit } from '../../fix/edit.ts';
import { readPreStop, sidecarsOf } from '../../workload/pod.ts';

/** The preStop hook the plan wants, as edits under `lifecycle.preStop` and as a snippet. */
function plannedHook(ctx: WorkloadContext, seconds: number): { edits: Edit[]; text: string } {
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

/** Check the model-server container's preStop hook. */
export function checkPreStop(ctx: WorkloadContext): void {
  const { check, object, container, plan, targets: t, inputs } = ctx;
  const graceSource = t.grace.state === 'set' ? '' : ', the default';
  switch (t.preStop.kind) {
    case 'none':
      if (plan.preStopAction !== 'none') {
        const fix = plannedHook(ctx, t.preStopTarget);
        // A native sidecar's hook runs beside this container's, from deletion: it holds back only the sidecar's SIGTERM.
        const hooked = sidecarsOf(ctx.workload.serving).find((c) => readPreStop(c).kind !== 'none');
        report(
          check,
          object,
          'prestop-missing',
          'error',
          [...container.path, 'lifecycle'],
          `The ${container.name} container has no preStop hook, so it gets SIGTERM the moment the pod is deleted, while gateways can still `
            + `route new requests to it for up to ${s(plan.removalSeconds)} (the removal p99): those requests fail.`
            + (hooked
              ? ` The preStop hook of the ${hooked.name} sidecar does not help: the kubelet runs each container’s hook at deletion, side by side, and it holds back only ${hooked.name}’s own SIGTERM.`
              : ''),
          fix,
        );
      }
      return;
    case 'other':
      report(
        check,
        object,
        'prestop-unreadable',
        'info',
        t.preStop.path,
        `The preStop hook is ${t.preStop.how}, so the checker cannot tell how long it holds SIGTERM back; it must last at least `
          + `${s(plan.preStopSeconds)} (${formulaOf(plan, 'preStopSeconds')}) for gateways to stop routing to the pod first.`,
      );
      return;
    case 'sleep':
      if (t.preStop.seconds.state === 'unset') {
        report(
          check,
          object,
          'value-unreadable',
          'info',
          t.preStop.path,
          'The preStop sleep is missing its seconds; Kubernetes rejects it.',
          {
            text: `seconds: ${t.preStopTarget}`,
            edits: [setEdit(object, t.preStop.path, t.preStopTarget, ` ${formulaOf(plan, 'preStopSeconds')}`)],
          },
        );
      }
      if (plan.preStopAction === 'exec') {
        const fix = plannedHook(ctx, t.preStopTarget);
        report(
          check,
          object,
          'prestop-sleep-unsupported',
          'error',
          [...container.path, 'lifecycle', 'preStop', 'sleep'],
          `Kubernetes ${inputs.kubernetesVersion} does not enable the preStop sleep action (it is alpha and off in 1.29, beta and on from 1.30), `
            + 'so this hook does not delay SIGTERM and gateways still route to the pod when the server stops accepting; use an exec sleep.',
          fix,
        );
        return;
      }
      break;
    default:
      break;
  }
  const now = t.preStopNow;
  if (now === undefined) return;
  if (now < plan.preStopSeconds) {
    const below = now < plan.removalSeconds;
    const hook = t.preStop;
    if (hook.kind !== 'sleep' && hook.kind !== 'exec-sleep') return;
    const edit =
      hook.kind === 'exec-sleep'
        ? setEdit(object, hook.path, `${hook.item.slice(0, hook.start)}${t.preStopTarget}${hook.item.slice(hook.end)}`)
        : setEdit(object, hook.path, t.preStopTarget, ` ${formulaOf(plan, 'preStopSeconds')}`);
    report(
      check,
      object,
      'prestop-too-short',
      below ? 'error' : 'warning',
      hook.path,
      below
        ? `The preStop sleep ends ${s(now)} after deletion, but gateways can route new requests to the pod for up to ${s(plan.removalSeconds)} `
            + '(the removal p99): requests that arrive after SIGTERM fail.'
        : `The ${s(now)} preStop sleep covers the ${s(plan.removalSeconds)} removal p99 but not the ${s(inputs.removalMarginSeconds)} margin for `
            + 'requests already picked and still in transit, which can arrive after SIGTERM and fail.',
      { text: `${t.preStopTarget} (${formulaOf(plan, 'preStopSeconds')})`, edits: [edit] },
    );
  }
  if (now > t.graceNow && t.grace.state !== 'bad') {
    const podSpec = [...ctx.workload.serving.specPath];
    report(
      check,
      object,
      'prestop-exceeds-grace',
      'error',
      [...podSpec, 'terminationGracePeriodSeconds'],
      t.preStop.kind === 'sleep'
        ? `The ${s(now)} preStop sleep is longer than terminationGracePeriodSeconds (${s(t.graceNow)}${graceSource}), which Kubernetes rejects: no pod of this template starts.`
        : `The ${s(now)} preStop sleep outlasts terminationGracePeriodSeconds (${s(t.graceNow)}${graceSource}): the kubelet kills the container mid-sleep, so the server never drains.`,
      graceFix(ctx),
    );
  }
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
