import { formatSeconds as s } from '../../../model/seconds.ts';
import { setEdit } from '../context.ts';
import { DEFAULT_GRACE_SECONDS, intField, intOr } from '../../workload/pod.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'lws-worker-grace-shorter',
  order: 180,
  scope: 'workload',
  severity: {
    warning: 'below the leader\u2019s grace period as written',
    info: 'only below the grace period the leader\u2019s grace fix writes (a note on applying that fix)',
  },
  summary: 'A LeaderWorkerSet\u2019s workers get SIGKILL before the leader\u2019s drain ends.',
  remediation: 'Give the worker template the leader\u2019s terminationGracePeriodSeconds.',
  remedy: 'applied',
  check: ({ workload, targets: t }) => {
    if (!workload.workers) return [];
    const field = intField(workload.workers.spec, 'terminationGracePeriodSeconds');
    const grace = intOr(field, DEFAULT_GRACE_SECONDS);
    if (grace >= t.graceTarget) return [];
    // The workers outlast the leader's grace period as written; only the grace the leader's fix writes is longer.
    const onlyAfterFix = grace >= t.graceNow;
    return [
      {
        severity: onlyAfterFix ? 'info' : 'warning',
        path: [...workload.workers.specPath, 'terminationGracePeriodSeconds'],
        message:
          (onlyAfterFix
            ? `If you raise the leader\u2019s terminationGracePeriodSeconds to ${s(t.graceTarget)} as the grace fix does, give the workers the same: `
            : '')
          + `The worker pods get SIGKILL ${s(grace)} after deletion${field.state === 'set' ? '' : ' (the default)'}, before the leader\u2019s grace period ends at ${s(t.graceTarget)}: `
          + 'the leader loses its workers and the requests it is still serving fail.',
      },
    ];
  },
  fix: ({ object, targets: t }, verdict) => ({
    text: `terminationGracePeriodSeconds: ${t.graceTarget} # the leader's grace period`,
    edits: [setEdit(object, verdict.path, t.graceTarget, ' the leader\u2019s grace period')],
  }),
});
