import { formatSeconds as s } from '../../../model/seconds.ts';
import { graceFix } from '../shared/prestop.ts';
import { defineRule, type Verdict } from '../rule.ts';
import type { Basis } from '../../workload/assumed.ts';

export const rule = defineRule({
  code: 'grace-too-short',
  order: 60,
  scope: 'workload',
  severity: {
    error: 'below preStop + longest request (a server that drains)',
    warning: 'below preStop + drain + teardown',
  },
  restsOn: ['longest request', 'removal p99'],
  summary: 'terminationGracePeriodSeconds leaves too little time after the preStop sleep.',
  remediation: 'Raise terminationGracePeriodSeconds to preStop + drain + teardown.',
  remedy: 'applied',
  // A value the API server refuses is value-rejected's; the rest is checked as if it were the default. A grace period
  // shorter than the sleep itself is prestop-exceeds-grace's.
  appliesTo: ({ targets: t }) => t.grace.state !== 'bad' && !(t.preStopNow !== undefined && t.preStopNow > t.graceNow),
  check: ({ workload, plan, server, targets: t }): Verdict[] => {
    const path = [...workload.serving.specPath, 'terminationGracePeriodSeconds'];
    const source = t.grace.state === 'set' ? '' : ' (unset: the 30s default)';
    const left = t.graceNow - t.preStopTarget;
    const noDrain = `${server.name} does not drain${plan.drainFlagStatus === 'too-old' ? ` at ${plan.modelServerRelease}` : ''}`;
    const sleep =
      t.preStopNow === t.preStopTarget
        ? `the ${s(t.preStopTarget)} preStop sleep`
        : `a ${s(t.preStopTarget)} preStop sleep`;
    // A server that does not drain (drain budget 0) cuts its requests at SIGTERM whatever the grace period: only the
    // preStop sleep and the teardown need the time, and a grace period shorter than the sleep kills the pod mid-sleep.
    // The sleep rests on the removal p99 only where the plan's replaces the manifest's; the drain on the longest request.
    const restsOn: Basis[] = [
      ...(plan.drainSeconds > 0 ? (['longest request'] as const) : []),
      ...(t.preStopNow === t.preStopTarget ? [] : (['removal p99'] as const)),
    ];
    const verdict = (severity: 'error' | 'warning', message: string): Verdict[] => [
      { severity, path, message, restsOn },
    ];
    if (plan.drainSeconds === 0 && left < 0)
      return verdict(
        'error',
        `SIGKILL comes ${s(t.graceNow)} after deletion${source}, before ${sleep} ends: the pod is killed while gateways may still route to it. `
          + `${noDrain}, so the grace period needs the sleep and ${s(plan.teardownSeconds)} teardown: ${s(t.preStopTarget + plan.teardownSeconds)}.`,
      );
    if (plan.drainSeconds > 0 && left < plan.maxRequestSeconds)
      return verdict(
        'error',
        `SIGKILL comes ${s(t.graceNow)} after deletion${source}: after ${sleep} that leaves ${left > 0 ? s(left) : 'no time'} to drain, `
          + `less than the ${s(plan.maxRequestSeconds)} longest request, so long requests are cut mid-stream.`,
      );
    if (t.graceNow >= t.preStopTarget + plan.drainSeconds + plan.teardownSeconds) return [];
    return verdict(
      'warning',
      plan.drainSeconds > 0
        ? `SIGKILL comes ${s(t.graceNow)} after deletion${source}, but ${sleep}, the ${s(plan.drainSeconds)} drain budget and `
            + `${s(plan.teardownSeconds)} teardown need ${s(t.preStopTarget + plan.drainSeconds + plan.teardownSeconds)}: the drain\u2019s headroom or the teardown is cut short.`
        : `SIGKILL comes ${s(t.graceNow)} after deletion${source}, but ${sleep} and ${s(plan.teardownSeconds)} teardown need `
            + `${s(t.preStopTarget + plan.teardownSeconds)} (${noDrain}): the teardown is cut short.`,
    );
  },
  fix: graceFix,
});
