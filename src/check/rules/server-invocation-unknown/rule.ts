/** server-invocation-unknown: The command that starts the model server cannot be found with certainty, so its drain flag is a manual fix. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'server-invocation-unknown',
  severity: 'warning when the server aborts without its drain flag; info otherwise',
  summary:
    'The command that starts the model server cannot be found with certainty, so its drain flag is a manual fix.',
  remediation: 'Add the drain flag by hand to the command that starts the server, where the finding says.',
  fix: 'manual',
  checkedIn: ['rules/areas/drain-flag.ts'],
});
