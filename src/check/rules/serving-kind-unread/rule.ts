/** serving-kind-unread: A model-serving kind the checker cannot read (production-stack VLLMRuntime, KServe InferenceService, KubeRay RayService), named so that the run does not read as a pass. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'serving-kind-unread',
  severity: 'warning',
  summary:
    'A model-serving kind the checker cannot read (production-stack VLLMRuntime, KServe InferenceService, KubeRay RayService), named so that the run does not read as a pass.',
  remediation: 'Check the Deployment or pod template its controller renders (kubectl get deploy -o yaml).',
  fix: 'manual',
  checkedIn: ['rules/areas/notes.ts'],
});
