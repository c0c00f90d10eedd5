/**
 * sidecar-serves-pool: a native sidecar (an init container with `restartPolicy: Always`) serves a port the pool
 * routes to, so it is a proxy in front of the model server. How the kubelet stops such a pod (Kubernetes 1.29+,
 * pkg/kubelet/kuberuntime: killContainer in kuberuntime_container.go, terminationOrdering in
 * kuberuntime_termination_order.go): every container is stopped in parallel and first runs its own preStop hook,
 * from deletion on; a sidecar then waits until every regular container has exited (and the sidecars listed after
 * it), and only then gets SIGTERM, with what is left of the pod's one grace period (never less than 2 s). Below 1.29
 * the SidecarContainers feature is off by default and the API server drops `restartPolicy` from init containers
 * (pkg/api/pod/util.go, dropDisabledFields), so the proxy would run as an ordinary init container that never ends.
 * Sources (read in the index's snapshot of kubernetes/kubernetes, commit 5c68f560a198; the order is KEP-753's):
 * https://github.com/kubernetes/kubernetes/blob/v1.33.0/pkg/kubelet/kuberuntime/kuberuntime_termination_order.go and
 * https://github.com/kubernetes/kubernetes/blob/v1.33.0/pkg/kubelet/kuberuntime/kuberuntime_container.go (killContainer).
 */
import { formatSeconds as s } from '../../../model/seconds.ts';
import { objectName } from '../context.ts';
import { readPreStop, sidecarsOf } from '../../workload/pod.ts';
import { poolTargets } from '../shared/pool-targets.ts';
import { defineRule, type PlannedVerdict } from '../rule.ts';
import { manualFix } from '../findings.ts';

/** The first Kubernetes minor release that enables native sidecars by default (SidecarContainers beta). */
const SIDECARS_FROM_MINOR = 29;

export const rule = defineRule({
  code: 'sidecar-serves-pool',
  order: 390,
  scope: 'manifest',
  severity: { error: 'below Kubernetes 1.29 (native sidecars off by default)', info: 'otherwise' },
  restsOn: ['Kubernetes version'],
  summary:
    'A native sidecar (an initContainer with restartPolicy: Always) serves the pool\u2019s port: the kubelet stops it only after the model server has exited, with what is left of the same grace period, so the proxy accepts throughout the server\u2019s drain.',
  remediation:
    'Keep the preStop sleep on the model-server container (a hook on the sidecar does not delay the server); below 1.29, upgrade or enable SidecarContainers.',
  remedy: 'manual',
  check: (ctx) => {
    const verdicts: PlannedVerdict[] = [];
    for (const pool of ctx.located.pools) {
      const found = poolTargets(ctx, pool);
      if (!found || !('matched' in found)) continue;
      for (const target of found.matched) {
        for (const sidecar of sidecarsOf(target.workload.serving)) {
          const port = pool.targetPorts.find((p) => sidecar.ports.some((q) => q.containerPort === p.number));
          if (!port) continue;
          const { plan, targets: t, container: server, inputs } = target;
          const below = Number(inputs.kubernetesVersion.split('.')[1]) < SIDECARS_FROM_MINOR;
          const name = `The ${sidecar.name} sidecar of ${objectName(target.object)}`;
          const hook =
            readPreStop(sidecar).kind === 'none'
              ? ''
              : ` Its own preStop hook runs from deletion, beside ${server.name}\u2019s: it does not delay ${server.name}\u2019s SIGTERM, and only pushes the proxy\u2019s own SIGTERM later.`;
          verdicts.push({
            severity: below ? 'error' : 'info',
            object: target.object,
            path: [...sidecar.path, 'restartPolicy'],
            message: below
              ? `${name} serves port ${port.number} of InferencePool/${pool.object.name} as a native sidecar, which Kubernetes ${inputs.kubernetesVersion} does not enable by default `
                + '(SidecarContainers is beta and on from 1.29): without the feature the API server drops restartPolicy from init containers, so the proxy runs as an ordinary '
                + 'init container that never exits and no pod of this template starts.'
              : `${name} serves port ${port.number} of InferencePool/${pool.object.name} in front of the ${server.name} container. The kubelet sends it SIGTERM only after ${server.name} has exited, `
                + `with what is left of the pod\u2019s ${s(t.graceTarget)}${t.graceNow === t.graceTarget ? '' : ' (as fixed)'} grace period (at least 2s): the proxy keeps accepting through ${server.name}\u2019s ${s(t.preStopTarget)}${t.preStopNow === t.preStopTarget ? '' : ' (as fixed)'} preStop sleep `
                + `and its drain of up to ${s(plan.drainSeconds)}, so a request that still arrives after ${server.name}\u2019s SIGTERM gets an error from the proxy instead of a refused connection. `
                + `${server.name}\u2019s own preStop sleep is what keeps such requests away; once ${server.name} has exited, a proxy that forwards only to it has nothing left in flight, `
                + `and its own stop comes out of the ${s(plan.teardownSeconds)} teardown.${hook}`,
            planned: manualFix(
              below
                ? `run Kubernetes 1.29 or later (or enable the SidecarContainers feature gate), or move ${sidecar.name} into containers and hold its SIGTERM back with a preStop hook of its own.`
                : `nothing to change when ${sidecar.name} forwards only to ${server.name}; a proxy that also holds requests to other pods needs its own drain within the teardown, or a longer grace period.`,
            ),
          });
        }
      }
    }
    return verdicts;
  },
  fix: (_ctx, verdict) => verdict.planned,
});
