/** sidecar-serves-pool: a native sidecar (a proxy) serves the pool's port; it stops after the model server, within the same grace period. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'sidecar-serves-pool',
  severity: 'error below Kubernetes 1.29 (native sidecars off by default); info otherwise',
  summary:
    'A native sidecar (an initContainer with restartPolicy: Always) serves the pool\u2019s port: the kubelet stops it only after the model server has exited, with what is left of the same grace period, so the proxy accepts throughout the server\u2019s drain.',
  remediation:
    'Keep the preStop sleep on the model-server container (a hook on the sidecar does not delay the server); below 1.29, upgrade or enable SidecarContainers.',
  fix: 'manual',
  checkedIn: ['rules/areas/sidecar.ts'],
});
