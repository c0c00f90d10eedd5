/**
 * Kubernetes' `$(VAR)` expansion, as the kubelet applies it to a container's `command` and `args` before it
 * starts the container: `$(NAME)` becomes the value of the container's environment variable NAME, `$$` becomes
 * `$`, and a reference to a variable that is not defined is left as written. An `env` entry's `value` is expanded
 * the same way against the entries before it. (Kubernetes' API reference for Container.args; the kubelet's
 * `third_party/forked/golang/expansion` implements it.)
 *
 * Read from the manifest alone, a variable's value is known only when an `env` entry gives it as a plain `value`.
 * One set by `valueFrom` (a ConfigMap, a Secret, a field), or one that may come from `envFrom` or from a Service's
 * link variables, is decided when the pod starts: an item that refers to it is unknown, and the checker does not
 * read or rewrite it.
 */

/** What is known of a container's variables: a name's value, or `undefined` when the pod decides it. */
export type EnvValues = ReadonlyMap<string, string | undefined>;

/** A command or args item after expansion. */
export interface Expanded {
  /** The item as the container receives it (as written where nothing expands). */
  text: string;
  /** Every reference resolved from the manifest (false: a value decided at run time, or a name not defined here). */
  known: boolean;
  /** The text differs from the item as written. */
  changed: boolean;
  /**
   * The offset in the item as written of an offset in `text`, or undefined for one strictly inside a substituted
   * value (an edit there would change the variable, not the item).
   */
  toSource: (offset: number) => number | undefined;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** A container's `env` read in order: each plain `value` expanded against the entries before it. */
export function envValues(container: Record<string, unknown>): EnvValues {
  const values = new Map<string, string | undefined>();
  const env = Array.isArray(container.env) ? container.env : [];
  for (const entry of env) {
    if (!entry || typeof entry !== 'object') continue;
    const { name, value, valueFrom } = entry as Record<string, unknown>;
    if (typeof name !== 'string') continue;
    if (valueFrom !== undefined && valueFrom !== null) values.set(name, undefined);
    else if (value === undefined || value === null) values.set(name, '');
    else {
      const expanded = expand(String(value), values);
      values.set(name, expanded.known ? expanded.text : undefined);
    }
  }
  return values;
}

/**
 * Expand one item. `values` holds the variables the manifest defines; a reference to any other name is unknown
 * (envFrom or a Service's link variables may define it; if nothing does, the kubelet leaves it as written).
 */
export function expand(item: string, values: EnvValues): Expanded {
  if (!item.includes('$')) return { text: item, known: true, changed: false, toSource: (offset) => offset };
  let text = '';
  let known = true;
  /** Output ranges that stand for a substituted reference: [outStart, outEnd, srcStart, srcEnd]. */
  const pieces: [number, number, number, number][] = [];
  /** Output offset → source offset where the two advance together: [outStart, srcStart]. */
  const runs: [number, number][] = [[0, 0]];
  let i = 0;
  while (i < item.length) {
    const dollar = item.indexOf('$', i);
    if (dollar === -1 || dollar === item.length - 1) {
      text += item.slice(i);
      break;
    }
    text += item.slice(i, dollar);
    const next = item[dollar + 1];
    if (next === '$') {
      // `$$` is one `$`: the run of plain text restarts after it.
      text += '$';
      i = dollar + 2;
      runs.push([text.length, i]);
      continue;
    }
    const close = next === '(' ? item.indexOf(')', dollar + 2) : -1;
    const name = close === -1 ? '' : item.slice(dollar + 2, close);
    if (close === -1 || !NAME.test(name)) {
      // Not a reference: `$X`, `${X}`, `$(` without a name and `)`: the kubelet keeps it as written.
      text += '$';
      i = dollar + 1;
      continue;
    }
    const value = values.get(name);
    if (value === undefined) {
      known = false;
      text += item.slice(dollar, close + 1);
    } else {
      pieces.push([text.length, text.length + value.length, dollar, close + 1]);
      text += value;
    }
    i = close + 1;
    runs.push([text.length, i]);
  }
  const changed = text !== item;
  const toSource = (offset: number): number | undefined => {
    for (const [outStart, outEnd, srcStart, srcEnd] of pieces) {
      if (offset === outStart) return srcStart;
      if (offset === outEnd) return srcEnd;
      if (offset > outStart && offset < outEnd) return undefined;
    }
    let run = runs[0];
    for (const r of runs) if (r[0] <= offset) run = r;
    return run[1] + (offset - run[0]);
  };
  return { text, known, changed, toSource };
}
