/**
 * A probe of the server's own health path on a port the server does not listen on: its command sets the port
 * (`--port 30000`), the probe asks another (`port: 8000`), so the probe never passes. A readiness probe keeps the pod
 * out of every endpoint list and stalls the rollout; a startup or liveness probe restarts the container in a loop.
 */
import { setEdit, type WorkloadContext } from '../context.ts';
import { manualFix } from '../findings.ts';
import { listenPort } from '../shared/probes.ts';
import { flagFor } from '../../workload/identify-server.ts';
import { readProbe, runningContainersOf, type Container } from '../../workload/pod.ts';
import { servingPorts } from '../../workload/serving-ports.ts';
import { isRecord } from '../../read/path.ts';
import { defineRule, type Verdict } from '../rule.ts';

const PROBES = ['readinessProbe', 'startupProbe', 'livenessProbe'] as const;

export const rule = defineRule({
  code: 'probe-port-not-served',
  order: 115,
  scope: 'workload',
  severity: {
    error: 'the server is the only container of the pod',
    warning: 'another container runs beside it, which may listen on that port undeclared',
  },
  summary: 'A probe of the server’s health path asks a port other than the one its command makes it listen on.',
  remediation:
    'Point the probe at the port the server listens on (its --port), or make the server listen on the probe’s.',
  remedy: 'applied',
  appliesTo: (ctx) => ctx.serverKnown && listenPort(ctx) !== undefined,
  check: (ctx) => {
    const listen = listenPort(ctx)!;
    const others = runningContainersOf(ctx.workload.serving).filter(
      (c) => c.path.join('.') !== ctx.container.path.join('.'),
    );
    const verdicts: Verdict[] = [];
    for (const key of PROBES) {
      const probe = askedPort(ctx, key);
      if (!probe || probe.port === listen) continue;
      // Another container that declares the port answers it (a proxy in front of the server): nothing to say.
      if (others.some((c) => c.ports.some((p) => p.containerPort === probe.port))) continue;
      const alone = others.length === 0;
      verdicts.push({
        severity: alone ? 'error' : 'warning',
        path: probe.path,
        message:
          `The ${key} asks ${probe.what} on port ${probe.port}, but the ${ctx.container.name} container's command makes ${ctx.server.name} listen on ${listen} (${flagOf(ctx)} ${listen})`
          + (alone ? '' : `, and no other container of the pod declares port ${probe.port}`)
          + `: ${consequence(key)}`
          + (alone ? '.' : `, unless another container listens on ${probe.port} without declaring it.`),
      });
    }
    return verdicts;
  },
  fix: (ctx, verdict) => {
    const listen = listenPort(ctx)!;
    const key = PROBES.find((k) => verdict.path.includes(k))!;
    const probe = askedPort(ctx, key)!;
    // What a Service or the pool sends to the probe's port: the server's port may be what is wrong.
    const sent = servingPorts(ctx.check.located, ctx.workload).find(
      (p) => p.port === probe.port || (typeof p.port === 'string' && portNumber(ctx.container, p.port) === probe.port),
    );
    if (sent)
      return manualFix(
        `${sent.from} also sends to port ${probe.port}: make the server, the probe and ${sent.from} agree. Either set ${flagOf(ctx)} ${probe.port} in the server's command, or point the ${key} and ${sent.from} at ${listen}.`,
      );
    const named = ctx.container.ports.find((p) => p.containerPort === listen)?.name;
    const value = named ?? listen;
    return {
      text: `${key}: port: ${value} (the port ${flagOf(ctx)} ${listen} makes the server listen on)`,
      edits: [setEdit(ctx.object, probe.path, value)],
    };
  },
});

/** The server's port flag as its profile writes it (`--port`, Triton's `--http-port`). */
function flagOf(ctx: WorkloadContext): string {
  return flagFor(ctx.server, '{port}') ?? '--port';
}

/** A port name's number among the container's own ports. */
function portNumber(container: Container, name: string): number | undefined {
  return container.ports.find((p) => p.name === name)?.containerPort;
}

/**
 * The port a probe of the server's health path asks (httpGet on a path its profile probes), resolved through the
 * container's named ports; undefined for other handlers or paths, and for a name the container does not declare.
 */
function askedPort(ctx: WorkloadContext, key: (typeof PROBES)[number]) {
  const probe = readProbe(ctx.container, key);
  const httpGet = probe?.value.httpGet;
  if (!probe || !isRecord(httpGet) || typeof httpGet.path !== 'string') return undefined;
  const { startup, readiness, liveness } = ctx.server.probes;
  const paths = [startup?.path, readiness?.path, liveness?.path].filter((p) => p !== undefined);
  if (!paths.includes(httpGet.path.split('?')[0])) return undefined;
  const raw = httpGet.port;
  const port =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && /^\d+$/.test(raw)
        ? Number(raw)
        : typeof raw === 'string'
          ? portNumber(ctx.container, raw)
          : undefined;
  if (port === undefined) return undefined;
  return { port, path: [...probe.path, 'httpGet', 'port'], what: httpGet.path };
}

function consequence(key: (typeof PROBES)[number]): string {
  return key === 'readinessProbe'
    ? 'the probe never passes, so the pod never becomes ready: no endpoint lists it and a rollout stalls on it'
    : key === 'startupProbe'
      ? 'the probe never passes, so the kubelet restarts the container when its window ends, again and again'
      : 'the probe never passes, so the kubelet restarts the server every few periods';
}
