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
import { INPUT_LIMITS, MAX_ALIAS_WORK, MAX_EXPANDED_NODES, MAX_NESTING_DEPTH, type ReadLimits } from './limits.ts';
import { isRecord, type NodePath, type Segment } from './path.ts';
import { splitDocuments } from './split-documents.ts';

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
  /**
   * Documents refused unread (not valid YAML, a repeated key, nesting too deep, an alias bomb), each with why and its
   * first line; the others are checked.
   */
  refused?: { document: number; message: string; line: number; column?: number }[];
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
  const hint = /\{\{|\{%/.test(text) ? TEMPLATE_HINT : '';
  const at = place ? ` at line ${place.line}, column ${place.col}` : '';
  const message =
    error.code === 'RESOURCE_EXHAUSTION'
      ? `The YAML nests too deeply for the parser (more than ${MAX_NESTING_DEPTH} levels are refused).`
      : `Not valid YAML${at}: ${first}.${hint}`.replace(/\.\./, '.');
  return { message, line: place?.line, column: place?.col };
}

/**
 * What a walk over a document found: the first node too deep, the first repeated key, its nodes and aliases, and
 * the nodes it has with every alias expanded.
 */
interface DocumentScan {
  tooDeep?: number;
  duplicate?: { offset: number; key: string };
  nodes: number;
  aliases: number;
  expanded: number;
}

/** The children of a node in document order (a pair's key, then its value), each marked whether it is a key. */
function childrenOf(node: Node): [Node, boolean][] {
  if (!isCollection(node)) return [];
  const children: [Node, boolean][] = [];
  for (const item of node.items as unknown[]) {
    if (isPair(item)) {
      if (item.key && typeof item.key === 'object') children.push([item.key as Node, true]);
      if (item.value && typeof item.value === 'object') children.push([item.value as Node, false]);
    } else if (item && typeof item === 'object') children.push([item as Node, false]);
  }
  return children;
}

/**
 * Walk a document without recursion, in document order: nesting depth, repeated mapping keys, and the size of the
 * document with its aliases expanded. The parser's own key check compares every pair of keys, so on hostile input it
 * is done here instead. An alias can only name an anchor before it, whose node is complete by then: its expanded size
 * is memoised by anchor name (a later anchor of the same name replaces it, as in YAML), so the measure takes one pass
 * however large the expansion would be.
 */
function scanDocument(doc: Document.Parsed): DocumentScan {
  const scan: DocumentScan = { nodes: 0, aliases: 0, expanded: 0 };
  const anchors = new Map<string, number>();
  // Each entry: a node, its depth, whether it is a key, and whether its children are pushed (their sizes then follow a
  // NaN marker in `done`).
  const stack: { node: Node; depth: number; key?: boolean; open?: boolean }[] = doc.contents
    ? [{ node: doc.contents as Node, depth: 1 }]
    : [];
  const done: number[] = [];
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (!top.open) {
      scan.nodes++;
      if (isAlias(top.node)) {
        scan.aliases++;
        stack.pop();
        done.push(anchors.get(top.node.source) ?? 1);
        continue;
      }
      // A mapping's key sits beside its value: the place of nesting too deep is the value's.
      if (top.depth > MAX_NESTING_DEPTH && !top.key) return { ...scan, tooDeep: top.node.range?.[0] ?? 0 };
      if (isMap(top.node)) {
        const keys = new Set<string>();
        for (const item of top.node.items) {
          if (!isScalar(item.key)) continue;
          const key = String(item.key.value);
          if (keys.has(key) && !scan.duplicate) scan.duplicate = { offset: item.key.range?.[0] ?? 0, key };
          keys.add(key);
        }
      }
      const children = childrenOf(top.node);
      top.open = true;
      done.push(Number.NaN); // a marker: the sizes after it are this node's children's
      for (let i = children.length - 1; i >= 0; i--) {
        const [node, key] = children[i];
        stack.push({ node, depth: top.depth + 1, key });
      }
      continue;
    }
    stack.pop();
    let size = 1;
    while (!Number.isNaN(done[done.length - 1])) size += done.pop()!;
    done.pop();
    const anchor = (top.node as { anchor?: string }).anchor;
    if (anchor) anchors.set(anchor, size);
    done.push(size);
  }
  scan.expanded = done.reduce((a, b) => a + b, 0);
  return scan;
}

/** Why a document's aliases make it too much to read, or undefined when they do not. */
function aliasProblem(scan: DocumentScan, index: number): string | undefined {
  if (scan.expanded > MAX_EXPANDED_NODES)
    return `Document ${index + 1} has ${scan.nodes.toLocaleString('en-US')} nodes but ${scan.expanded.toLocaleString('en-US')} with its aliases (*name) expanded; the checker reads at most ${MAX_EXPANDED_NODES.toLocaleString('en-US')}, as more is how alias bombs exhaust memory, so it was not checked.`;
  if (scan.aliases * scan.nodes > MAX_ALIAS_WORK)
    return `Document ${index + 1} has ${scan.aliases.toLocaleString('en-US')} aliases (*name) in ${scan.nodes.toLocaleString('en-US')} nodes; resolving each one walks the document, and the checker does at most ${MAX_ALIAS_WORK.toLocaleString('en-US')} such steps (aliases × nodes), so it was not checked.`;
  return undefined;
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

/**
 * Whether the parser's documents are the ones the `---` lines of the text mark (split-documents.ts): as many, and
 * each within its own. Where they differ, a YAML error has run past a document's end, and no document is certain.
 */
function boundariesAgree(text: string, documents: Document.Parsed[]): boolean {
  const parts = splitDocuments(text);
  if (parts.length !== documents.length) return false;
  let start = 0;
  return parts.every((part, i) => {
    const end = start + part.text.length;
    const [from, , to] = documents[i].range;
    const within = from >= start && to <= end;
    start = end;
    return within;
  });
}

/** A YAML error that refuses the whole input: where it is, and why no document could be checked alone. */
function wholeYamlProblem(text: string, error: Parameters<typeof yamlProblem>[1]): InputProblem {
  const problem = yamlProblem(text, error);
  const many = text.split(/^---(?=[ \t\r\n]|$)/m).length > 2;
  return many
    ? { ...problem, message: `${problem.message} The error hides where its document ends, so no document was checked.` }
    : problem;
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
    const message = `The input has ${documents.length} YAML documents; the checker reads at most ${limits.documents}.`;
    return { ok: false, problem: { message } };
  }
  const objects: ManifestObject[] = [];
  const strays: [number, string][] = [];
  let refused: Manifest['refused'];
  let bounded: boolean | undefined;
  // A document refused alone: a finding on it (document-refused), and the other documents are still checked; with
  // no object left to check, the first one is the input's problem (check.ts).
  const refuse = (index: number, problem: InputProblem) => {
    const line = problem.line ?? lineCounter.linePos(documents[index].range[0]).line;
    refused = [...(refused ?? []), { ...problem, document: index, line }];
  };
  /** Refuse a document with a message at an offset of the text, with its line and column. */
  const refuseAt = (index: number, offset: number, message: string) => {
    const pos = lineCounter.linePos(offset);
    refuse(index, { message, line: pos.line, column: pos.col });
  };
  for (const [index, doc] of documents.entries()) {
    const error = doc.errors[0];
    if (error) {
      // An error may hide where the document ends (an unclosed quote runs on past the next `---`): it is refused
      // alone only when the parser's documents are the ones the `---` lines mark; else the whole input is.
      bounded ??= boundariesAgree(text, documents);
      if (!bounded) return { ok: false, problem: wholeYamlProblem(text, error as never) };
      refuse(index, yamlProblem(text, error as never));
      continue;
    }
    const scan = scanDocument(doc);
    if (scan.tooDeep !== undefined) {
      refuseAt(
        index,
        scan.tooDeep,
        `Document ${index + 1} nests more than ${MAX_NESTING_DEPTH} levels deep; no Kubernetes object is that deep.`,
      );
      continue;
    }
    if (scan.duplicate) {
      const pos = lineCounter.linePos(scan.duplicate.offset);
      refuseAt(
        index,
        scan.duplicate.offset,
        `Not valid YAML at line ${pos.line}, column ${pos.col}: the key ${JSON.stringify(scan.duplicate.key.slice(0, 60))} appears twice in one mapping (map keys must be unique).`,
      );
      continue;
    }
    const refusal = aliasProblem(scan, index);
    if (refusal) {
      refuse(index, { message: refusal, line: lineCounter.linePos(doc.range[0]).line });
      continue;
    }
    let value: unknown;
    try {
      // The expansion is bounded above, so yaml's own count (which refuses harmless repeated aliases) is off.
      value = doc.toJS({ maxAliasCount: -1 });
    } catch (caught) {
      refuseAt(
        index,
        doc.contents?.range?.[0] ?? doc.range[0],
        `Document ${index + 1} is not valid YAML: ${(caught as Error).message.replace(/\.$/, '')}.`,
      );
      continue;
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
  return {
    ok: true,
    manifest: { text, documents, lineCounter, objects, strays, refused, crOnly: crOnly || undefined },
  };
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
