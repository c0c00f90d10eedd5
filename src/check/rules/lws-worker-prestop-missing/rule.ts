/** lws-worker-prestop-missing: A LeaderWorkerSet worker with no preStop hook exits at SIGTERM while the leader drains, taking the group down. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'lws-worker-prestop-missing',
  severity: 'warning',
  summary:
    'A LeaderWorkerSet worker with no preStop hook exits at SIGTERM while the leader drains, taking the group down.',
  remediation: 'Add a preStop sleep of the leader\u2019s preStop + drain to the worker\u2019s container.',
  fix: 'applied',
  checkedIn: ['rules/areas/rollout.ts'],
});
