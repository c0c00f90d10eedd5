import { ENGINE_TYPE_LABEL } from '../../../emit/bundle.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'model-server-unknown',
  order: 280,
  scope: 'workload',
  severity: 'info',
  summary: 'A workload with GPUs or a pool whose model server the checker cannot tell.',
  remediation:
    'Give the model server (--model-server, or the page\u2019s setting) so that its drain flag and probes are checked.',
  remedy: 'manual',
  appliesTo: (ctx) => !ctx.serverKnown,
  check: ({ container, server }) => [
    {
      severity: 'info',
      path: [...container.path, 'image'],
      message:
        `The checker cannot tell which model server the ${container.name} container runs (no server image or server command of its own; a ${ENGINE_TYPE_LABEL} label alone does not say), `
        + `so it used the ${server.name} profile\u2019s probes and skipped the drain-flag checks; give the model server to check them.`,
    },
  ],
});
