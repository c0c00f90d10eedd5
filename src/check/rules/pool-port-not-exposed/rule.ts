/** pool-port-not-exposed: An InferencePool targetPort the model-server container does not expose. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'pool-port-not-exposed',
  severity: 'error when the container lists other ports; warning when it lists none',
  summary: 'An InferencePool targetPort the model-server container does not expose.',
  remediation:
    'Point the pool\u2019s targetPort at the port the server listens on, or declare that port on the container.',
  fix: 'applied',
  checkedIn: ['rules/areas/pool.ts'],
});
