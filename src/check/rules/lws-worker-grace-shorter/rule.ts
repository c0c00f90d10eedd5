/** lws-worker-grace-shorter: A LeaderWorkerSet’s workers get SIGKILL before the leader’s drain ends. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'lws-worker-grace-shorter',
  severity: 'warning',
  summary: 'A LeaderWorkerSet\u2019s workers get SIGKILL before the leader\u2019s drain ends.',
  remediation: 'Give the worker template the leader\u2019s terminationGracePeriodSeconds.',
  fix: 'applied',
  checkedIn: ['rules/areas/rollout.ts'],
});
