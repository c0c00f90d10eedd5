/** prestop-too-short: The preStop sleep ends before every gateway has stopped routing to the pod. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'prestop-too-short',
  severity: 'error below the removal p99; warning below removal + margin',
  summary: 'The preStop sleep ends before every gateway has stopped routing to the pod.',
  remediation: 'Raise the preStop sleep to the removal p99 + margin.',
  fix: 'applied',
  checkedIn: ['rules/areas/prestop.ts'],
});
