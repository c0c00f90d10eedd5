/**
 * The ports requests reach a workload's pods on: an InferencePool's target ports, and the target ports of the
 * Services in the input whose selector picks the pods. A container that listens on one serves requests, whatever it
 * runs (the HTTP front of a two-container server, a router beside the engine).
 */
import type { ManifestObject } from '../read/read-manifest.ts';
import { isRecord, valueAt } from '../read/path.ts';
import { poolSelects, sameNamespace, selects, type Located, type Workload } from './locate.ts';
import type { Container } from './pod.ts';

/** A port requests arrive on: its number or its name (a Service may name the container's port), and who sends them. */
export interface ServingPort {
  port: number | string;
  from: string;
}

function servicePorts(service: ManifestObject): ServingPort[] {
  const ports = valueAt(service.value, ['spec', 'ports']);
  if (!Array.isArray(ports)) return [];
  return ports.flatMap((p) => {
    if (!isRecord(p)) return [];
    // A Service port without targetPort sends to the same number.
    const target = p.targetPort ?? p.port;
    return typeof target === 'number' || typeof target === 'string'
      ? [{ port: target, from: `Service/${service.name}` }]
      : [];
  });
}

/** The ports the pool and the Services of the input send a workload's pods requests on. */
export function servingPorts(located: Located, workload: Workload): ServingPort[] {
  const out: ServingPort[] = [];
  for (const pool of located.pools)
    if (poolSelects(pool, workload))
      out.push(...pool.targetPorts.map((t) => ({ port: t.number, from: `${pool.object.kind}/${pool.object.name}` })));
  for (const service of servicesOf(located, workload)) out.push(...servicePorts(service));
  return out;
}

/** The Services of the input whose selector picks a workload's pods (read for their ports, not ignored). */
export function servicesOf(located: Located, workload: Workload): ManifestObject[] {
  return located.ignored.filter((object) => {
    if (object.kind !== 'Service' || object.apiVersion !== 'v1' || !sameNamespace(object, workload.object))
      return false;
    // An ExternalName Service is a DNS name elsewhere: its selector sends nothing to these pods.
    if (valueAt(object.value, ['spec', 'type']) === 'ExternalName') return false;
    const selector = valueAt(object.value, ['spec', 'selector']);
    if (!isRecord(selector)) return false;
    const labels = Object.fromEntries(Object.entries(selector).map(([k, v]) => [k, String(v)]));
    return selects(labels, workload.serving.labels);
  });
}

/** The serving port a container listens on, by number or by name; undefined when it listens on none. */
export function servedPort(container: Container, ports: readonly ServingPort[]): ServingPort | undefined {
  return ports.find((p) =>
    container.ports.some((c) => (typeof p.port === 'number' ? c.containerPort === p.port : c.name === p.port)),
  );
}
