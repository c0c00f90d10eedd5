/** drain-aborts-in-flight: A server whose drain flag defaults to aborting (vLLM --shutdown-timeout) runs without it, or with 0. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'drain-aborts-in-flight',
  severity: 'error',
  summary: 'A server whose drain flag defaults to aborting (vLLM --shutdown-timeout) runs without it, or with 0.',
  remediation:
    'Set the drain flag to the drain budget on the server\u2019s own command line; on a release without the flag, move the image first.',
  fix: 'applied',
  checkedIn: ['rules/areas/drain-flag.ts'],
});
