/**
 * Read manifest text into YAML Documents (kept for line numbers and for fixes) and plain objects (for
 * the rules). Everything that can go wrong with untrusted text ends here as one `InputProblem`.
 */
import {
  isAlias,
  isCollection,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  type Document,
  type Node,
} from 'yaml';
import { guardText, type InputProblem } from './guard-input.ts';
import { helmTemplateProblem } from './helm-template.ts';
import { KUBE_YAML } from './kube-yaml.ts';
import { INPUT_LIMITS, MAX_ALIAS_COUNT, MAX_NESTING_DEPTH, type ReadLimits } from './limits.ts';
import { isRecord, type NodePath, type Segment } from './path.ts';

/** One Kubernetes object found in the manifest. */
export interface ManifestObject {
  /** Index of its YAML document, from 0. */
  document: number;
  /** Path from the document root to the object: `[]`, or `['items', i]` inside a `List`. */
  base: Segment[];
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
  value: Record<string, unknown>;
}

/** A parsed manifest: its text, its documents and the objects in them. */
export interface Manifest {
  text: string;
  documents: Document.Parsed[];
  lineCounter: LineCounter;
  objects: ManifestObject[];
  /** Documents that hold something other than a Kubernetes object: [document index, what it holds]. */
  strays: [number, string][];
  /** The input ended its lines with CR alone (classic Mac): `text` has LF, and the fixed text goes back to CR. */
  crOnly?: boolean;
  /**
   * A manifest read by the quick reader (read-plain-manifest.ts) has no yaml Documents (`documents` is empty, and it
   * cannot be fixed): its number of documents and the line of each node instead.
   */
  plain?: { documents: number; lineAt: (document: number, path: NodePath) => number | undefined };
}

/** The number of YAML documents of a manifest. */
export function documentCount(manifest: Manifest): number {
  return manifest.plain ? manifest.plain.documents : manifest.documents.length;
}

export type ReadResult = { ok: true; manifest: Manifest } | { ok: false; problem: InputProblem };

const TEMPLATE_HINT = ' It looks like a Helm or Go template: render it first (helm template …) and check the output.';

function yamlProblem(
  text: string,
  error: { message: string; code: string; linePos?: [{ line: number; col: number }, ...unknown[]] },
): InputProblem {
  const first = error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  const place = error.linePos?.[0];
  if (error.code === 'RESOURCE_EXHAUSTION') {
    return {
      message: `The YAML nests too deeply for the parser (more than ${MAX_NESTING_DEPTH} levels are refused).`,
      line: place?.line,
      column: place?.col,
    };
  }
  const hint = /\{\{|\{%/.test(text) ? TEMPLATE_HINT : '';
  return {
    message: `Not valid YAML${place ? ` at line ${place.line}, column ${place.col}` : ''}: ${first}.${hint}`.replace(
      /\.\./,
      '.',
    ),
    line: place?.line,
    column: place?.col,
  };
}

/** What a walk over a document found: the first node too deep, the first repeated key, and the aliases. */
interface DocumentScan {
  tooDeep?: number;
  duplicate?: { offset: number; key: string };
  aliases: number;
}

/**
 * Walk a document without recursion: nesting depth, repeated mapping keys and alias count. The parser's own
 * key check compares every pair of keys and the library resolves each alias by searching the document, so on
 * hostile input both are done here instead, in one pass.
 */
function scanDocument(doc: Document.Parsed): DocumentScan {
  const scan: DocumentScan = { aliases: 0 };
  const stack: [Node, number][] = doc.contents ? [[doc.contents as Node, 1]] : [];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (isAlias(node)) {
      scan.aliases++;
      continue;
    }
    if (depth > MAX_NESTING_DEPTH) return { ...scan, tooDeep: node.range?.[0] ?? 0 };
    if (!isCollection(node)) continue;
    const keys = isMap(node) ? new Set<string>() : undefined;
    for (const item of node.items as unknown[]) {
      if (isPair(item)) {
        if (keys && isScalar(item.key)) {
          const key = String(item.key.value);
          if (keys.has(key) && !scan.duplicate) scan.duplicate = { offset: item.key.range?.[0] ?? 0, key };
          keys.add(key);
        }
        if (item.key && typeof item.key === 'object') stack.push([item.key as Node, depth + 1]);
        if (item.value && typeof item.value === 'object') stack.push([item.value as Node, depth + 1]);
      } else if (item && typeof item === 'object') {
        stack.push([item as Node, depth + 1]);
      }
    }
  }
  return scan;
}

/** The Kubernetes object a document's value holds, or what it holds instead ('' for an empty document). */
export function objectFrom(value: unknown, document: number, base: Segment[]): ManifestObject | string {
  if (!isRecord(value))
    return value === null || value === undefined
      ? ''
      : `a ${Array.isArray(value) ? 'list' : typeof value}, not a Kubernetes object`;
  const { apiVersion, kind } = value;
  if (typeof kind !== 'string' || kind === '') return 'a mapping without a kind';
  const metadata = isRecord(value.metadata) ? value.metadata : {};
  return {
    document,
    base,
    apiVersion: typeof apiVersion === 'string' ? apiVersion : '',
    kind,
    name:
      typeof metadata.name === 'string'
        ? metadata.name
        : typeof metadata.generateName === 'string'
          ? `${metadata.generateName}*`
          : '(no name)',
    namespace: typeof metadata.namespace === 'string' ? metadata.namespace : undefined,
    value,
  };
}

/** Parse manifest text: guards, YAML errors with line and column, alias and depth limits, `List` items. */
export function readManifest(input: string, limits: ReadLimits = INPUT_LIMITS): ReadResult {
  // Lines ended by CR alone are read as lines; YAML itself only knows LF and CRLF.
  const crOnly = input.includes('\r') && !input.includes('\n');
  const text = crOnly ? input.replaceAll('\r', '\n') : input;
  const guarded = guardText(text, limits.bytes);
  if (guarded) return { ok: false, problem: guarded };
  // A chart's template may even parse as YAML, but what it renders to is not known: never check it as if rendered.
  const template = helmTemplateProblem(text);
  if (template) return { ok: false, problem: template };
  const lineCounter = new LineCounter();
  const documents = parseAllDocuments(text, { ...KUBE_YAML, lineCounter, prettyErrors: true, uniqueKeys: false });
  if (!Array.isArray(documents)) return { ok: false, problem: { message: 'The input has no YAML documents.' } };
  if (documents.length > limits.documents) {
    return {
      ok: false,
      problem: {
        message: `The input has ${documents.length} YAML documents; the checker reads at most ${limits.documents}.`,
      },
    };
  }
  const objects: ManifestObject[] = [];
  const strays: [number, string][] = [];
  for (const [index, doc] of documents.entries()) {
    const error = doc.errors[0];
    if (error) return { ok: false, problem: yamlProblem(text, error as never) };
    const scan = scanDocument(doc);
    if (scan.tooDeep !== undefined) {
      const pos = lineCounter.linePos(scan.tooDeep);
      return {
        ok: false,
        problem: {
          message: `Document ${index + 1} nests more than ${MAX_NESTING_DEPTH} levels deep; no Kubernetes object is that deep.`,
          line: pos.line,
          column: pos.col,
        },
      };
    }
    if (scan.duplicate) {
      const pos = lineCounter.linePos(scan.duplicate.offset);
      return {
        ok: false,
        problem: {
          message: `Not valid YAML at line ${pos.line}, column ${pos.col}: the key ${JSON.stringify(scan.duplicate.key.slice(0, 60))} appears twice in one mapping (map keys must be unique).`,
          line: pos.line,
          column: pos.col,
        },
      };
    }
    if (scan.aliases > MAX_ALIAS_COUNT) {
      const pos = lineCounter.linePos(doc.range[0]);
      return {
        ok: false,
        problem: {
          message: `Document ${index + 1} has ${scan.aliases} aliases (*name); the checker reads at most ${MAX_ALIAS_COUNT}, since many aliases are how alias bombs exhaust memory.`,
          line: pos.line,
          column: pos.col,
        },
      };
    }
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (caught) {
      const pos = lineCounter.linePos(doc.range[0]);
      const text = (caught as Error).message;
      const message = /excessive alias count/i.test(text)
        ? `Document ${index + 1} expands its aliases (*name) more than ${MAX_ALIAS_COUNT} times, the pattern of an alias bomb; the checker stops there.`
        : `Document ${index + 1} is not valid YAML: ${text.replace(/\.$/, '')}.`;
      return { ok: false, problem: { message, line: pos.line, column: pos.col } };
    }
    const found = objectFrom(value, index, []);
    if (typeof found === 'string') {
      if (found) strays.push([index, found]);
      continue;
    }
    if (found.kind === 'List' && Array.isArray(found.value.items)) {
      found.value.items.forEach((item, i) => {
        const inner = objectFrom(item, index, ['items', i]);
        if (typeof inner === 'string') strays.push([index, `items[${i}] is ${inner || 'empty'}`]);
        else objects.push(inner);
      });
    } else {
      objects.push(found);
    }
  }
  return { ok: true, manifest: { text, documents, lineCounter, objects, strays, crOnly: crOnly || undefined } };
}

/** The 1-based line of the node at a path (of its key, for a mapping entry), or of its nearest ancestor that exists. */
export function lineAt(manifest: Manifest, document: number, path: NodePath): number | undefined {
  if (manifest.plain) return manifest.plain.lineAt(document, path);
  const doc = manifest.documents[document];
  if (!doc) return undefined;
  for (let end = path.length; end >= 0; end--) {
    const parent = end === 0 ? undefined : end === 1 ? doc.contents : doc.getIn(path.slice(0, end - 1), true);
    const last = path[end - 1];
    let node: unknown = end === 0 ? doc.contents : undefined;
    if (isMap(parent) && typeof last === 'string') {
      const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === last);
      node = pair ? (pair.key ?? pair.value) : undefined;
    } else if (isSeq(parent) && typeof last === 'number') {
      node = parent.items[last];
    }
    const range = (node as Node | null | undefined)?.range;
    if (range) return manifest.lineCounter.linePos(range[0]).line;
  }
  return undefined;
}
