/** model-server-unknown: A workload with GPUs or a pool whose model server the checker cannot tell. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'model-server-unknown',
  severity: 'info',
  summary: 'A workload with GPUs or a pool whose model server the checker cannot tell.',
  remediation:
    'Give the model server (--model-server, or the page\u2019s setting) so that its drain flag and probes are checked.',
  fix: 'manual',
  checkedIn: ['check.ts'],
});
