/** prestop-missing: The model-server container has no preStop hook, while the plan sleeps before SIGTERM. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'prestop-missing',
  severity: 'error',
  summary: 'The model-server container has no preStop hook, while the plan sleeps before SIGTERM.',
  remediation: 'Add a preStop sleep of the plan\u2019s length (removal p99 + margin) to the model-server container.',
  fix: 'applied',
  checkedIn: ['rules/areas/prestop.ts'],
});
