/** Rules on InferencePools: does the selector reach the model-server pods, and do they expose the target ports. */
import { findFlag } from '../../workload/command-line.ts';
import { serverArgs } from '../../workload/server-invocation.ts';
import { report, setEdit, objectName, type CheckContext, type WorkloadContext } from '../context.ts';
import type { Fix } from '../findings.ts';
import { flagFor } from '../../workload/identify-server.ts';
import { sameNamespace, selects, type Pool, type Workload } from '../../workload/locate.ts';
import { isRecord, valueAt } from '../../read/path.ts';
import { runningContainersOf, servingPort } from '../../workload/pod.ts';
import { checkSidecars } from './sidecar.ts';

function formatLabels(labels: Record<string, string>): string {
  const entries = Object.entries(labels);
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(', ') : 'nothing';
}

/** The labels a pool should select a workload's pods by: the workload's own selector, or its pod labels. */
function selectorFor(workload: Workload): Record<string, string> {
  const own = valueAt(workload.object.value, ['spec', 'selector', 'matchLabels']);
  if (isRecord(own) && Object.keys(own).length > 0)
    return Object.fromEntries(Object.entries(own).map(([k, v]) => [k, String(v)]));
  return workload.serving.labels;
}

/** The workload a pool that matches nothing was most likely meant for: same namespace, same name, or the only one. */
function intended(pool: Pool, contexts: WorkloadContext[]): WorkloadContext | undefined {
  const candidates = contexts.filter((c) => sameNamespace(c.object, pool.object));
  const pick = candidates.find((c) => c.object.name === pool.object.name) ?? candidates[0] ?? contexts[0];
  return pick;
}

function selectorFix(pool: Pool, target: WorkloadContext): Fix {
  const labels = selectorFor(target.workload);
  const edits = [setEdit(pool.object, pool.selectorPath, labels)];
  if (
    pool.object.namespace !== undefined
    && target.object.namespace !== undefined
    && pool.object.namespace !== target.object.namespace
  ) {
    edits.push(setEdit(pool.object, ['metadata', 'namespace'], target.object.namespace));
  }
  return {
    text: `${pool.current ? 'matchLabels' : 'selector'}: { ${Object.entries(labels)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')} }`,
    edits,
  };
}

function checkPorts(check: CheckContext, pool: Pool, targets: WorkloadContext[]): void {
  for (const port of pool.targetPorts) {
    const exposing = targets.filter((t) =>
      runningContainersOf(t.workload.serving).some((c) => c.ports.some((p) => p.containerPort === port.number)),
    );
    if (exposing.length === targets.length) continue;
    const target = targets.find((t) => !exposing.includes(t))!;
    const declared = runningContainersOf(target.workload.serving).flatMap((c) => c.ports.map((p) => p.containerPort));
    const portFlag = target.serverKnown ? flagFor(target.server, '{port}') : undefined;
    const listenValue =
      portFlag && target.invocation?.found ? findFlag(serverArgs(target.invocation), portFlag)?.value : undefined;
    const listen = listenValue && /^\d+$/.test(listenValue) ? Number(listenValue) : undefined;
    const serving = servingPort(target.container)?.containerPort ?? listen;
    const who = `${objectName(target.object)}\u2019s pods`;
    if (declared.length === 0 && (listen === undefined || listen === port.number)) {
      const value = { name: 'http', containerPort: port.number };
      report(
        check,
        pool.object,
        'pool-port-not-exposed',
        'warning',
        port.path,
        `The InferencePool sends requests to port ${port.number}, and the ${target.container.name} container of ${who} declares no ports, so the checker cannot tell that the server listens there; declare it.`,
        {
          text: `ports: [{ name: http, containerPort: ${port.number} }] on the ${target.container.name} container`,
          edits: [setEdit(target.object, [...target.container.path, 'ports'], [value])],
        },
      );
    } else if (serving !== undefined) {
      report(
        check,
        pool.object,
        'pool-port-not-exposed',
        'error',
        port.path,
        `The InferencePool sends requests to port ${port.number}, which ${who} do not expose (${declared.length ? `they expose ${declared.join(', ')}` : `the server listens on ${serving}`}): every request the pool routes fails to connect.`,
        exposing.length > 0
          ? // Other workloads of the pool serve this port: changing the pool's port would break them.
            {
              text: `Manual: make ${who} serve port ${port.number} like the pool\u2019s other pods, or give them a pool of their own; the pool\u2019s port is left as it is because ${exposing.map((t) => objectName(t.object)).join(', ')} serve${exposing.length === 1 ? 's' : ''} it.`,
              edits: [],
            }
          : { text: `number: ${serving}`, edits: [setEdit(pool.object, port.path, serving)] },
      );
    }
  }
}

/** Check every InferencePool against the workloads in the manifest. */
export function checkPools(check: CheckContext, contexts: WorkloadContext[]): void {
  const { pools, workloads } = check.located;
  for (const pool of pools) {
    if (!pool.current) {
      report(
        check,
        pool.object,
        'pool-api-removed',
        'info',
        ['apiVersion'],
        `${pool.object.apiVersion} InferencePools were removed from the Gateway API Inference Extension (v1.5.0 serves only inference.networking.k8s.io/v1): `
          + 'move to v1, where the selector is spec.selector.matchLabels and the port spec.targetPorts.',
      );
    }
    if (workloads.length === 0) {
      report(
        check,
        pool.object,
        'no-workload',
        'info',
        pool.selectorPath,
        `The input has no Deployment, StatefulSet or LeaderWorkerSet for this pool to select (${formatLabels(pool.selector)}), so its selector and ports were not checked.`,
      );
      continue;
    }
    const matched = contexts.filter(
      (c) => sameNamespace(c.object, pool.object) && selects(pool.selector, c.workload.serving.labels),
    );
    const matchedOther = workloads.filter(
      (w) => sameNamespace(w.object, pool.object) && selects(pool.selector, w.serving.labels),
    );
    if (matched.length === 0 && matchedOther.length === 0) {
      const target = intended(pool, contexts);
      if (!target) continue;
      const elsewhere =
        pool.object.namespace !== undefined
        && target.object.namespace !== undefined
        && pool.object.namespace !== target.object.namespace;
      report(
        check,
        pool.object,
        'pool-selector-mismatch',
        'error',
        pool.selectorPath,
        elsewhere
          ? `The InferencePool is in namespace ${pool.object.namespace} but ${objectName(target.object)} runs in ${target.object.namespace}; a pool selects pods in its own namespace only, so it has no endpoints and every request through it fails.`
          : `The InferencePool selects ${formatLabels(pool.selector)}, which no pod template in the input carries (${objectName(target.object)} labels its pods `
              + `${formatLabels(target.workload.serving.labels)}): the pool has no endpoints, so every request through it fails.`,
        selectorFix(pool, target),
      );
      checkPorts(check, pool, [target]);
      continue;
    }
    if (matched.length > 0) {
      checkPorts(check, pool, matched);
      checkSidecars(check, pool, matched);
    }
  }
}
