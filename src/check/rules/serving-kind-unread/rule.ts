import { CHECK_RENDERED_POD, unreadServing } from '../../workload/locate.ts';
import { ignoredByKind, namesOf, unknownPodSpec } from '../shared/ignored.ts';
import { formatPath } from '../../read/path.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'serving-kind-unread',
  order: 360,
  scope: 'manifest',
  severity: 'warning',
  summary:
    'A model-serving kind whose pods its controller builds from its own defaults or other objects (production-stack VLLMRuntime, KServe InferenceService, KubeRay RayService, OME runtimes, NVIDIA Dynamo DynamoGraphDeployment, KAITO Workspace, …; content/controllers/), or a custom resource of an unknown kind that holds containers, named so that the run does not read as a pass.',
  remediation: `Check a pod its controller renders (${CHECK_RENDERED_POD}).`,
  remedy: 'manual',
  check: (ctx) =>
    ignoredByKind(ctx).flatMap((objects) => {
      const first = objects[0];
      const servedBy = unreadServing(first, ctx.profiles);
      if (!servedBy) {
        // A kind no data file names that holds containers: some controller makes pods of it, with what it adds unknown.
        const at = unknownPodSpec(first, ctx.profiles);
        if (!at) return [];
        const what = at.at(-1) === 'containers' ? 'containers' : 'an image and accelerators for it';
        return [
          {
            severity: 'warning' as const,
            object: first,
            path: ['kind'],
            message:
              `${namesOf(objects)} ${objects.length === 1 ? 'holds' : 'hold'} ${what} (at ${formatPath(at)}) in a kind the checker does not know: `
              + `a controller turns ${objects.length === 1 ? 'it' : 'them'} into pods with settings of its own, so nothing here was checked. `
              + `Check a pod it renders instead: ${CHECK_RENDERED_POD}.`,
          },
        ];
      }
      return [
        {
          severity: 'warning' as const,
          object: first,
          path: ['kind'],
          message:
            `${namesOf(objects)} ${objects.length === 1 ? 'is' : 'are'} ${servedBy} ${first.kind}${objects.length === 1 ? '' : 's'}, which the checker cannot read: its controller builds the pods from its own defaults, `
            + `so nothing here was checked. Check a pod it renders instead: ${CHECK_RENDERED_POD}.`,
        },
      ];
    }),
});
