import { formatSeconds as s } from '../../../model/seconds.ts';
import { isServerImage } from '../../../facts/releases.ts';
import { servedPort, servingPorts } from '../../workload/serving-ports.ts';
import { containersOf, holdsAccelerators, readPreStop, sidecarsOf, type Container } from '../../workload/pod.ts';
import { findInvocation } from '../../workload/server-invocation.ts';
import type { WorkloadContext } from '../context.ts';
import { plannedHook } from '../shared/prestop.ts';
import { defineRule, type Verdict } from '../rule.ts';

/** A container without a preStop hook, and why it serves. */
type Hookless = Verdict & { target: Container };

/**
 * Why another container of the pod serves requests too (so it must outlast the removal as the model server does):
 * it runs a model server the profiles know, holds accelerators, or listens on a port the InferencePool or a Service
 * of the input targets.
 * A mesh proxy (Istio's, linkerd's) does none of these: it has its own drain settings and gets no hook here.
 */
function servesToo(ctx: WorkloadContext, c: Container): { why: string; beside?: string } | undefined {
  const { profiles, located } = ctx.check;
  const server = profiles.modelServers.find((p) => {
    const invocation = findInvocation(c.line, p, isServerImage(p, c.image));
    return isServerImage(p, c.image) || (invocation.found && invocation.how !== 'entrypoint');
  });
  if (server) return { why: `it runs ${server.name}` };
  if (c.gpus > 0) return { why: `it holds ${c.gpus} ${c.accelerator}${c.gpus > 1 ? 's' : ''}` };
  if (holdsAccelerators(c)) return { why: `it holds ${c.accelerator}s` };
  const ports = servingPorts(located, ctx.workload);
  const port = servedPort(c, ports);
  if (!port) return undefined;
  // A Service that also sends to the model server's own port reaches the server directly: this port is beside it
  // (metrics, adapters, management), not necessarily in front of it. An InferencePool's port carries inference.
  const own = port.from.startsWith('Service/')
    ? servedPort(
        ctx.container,
        ports.filter((p) => p.from === port.from),
      )
    : undefined;
  return { why: `it listens on ${port.port}, a port ${port.from} targets`, ...(own ? { beside: `${own.port}` } : {}) };
}

export const rule = defineRule({
  code: 'prestop-missing',
  order: 10,
  scope: 'workload',
  severity: {
    error:
      'the model-server container, or another that runs a server, holds accelerators or listens on a port the pool or a Service sends requests to',
    warning:
      'another container on a second port of a Service that also reaches the model server directly (a side port: metrics, adapters)',
  },
  summary: 'A serving container of the model-server pod has no preStop hook, while the plan sleeps before SIGTERM.',
  remediation:
    'Add a preStop sleep of the plan\u2019s length (removal p99 + margin) to the model-server container and to every other container that serves requests in the pod.',
  remedy: 'applied',
  appliesTo: (ctx) => ctx.plan.preStopAction !== 'none',
  check: (ctx): Hookless[] => {
    const { container, plan, workload } = ctx;
    const found: Hookless[] = [];
    if (ctx.targets.preStop.kind === 'none') {
      // A native sidecar's hook runs beside this container's, from deletion: it holds back only the sidecar's SIGTERM.
      const hooked = sidecarsOf(workload.serving).find((c) => readPreStop(c).kind !== 'none');
      found.push({
        severity: 'error',
        target: container,
        path: [...container.path, 'lifecycle'],
        message:
          `The ${container.name} container has no preStop hook, so it gets SIGTERM the moment the pod is deleted, while gateways can still `
          + `route new requests to it for up to ${s(plan.removalSeconds)} (the removal p99): those requests fail.`
          + (hooked
            ? ` The preStop hook of the ${hooked.name} sidecar does not help: the kubelet runs each container’s hook at deletion, side by side, and it holds back only ${hooked.name}’s own SIGTERM.`
            : ''),
      });
    }
    for (const other of containersOf(workload.serving)) {
      if (other === container || other.index === container.index || readPreStop(other).kind !== 'none') continue;
      const serves = servesToo(ctx, other);
      if (!serves) continue;
      found.push({
        severity: serves.beside ? 'warning' : 'error',
        target: other,
        path: [...other.path, 'lifecycle'],
        message:
          `The ${other.name} container serves this pod too (${serves.why}) and has no preStop hook: it gets SIGTERM the moment the pod is deleted, `
          + `while gateways can still route new requests to the pod for up to ${s(plan.removalSeconds)} (the removal p99), and the requests it takes part in fail.`
          + (serves.beside
            ? ` The same Service reaches the ${container.name} container directly on ${serves.beside}, so this may be a side port (metrics, adapters): a warning; if requests to the model pass through ${other.name}, treat it as an error.`
            : ''),
      });
    }
    return found;
  },
  fix: (ctx, verdict: Hookless) => plannedHook({ ...ctx, container: verdict.target }, ctx.targets.preStopTarget),
});
