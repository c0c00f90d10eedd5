/**
 * Rule fixtures as overlays on a few base manifests (tests/fixtures/shapes/<shape>.yaml). An overlay names its base
 * and states only what differs:
 *
 *   # prestop-missing: fires on the vllm container has no lifecycle at all.
 *   base: deployment-vllm
 *   set:
 *     Deployment/m:
 *       spec.template.spec.containers[name=vllm].lifecycle: null
 *   add:
 *     - {apiVersion: v1, kind: ConfigMap, metadata: {name: m-config}}
 *
 * The rules of composition:
 * - The overlay's leading comment lines (what the fixture proves) replace the base's (what the shape is).
 * - `set` addresses each document by `Kind/name` (kind and metadata.name), then a path in it: keys joined by dots,
 *   a list item by `[index]` or `[key=value]` (the one item whose key has that value), a key with dots or brackets
 *   as `["nvidia.com/gpu"]`. Paths apply in the order written; a value replaces the node, written as in the overlay
 *   (flow or block, quoting); `null` removes the key, and `Kind/name: null` removes the document. A new key goes
 *   last in its map.
 * - `add` appends documents after the base's, in order.
 * - Everything else keeps the base's bytes: documents are parsed and written with the `yaml` Document API, which
 *   keeps comments, quoting and flow style, with one set of options (no line folding, `{a: 1}` flow maps).
 * - Comments inside the overlay stay in the overlay; they never reach the composed manifest.
 * An overlay starts with `base:` after its header comment; any other fixture (a whole manifest, kept for its exact
 * text) is returned as it is.
 */
import { existsSync, readFileSync } from 'node:fs';
import {
  Document,
  isCollection,
  isMap,
  isScalar,
  isSeq,
  parseAllDocuments,
  parseDocument,
  visit,
  type Node,
  type YAMLMap,
} from 'yaml';
import { applyUnifiedDiff } from './apply-diff.ts';

/** The folder of the base manifests. */
export const SHAPES_DIR = new URL('../fixtures/shapes/', import.meta.url);

/** The options every document of a composed fixture is written with. */
const STRINGIFY = { lineWidth: 0, flowCollectionPadding: false } as const;

/** Read the base manifest `name` from tests/fixtures/shapes/. */
export function readShape(name: string): string {
  const url = new URL(`${name}.yaml`, SHAPES_DIR);
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name) || !existsSync(url)) throw new Error(`no base manifest named ${name}`);
  return readFileSync(url, 'utf8');
}

/** The leading comment lines of a text, and the rest. */
function splitHeader(text: string): { header: string; body: string } {
  const match = /^(?:#[^\n]*\n)*/.exec(text)!;
  return { header: match[0], body: text.slice(match[0].length) };
}

/** A path segment: a key, a list index, or the list item whose `key` has `value`. */
type Segment = string | number | { key: string; value: string };

/** The segments of a path such as `spec.containers[name=vllm].resources.limits["nvidia.com/gpu"]`. */
export function parsePath(path: string): Segment[] {
  const segments: Segment[] = [];
  const pattern = /\.?([^.[\]"]+)|\[(\d+)\]|\[([^=\]"]+)=([^\]"]*)\]|\["([^"]*)"\]/y;
  let at = 0;
  while (at < path.length) {
    pattern.lastIndex = at;
    const m = pattern.exec(path);
    if (!m || (at === 0 && path.startsWith('.')))
      throw new Error(`cannot read the path ${path} at "${path.slice(at)}"`);
    if (m[1] !== undefined) segments.push(m[1]);
    else if (m[2] !== undefined) segments.push(Number(m[2]));
    else if (m[3] !== undefined) segments.push({ key: m[3], value: m[4] });
    else segments.push(m[5]);
    at = pattern.lastIndex;
  }
  if (segments.length === 0) throw new Error('an empty path');
  return segments;
}

/** The path as keys and indexes in `doc`, each `[key=value]` turned into the index of its one item. */
function resolvePath(doc: Document, path: string): (string | number)[] {
  const keys: (string | number)[] = [];
  let node: unknown = doc.contents;
  for (const segment of parsePath(path)) {
    if (typeof segment === 'object') {
      if (!isSeq(node)) throw new Error(`${path}: [${segment.key}=${segment.value}] is not on a list`);
      const found = node.items.flatMap((item, i) =>
        isMap(item) && item.has(segment.key) && String(item.get(segment.key)) === segment.value ? [i] : [],
      );
      if (found.length !== 1)
        throw new Error(`${path}: ${found.length} items have ${segment.key}=${segment.value}, not one`);
      keys.push(found[0]);
      node = node.items[found[0]];
    } else {
      keys.push(segment);
      node = isCollection(node) ? node.get(segment, true) : undefined;
    }
  }
  return keys;
}

/** A copy of an overlay's node without its comments and blank lines. */
function bareCopy(node: Node): Node {
  const copy = node.clone() as Node;
  const strip = (n: { comment?: string | null; commentBefore?: string | null; spaceBefore?: boolean }) => {
    n.comment = undefined;
    n.commentBefore = undefined;
    n.spaceBefore = false;
  };
  visit(copy, {
    Node: (_key, n) => strip(n),
    Pair: (_key, pair) => {
      if (isScalar(pair.key)) strip(pair.key);
    },
  });
  return copy;
}

/** Whether a node is the YAML null (`null`, `~` or nothing). */
function isNull(node: unknown): boolean {
  return node === null || (isScalar(node) && node.value === null);
}

/** The document `Kind/name` of the list (exactly one). */
function findDocument(docs: Document[], target: string): number {
  const [kind, name, ...rest] = target.split('/');
  if (!kind || !name || rest.length > 0) throw new Error(`${target} is not Kind/name`);
  const found = docs.flatMap((d, i) => (d.get('kind') === kind && d.getIn(['metadata', 'name']) === name ? [i] : []));
  if (found.length !== 1) throw new Error(`${found.length} documents are ${target}, not one`);
  return found[0];
}

/** Whether a fixture's text is an overlay: its first line after the header comment is `base: <shape>`. */
export function isOverlay(text: string): boolean {
  return /^base:/.test(splitHeader(text).body);
}

/** The manifest an overlay describes (a whole manifest is returned unchanged). `readBase` gives a base's text. */
export function composeFixture(text: string, readBase: (name: string) => string = readShape): string {
  if (!isOverlay(text)) return text;
  const parsed = parseDocument(text);
  if (parsed.errors.length > 0) throw new Error(`the overlay is not valid YAML: ${parsed.errors[0].message}`);
  const overlay = parsed.contents as YAMLMap;
  for (const pair of overlay.items) {
    const key = isScalar(pair.key) ? pair.key.value : pair.key;
    if (key !== 'base' && key !== 'set' && key !== 'add')
      throw new Error(`an overlay has base, set and add, not ${String(key)}`);
  }
  const base = readBase(String(overlay.get('base')));
  const docs: (Document | undefined)[] = parseAllDocuments(splitHeader(base).body) as Document[];
  const set = overlay.get('set', true);
  if (set !== undefined && !isMap(set)) throw new Error('set is not a map of Kind/name');
  for (const target of set?.items ?? []) {
    const name = String(isScalar(target.key) ? target.key.value : target.key);
    const index = findDocument(
      docs.map((d) => d ?? new Document()),
      name,
    );
    if (isNull(target.value)) {
      docs[index] = undefined;
      continue;
    }
    if (!isMap(target.value)) throw new Error(`set ${name} is neither a map of paths nor null`);
    const doc = docs[index]!;
    for (const change of target.value.items) {
      const path = String(isScalar(change.key) ? change.key.value : change.key);
      const keys = resolvePath(doc, path);
      if (isNull(change.value)) {
        if (!doc.hasIn(keys)) throw new Error(`${name} has no ${path} to remove`);
        doc.deleteIn(keys);
      } else doc.setIn(keys, bareCopy(change.value as Node));
    }
  }
  const add = overlay.get('add', true);
  if (add !== undefined && !isSeq(add)) throw new Error('add is not a list of documents');
  for (const item of add?.items ?? []) {
    const doc = new Document();
    doc.contents = bareCopy(item as Node);
    docs.push(doc);
  }
  const kept = docs.filter((d): d is Document => d !== undefined);
  kept.forEach((d, i) => {
    d.directives!.docStart = i === 0 ? null : true;
  });
  return splitHeader(text).header + kept.map((d) => d.toString(STRINGIFY)).join('');
}

/** A rule folder's fixtures, composed: fires and does-not-fire, and the fixed text its golden diff gives. */
export interface RuleFixtureTexts {
  fires?: string;
  doesNotFire?: string;
  fixed?: string;
}

/**
 * Read the fixtures of a rule folder (`dir` ends in a slash): fires.yaml and does-not-fire.yaml composed on their
 * base, and fixed.diff applied to the composed fires text.
 */
export function readRuleFixtures(dir: URL, readBase: (name: string) => string = readShape): RuleFixtureTexts {
  const read = (name: string) => {
    const url = new URL(name, dir);
    return existsSync(url) ? readFileSync(url, 'utf8') : undefined;
  };
  const compose = (name: string) => {
    const text = read(name);
    try {
      return text === undefined ? undefined : composeFixture(text, readBase);
    } catch (error) {
      throw new Error(`${new URL(name, dir).pathname}: ${(error as Error).message}`);
    }
  };
  const fires = compose('fires.yaml');
  const diff = read('fixed.diff');
  let fixed: string | undefined;
  if (diff !== undefined) {
    if (fires === undefined) throw new Error(`${dir.pathname}: fixed.diff without fires.yaml`);
    try {
      fixed = applyUnifiedDiff(fires, diff);
    } catch (error) {
      throw new Error(
        `${new URL('fixed.diff', dir).pathname} does not apply to fires.yaml: ${(error as Error).message}`,
      );
    }
  }
  return { fires, doesNotFire: compose('does-not-fire.yaml'), fixed };
}
