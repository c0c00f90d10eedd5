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
  check: ({ container, server, workload, otherServer }) => {
    if (otherServer)
      return [
        {
          severity: 'info',
          path: [...container.path, 'image'],
          message:
            `The ${container.name} container runs ${otherServer.name} (by its image; content/other-servers/${otherServer.id}.yaml), which Hitless has no drain profile for. ${otherServer.summary} `
            + `The checker checked what holds for any server (the preStop hook, the grace period, the probes and the rollout), with the ${server.name} profile\u2019s probe paths and timing standing in`
            + (otherServer.drain
              ? `, and with no drain budget: the grace period needs to cover only the preStop sleep and the teardown.`
              : '.'),
        },
      ];
    // The engine-type label is named only where the pod carries it: it is the one hint a reader may take for proof.
    const label =
      ENGINE_TYPE_LABEL in workload.serving.labels ? `; its ${ENGINE_TYPE_LABEL} label alone does not say` : '';
    return [
      {
        severity: 'info',
        path: [...container.path, 'image'],
        message:
          `The checker cannot tell which model server the ${container.name} container runs (neither its image nor its command names one it knows${label}), `
          + `so it checked what holds for any server (the preStop hook, the grace period, the probes and the rollout), with the ${server.name} profile\u2019s probe paths and timing standing in, `
          + 'and skipped the drain-flag checks; give the model server (--model-server) to check them.',
      },
    ];
  },
});
