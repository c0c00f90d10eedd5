/**
 * The documented strategic-merge rules for the Deployment fields a drain patch touches, and the two JSON 6902
 * operations it uses, written from the Kubernetes docs ("Update API Objects in Place Using kubectl patch") and
 * the patch tags in k8s.io/api (apps/v1 DeploymentSpec.Strategy: retainKeys; core/v1 PodSpec.Containers,
 * Container.Env, Container.VolumeMounts, Container.Ports, PodSpec.Volumes: merge by key):
 *   - maps merge key by key; a null value deletes the key;
 *   - `$patch: replace` in a map replaces the whole map with the patch's (without the directive);
 *   - a list with a merge key merges item by item, matched on that key; new items are appended;
 *   - any other list (args, command, lists of strings) is replaced whole;
 *   - retainKeys (Deployment spec.strategy): keys the patch does not name are cleared.
 */
type Json = unknown;
type Obj = Record<string, Json>;

/** Merge keys by the field name of the list, as tagged in k8s.io/api for the fields a Deployment has. */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  ports: 'containerPort',
};

/** Map fields whose patch strategy is retainKeys, by dotted path from the object's root. */
const RETAIN_KEYS = new Set(['spec.strategy']);

const isObj = (v: Json): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function clone<T>(value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}

function mergeList(field: string, base: Json, patch: Json[], path: string): Json[] {
  const key = MERGE_KEYS[field];
  if (!key || !Array.isArray(base)) return clone(patch);
  const out = clone(base) as Json[];
  for (const item of patch) {
    if (!isObj(item) || item[key] === undefined)
      throw new Error(`${path}: a ${field} item without its merge key ${key}`);
    const at = out.findIndex((b) => isObj(b) && b[key] === item[key]);
    if (at === -1) out.push(mergeMap({}, item, `${path}[${String(item[key])}]`));
    else out[at] = mergeMap(out[at] as Obj, item, `${path}[${String(item[key])}]`);
  }
  return out;
}

function mergeMap(base: Obj, patch: Obj, path: string): Obj {
  if (patch.$patch === 'replace') {
    const { $patch: _directive, ...rest } = patch;
    return clone(rest);
  }
  if (patch.$patch !== undefined) throw new Error(`${path}: $patch ${String(patch.$patch)} is not implemented here`);
  const out: Obj = RETAIN_KEYS.has(path) ? {} : clone(base);
  if (RETAIN_KEYS.has(path)) for (const k of Object.keys(base)) if (k in patch) out[k] = clone(base[k]);
  for (const [k, v] of Object.entries(patch)) {
    const child = path ? `${path}.${k}` : k;
    if (v === null) delete out[k];
    else if (Array.isArray(v)) out[k] = mergeList(k, out[k], v, child);
    else if (isObj(v)) out[k] = mergeMap(isObj(out[k]) ? out[k] : {}, v, child);
    else out[k] = v;
  }
  return out;
}

/** The result of a strategic-merge patch on an object (neither argument is changed). */
export function strategicMerge(base: Obj, patch: Obj): Obj {
  return mergeMap(base, patch, '');
}

/** One JSON 6902 operation: `test` and `add` are the ones a drain patch uses. */
export interface JsonPatchOp {
  op: string;
  path: string;
  value?: Json;
}

function pointer(path: string): string[] {
  return path
    .split('/')
    .slice(1)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** Apply JSON 6902 operations (RFC 6902 `test` and `add`); throws as kustomize stops when one fails. */
export function applyJsonPatch(base: Obj, ops: readonly JsonPatchOp[]): Obj {
  const out = clone(base);
  for (const op of ops) {
    const parts = pointer(op.path);
    const last = parts.pop()!;
    let parent: Json = out;
    for (const part of parts) {
      parent = Array.isArray(parent) ? parent[Number(part)] : isObj(parent) ? parent[part] : undefined;
      if (parent === undefined) throw new Error(`${op.op} ${op.path}: no ${part}`);
    }
    if (op.op === 'test') {
      const found = Array.isArray(parent) ? parent[Number(last)] : (parent as Obj)[last];
      if (JSON.stringify(found) !== JSON.stringify(op.value))
        throw new Error(`test ${op.path}: found ${JSON.stringify(found)}, not ${JSON.stringify(op.value)}`);
    } else if (op.op === 'add') {
      if (Array.isArray(parent)) {
        if (last === '-') parent.push(clone(op.value));
        else parent.splice(Number(last), 0, clone(op.value));
      } else if (isObj(parent)) parent[last] = clone(op.value);
      else throw new Error(`add ${op.path}: the parent is not a list or map`);
    } else {
      throw new Error(`op ${op.op} is not implemented here`);
    }
  }
  return out;
}
