/**
 * A Deployment's pods as timeline events: compare two listings (`kubectl get pods -o json`) and say
 * what changed, pod by pod: created, ready, not ready, deletion started, a container terminated, gone.
 * Pure, so the rules are tested without a cluster.
 */

/** What verify tracks of one pod. */
export interface PodState {
  ready: boolean;
  deleting: boolean;
  graceSeconds: number | null;
  /** Containers seen terminated, with how. */
  terminated: Record<string, string>;
}

interface PodJson {
  metadata?: { name?: string; deletionTimestamp?: string; deletionGracePeriodSeconds?: number };
  status?: {
    conditions?: { type?: string; status?: string }[];
    containerStatuses?: { name?: string; state?: { terminated?: { reason?: string; exitCode?: number } } }[];
  };
}

/** Read a `kubectl get pods -o json` listing into states by pod name. */
export function readPods(listing: unknown): Map<string, PodState> {
  const pods = new Map<string, PodState>();
  const items = (listing as { items?: unknown })?.items;
  if (!Array.isArray(items)) throw new Error('kubectl get pods did not return a list');
  for (const item of items as PodJson[]) {
    const name = item?.metadata?.name;
    if (typeof name !== 'string') continue;
    const terminated: Record<string, string> = {};
    for (const c of item.status?.containerStatuses ?? []) {
      const t = c?.state?.terminated;
      if (t && typeof c.name === 'string')
        terminated[c.name] = `${t.reason ?? 'terminated'}, exit code ${t.exitCode ?? '?'}`;
    }
    pods.set(name, {
      ready: (item.status?.conditions ?? []).some((c) => c?.type === 'Ready' && c.status === 'True'),
      deleting: typeof item.metadata?.deletionTimestamp === 'string',
      graceSeconds:
        typeof item.metadata?.deletionGracePeriodSeconds === 'number' ? item.metadata.deletionGracePeriodSeconds : null,
      terminated,
    });
  }
  return pods;
}

/** The changes from one listing to the next, as event texts (names sorted, so the order is stable). */
export function podChanges(before: ReadonlyMap<string, PodState>, after: ReadonlyMap<string, PodState>): string[] {
  const changes: string[] = [];
  for (const name of [...after.keys()].sort()) {
    const now = after.get(name)!;
    const was = before.get(name);
    if (!was) changes.push(`pod ${name} created${now.ready ? ' (ready)' : ''}`);
    else if (!was.ready && now.ready) changes.push(`pod ${name} ready`);
    else if (was.ready && !now.ready) changes.push(`pod ${name} not ready`);
    if (now.deleting && !was?.deleting)
      changes.push(`pod ${name} deletion started${now.graceSeconds === null ? '' : ` (grace ${now.graceSeconds} s)`}`);
    for (const [container, how] of Object.entries(now.terminated).sort()) {
      if (was?.terminated[container] === undefined)
        changes.push(`pod ${name} container ${container} terminated: ${how}`);
    }
  }
  for (const name of [...before.keys()].sort()) if (!after.has(name)) changes.push(`pod ${name} gone`);
  return changes;
}

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

/** The label selector of a Deployment (`kubectl get deployment -o json`), as kubectl's -l wants it. */
export function deploymentSelector(deployment: unknown): string {
  const selector = (deployment as { spec?: { selector?: LabelSelector } })?.spec?.selector;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(selector?.matchLabels ?? {}).sort()) parts.push(`${k}=${v}`);
  for (const e of selector?.matchExpressions ?? []) {
    const values = (e.values ?? []).join(',');
    if (e.operator === 'In') parts.push(`${e.key} in (${values})`);
    else if (e.operator === 'NotIn') parts.push(`${e.key} notin (${values})`);
    else if (e.operator === 'Exists') parts.push(e.key);
    else if (e.operator === 'DoesNotExist') parts.push(`!${e.key}`);
    else throw new Error(`the Deployment's selector has an unknown operator ${JSON.stringify(e.operator)}`);
  }
  if (parts.length === 0) throw new Error('the Deployment has no pod selector');
  return parts.join(',');
}
