/** readiness-path-differs: A readiness path other than the model-server profile’s, with the profile’s reasons. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'readiness-path-differs',
  severity: 'info',
  summary: 'A readiness path other than the model-server profile\u2019s, with the profile\u2019s reasons.',
  remediation: 'Weigh the profile\u2019s reasons and change the path by hand if they apply.',
  fix: 'manual',
  checkedIn: ['rules/areas/probes.ts'],
});
