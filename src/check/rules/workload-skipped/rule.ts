import { ENGINE_TYPE_LABEL } from '../../../emit/bundle.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'workload-skipped',
  order: 290,
  scope: 'manifest',
  severity: 'info',
  summary: 'A workload that runs no model server the checker knows.',
  remediation: 'Nothing, if it runs no model server; otherwise give the model server.',
  remedy: 'manual',
  check: ({ skipped, located }) => [
    ...skipped.map(({ object, serving, why }) => ({
      severity: 'info' as const,
      object,
      path: [...serving.specPath, 'containers'],
      message:
        why
        ?? `${object.kind}/${object.name} runs no model server the checker knows (no server image or server command of its own, no GPUs, no pool selecting it${
          ENGINE_TYPE_LABEL in serving.labels
            ? `; its ${ENGINE_TYPE_LABEL} label alone does not say, since simulators carry it too`
            : ''
        }), so it was not checked. If it serves a model, give the model server (--model-server) or add the InferencePool that selects it.`,
    })),
    ...(located.workloads.length === 0
    && located.pools.length === 0
    && located.policies.length === 0
    && located.routes.length === 0
      ? [
          {
            severity: 'info' as const,
            object: null,
            path: [],
            message:
              'The input has no Deployment, StatefulSet, LeaderWorkerSet or InferencePool, so there was nothing to check.',
          },
        ]
      : []),
  ],
});
