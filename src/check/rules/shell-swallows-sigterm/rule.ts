/** shell-swallows-sigterm: A shell is PID 1 and starts the model server without exec, so SIGTERM never reaches the server. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'shell-swallows-sigterm',
  severity: 'error',
  summary: 'A shell is PID 1 and starts the model server without exec, so SIGTERM never reaches the server.',
  remediation: 'Start the server with exec as the script\u2019s last command, or forward SIGTERM with a trap.',
  fix: 'applied',
  checkedIn: ['rules/areas/shell-pid1.ts'],
});
