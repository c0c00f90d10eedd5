/**
 * The groups of related parts as they stand while the first pass of a check in parts (check-parts.ts) is still
 * reading: the same relations as the final groups (a pool with the workloads it selects, a policy or route with the
 * pools it names, a part without objects with the part before it that has some), made as each part is read. A
 * guess, since a later part may join two groups; the check keeps a guess only when the final groups agree with it.
 */
import { selects } from './locate.ts';
import type { PartIndex } from './part-index.ts';

/** Parts indexed so far and their groups: `add` each part in input order; `membersOf` a part's group (its parts). */
export interface GroupGuess {
  add: (part: number, index: PartIndex) => void;
  membersOf: (part: number) => readonly number[];
}

/** Whether two namespaces may be one (an object without one is taken to be in the other's). */
function mayShare(a: string | undefined, b: string | undefined): boolean {
  return a === undefined || b === undefined || a === b;
}

/** An empty guess, for parts added from 0 on. */
export function guessGroups(): GroupGuess {
  const parent: number[] = [];
  const members: number[][] = [];
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  const union = (a: number, b: number) => {
    let [x, y] = [find(a), find(b)];
    if (x === y) return;
    if (members[x].length < members[y].length) [x, y] = [y, x];
    parent[y] = x;
    for (const m of members[y]) members[x].push(m);
    members[y] = [];
  };
  type Workload = PartIndex['workloads'][number];
  type Pool = PartIndex['pools'][number];
  const workloadsByLabel = new Map<string, { part: number; workload: Workload }[]>();
  const poolsByLabel = new Map<string, { part: number; pool: Pool }[]>();
  const poolsByName = new Map<string, { part: number; namespace?: string }[]>();
  const refsByName = new Map<string, { part: number; namespace?: string }[]>();
  const push = <V>(map: Map<string, V[]>, key: string, value: V) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };
  let lastWithObjects = -1;
  const waiting: number[] = [];
  return {
    membersOf: (part) => members[find(part)],
    add: (part, index) => {
      parent[part] = part;
      members[part] = [part];
      for (const workload of index.workloads)
        for (const [k, v] of Object.entries(workload.labels)) push(workloadsByLabel, `${k}=${v}`, { part, workload });
      for (const pool of index.pools) {
        const labels = Object.entries(pool.selector);
        if (labels.length > 0) push(poolsByLabel, `${labels[0][0]}=${labels[0][1]}`, { part, pool });
        push(poolsByName, pool.name, { part, namespace: pool.namespace });
      }
      for (const ref of index.refs) push(refsByName, ref.name, { part, namespace: ref.namespace });
      // This part's workloads with the pools read so far (this part's included), and its pools with their workloads.
      for (const workload of index.workloads)
        for (const [k, v] of Object.entries(workload.labels))
          for (const { part: other, pool } of poolsByLabel.get(`${k}=${v}`) ?? [])
            if (mayShare(workload.namespace, pool.namespace) && selects(pool.selector, workload.labels))
              union(part, other);
      for (const pool of index.pools) {
        const labels = Object.entries(pool.selector);
        if (labels.length === 0) continue;
        for (const { part: other, workload } of workloadsByLabel.get(`${labels[0][0]}=${labels[0][1]}`) ?? [])
          if (mayShare(workload.namespace, pool.namespace) && selects(pool.selector, workload.labels))
            union(part, other);
        for (const ref of refsByName.get(pool.name) ?? [])
          if (mayShare(ref.namespace, pool.namespace)) union(part, ref.part);
      }
      for (const ref of index.refs)
        for (const pool of poolsByName.get(ref.name) ?? [])
          if (mayShare(ref.namespace, pool.namespace)) union(part, pool.part);
      if (index.objects > 0) {
        for (const w of waiting.splice(0)) union(w, part);
        lastWithObjects = part;
      } else if (lastWithObjects !== -1) union(part, lastWithObjects);
      else waiting.push(part);
    },
  };
}
