/** Which model-server workloads an InferencePool selects, or was meant to select: shared by the pool rules. */
import { setEdit, type InputContext, type WorkloadContext } from '../context.ts';
import type { Fix } from '../findings.ts';
import { poolSelects, sameNamespace, type Pool, type Workload } from '../../workload/locate.ts';
import { isRecord, valueAt } from '../../read/path.ts';

/** Labels as `k=v, …`, for messages. */
export function formatLabels(labels: Record<string, string>): string {
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

/** The fix that points a pool at the workload it was meant for. */
export function selectorFix(pool: Pool, target: WorkloadContext): Fix {
  const labels = selectorFor(target.workload);
  const edits = [setEdit(pool.object, pool.selectorPath, labels)];
  if (!sameNamespace(pool.object, target.object))
    edits.push(setEdit(pool.object, ['metadata', 'namespace'], target.object.namespace));
  return {
    text: `${pool.current ? 'matchLabels' : 'selector'}: { ${Object.entries(labels)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ')} }`,
    edits,
  };
}

/**
 * The workloads a pool's ports are checked against: those it selects (`matched`), or when it selects no workload of
 * the input, the one it was most likely meant for (`intended`); none when the input has no workload.
 */
export function poolTargets(
  ctx: InputContext,
  pool: Pool,
): { matched: WorkloadContext[] } | { intended: WorkloadContext } | undefined {
  // Matched when it selects any workload, a model-server one (a context) or not.
  if (ctx.located.workloads.some((w) => poolSelects(pool, w)))
    return { matched: ctx.contexts.filter((c) => poolSelects(pool, c.workload)) };
  // The one it was most likely meant for: in its namespace, of its name, or the only one.
  const near = ctx.contexts.filter((c) => sameNamespace(c.object, pool.object));
  const target = near.find((c) => c.object.name === pool.object.name) ?? near[0] ?? ctx.contexts[0];
  return target ? { intended: target } : undefined;
}
