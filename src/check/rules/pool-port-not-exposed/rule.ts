import { objectName, setEdit } from '../context.ts';
import { readProbe, runningContainersOf, servingPort, type Container } from '../../workload/pod.ts';
import { isRecord } from '../../read/path.ts';
import { poolTargets } from '../shared/pool-targets.ts';
import { listenPort } from '../shared/probes.ts';
import { defineRule, type PlannedVerdict } from '../rule.ts';
import { manualFix } from '../findings.ts';

export const rule = defineRule({
  code: 'pool-port-not-exposed',
  order: 230,
  scope: 'manifest',
  severity: { error: 'when the container lists other ports', warning: 'when it lists none' },
  summary: 'An InferencePool targetPort the model-server container does not expose.',
  remediation:
    'Point the pool\u2019s targetPort at the port the server listens on, or declare that port on the container.',
  remedy: 'applied',
  check: (ctx) => {
    const verdicts: PlannedVerdict[] = [];
    for (const pool of ctx.located.pools) {
      const found = poolTargets(ctx, pool);
      if (!found) continue;
      const targets = 'intended' in found ? [found.intended] : found.matched;
      for (const port of pool.targetPorts) {
        // A port is exposed when a container declares it, or, declaring none, probes it: a probe that passes on
        // that number shows the server listens there (ports are informational to Kubernetes).
        const exposing = targets.filter((t) =>
          runningContainersOf(t.workload.serving).some(
            (c) =>
              c.ports.some((p) => p.containerPort === port.number)
              || (c.ports.length === 0 && probedPorts(c).includes(port.number)),
          ),
        );
        if (exposing.length === targets.length) continue;
        const target = targets.find((t) => !exposing.includes(t))!;
        const declared = runningContainersOf(target.workload.serving).flatMap((c) =>
          c.ports.map((p) => p.containerPort),
        );
        const listen = listenPort(target);
        const serving = servingPort(target.container)?.containerPort ?? listen;
        const who = `${objectName(target.object)}\u2019s pods`;
        if (declared.length === 0 && (listen === undefined || listen === port.number)) {
          const value = { name: 'http', containerPort: port.number };
          verdicts.push({
            severity: 'warning',
            object: pool.object,
            path: port.path,
            message: `The InferencePool sends requests to port ${port.number}, and the ${target.container.name} container of ${who} declares no ports, so the checker cannot tell that the server listens there; declare it.`,
            planned: {
              text: `ports: [{ name: http, containerPort: ${port.number} }] on the ${target.container.name} container`,
              edits: [setEdit(target.object, [...target.container.path, 'ports'], [value])],
            },
          });
        } else if (serving !== undefined) {
          verdicts.push({
            severity: 'error',
            object: pool.object,
            path: port.path,
            message: `The InferencePool sends requests to port ${port.number}, which ${who} do not expose (${declared.length ? `they expose ${declared.join(', ')}` : `the server listens on ${serving}`}): every request the pool routes fails to connect.`,
            planned:
              exposing.length > 0
                ? // Other workloads of the pool serve this port: changing the pool's port would break them.
                  manualFix(
                    `make ${who} serve port ${port.number} like the pool\u2019s other pods, or give them a pool of their own; the pool\u2019s port is left as it is because ${exposing.map((t) => objectName(t.object)).join(', ')} serve${exposing.length === 1 ? 's' : ''} it.`,
                  )
                : { text: `number: ${serving}`, edits: [setEdit(pool.object, port.path, serving)] },
          });
        }
      }
    }
    return verdicts;
  },
  fix: (_ctx, verdict) => verdict.planned,
});

/** The numeric ports a container's probes reach it on (httpGet, tcpSocket, grpc). */
function probedPorts(container: Container): number[] {
  return (['readinessProbe', 'livenessProbe', 'startupProbe'] as const).flatMap((key) => {
    const probe = readProbe(container, key)?.value;
    const handler = probe && [probe.httpGet, probe.tcpSocket, probe.grpc].find(isRecord);
    return handler && typeof handler.port === 'number' ? [handler.port] : [];
  });
}
