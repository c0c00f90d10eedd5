/**
 * A quick reader for the first pass of a check in parts (check-parts.ts): one YAML document in the plain style most
 * manifests are written in, read straight into the plain data that `yaml`'s `toJS` gives for it. It reads
 *   - block mappings (keys of letters, digits and `_.-/`) and block sequences, nested by indentation;
 *   - one-line flow mappings and sequences (`{name: a, labels: {app: a}}`, `[{number: 8000}]`);
 *   - one-line plain scalars, double-quoted ones without escapes and single-quoted ones;
 *   - blank lines, whole-line comments and a leading `---`.
 * Anything else gives `undefined`, and the caller parses the document with `yaml` as before: anchors, aliases,
 * tags, block scalars, a scalar or flow collection over several lines, escapes, tabs, CR, non-ASCII text, a `#`
 * after content, `?` keys, a repeated key, a Helm action, a root that is not a mapping, nesting past 50 levels.
 * A plain scalar that is not plainly a string (`8000`, `yes`, `40Gi`, `~`) is resolved by `yaml` itself, so
 * numbers, booleans and nulls are YAML 1.1's as the full parse reads them.
 */
import { isMap, isScalar, parseDocument } from 'yaml';
import { KUBE_YAML } from './kube-yaml.ts';

/** Thrown inside the reader when the text has something it does not read exactly. */
const UNREAD = new Error('not plain YAML');

/** Characters the reader never reads: all but printable ASCII and LF, and YAML's node and scalar indicators. */
const UNREAD_CHARACTERS = /[^\n\x20-\x7e]|[&*!|>`?\\]|\{\{/;

/** A key at the start of a block line, `key:` then a space or the line's end; a key is read as itself. */
const KEY_COLON = /^([A-Za-z_][A-Za-z0-9_./-]{0,252}):(?: +|$)/;
const FLOW_KEY = /[A-Za-z_][A-Za-z0-9_./-]{0,252}/y;

/** A plain scalar in block context: no indicator first, no `: ` or ` #` inside, not ending in `:`. */
const BLOCK_PLAIN = /^(?:[A-Za-z0-9_./]|-(?=[^ ]))[A-Za-z0-9 _./:=+~$^()@,%'"-]*$/;
/** A plain scalar in flow context: as in block context, without `:`, `,`, quotes or brackets. */
const FLOW_PLAIN = /^(?:[A-Za-z0-9_./]|-(?=[^ ]))[A-Za-z0-9 _./=+~$^()@%-]*$/;

const MAX_DEPTH = 50;
const MAX_MEMO = 4096;

/** Plain scalars `yaml` resolved (`8000` → 8000, `yes` → true, `40Gi` → "40Gi"), or UNREAD for a timestamp etc. */
const resolved = new Map<string, unknown>();

/** The value of a plain scalar as YAML 1.1 reads it. */
function resolvePlain(text: string): unknown {
  // A letter, then more than 5 characters of these, is no YAML 1.1 boolean, null, number or timestamp.
  const first = text.charCodeAt(0);
  if (text.length > 5 && ((first >= 65 && first <= 90) || (first >= 97 && first <= 122))) return text;
  let value = resolved.get(text);
  if (value === undefined) {
    // As a mapping's value, so that text such as `...` is not read as a marker of the document.
    const doc = parseDocument(`k: ${text}`, KUBE_YAML);
    const pair = isMap(doc.contents) && doc.contents.items.length === 1 ? doc.contents.items[0] : undefined;
    const scalar = pair?.value;
    value =
      doc.errors.length === 0
      && doc.warnings.length === 0
      && isScalar(scalar)
      && scalar.type === 'PLAIN'
      && scalar.range?.[0] === 3
      && scalar.range[1] === 3 + text.length
        ? (doc.toJS() as { k: unknown }).k
        : UNREAD;
    if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) value = UNREAD;
    if (resolved.size >= MAX_MEMO) resolved.clear();
    resolved.set(text, value);
  }
  if (value === UNREAD) throw UNREAD;
  return value;
}

/** A key, which must read as the same string (not `yes`, `null`, `on`…). */
function checkKey(key: string): string {
  if (key === '__proto__' || (key.length <= 5 && resolvePlain(key) !== key)) throw UNREAD;
  return key;
}

/**
 * Where the reader writes the line of each node, when asked: for each mapping, the lines of its keys in their order;
 * for each sequence, the lines of its items; and the line of each document's root.
 */
export interface NodeLines {
  nodes: Map<object, number[]>;
  roots: number[];
}

/** A new container's list of lines, when lines are recorded. */
function linesOf(sink: NodeLines | undefined, container: object): number[] | undefined {
  if (!sink) return undefined;
  const lines: number[] = [];
  sink.nodes.set(container, lines);
  return lines;
}

/** Set a key of a mapping; a repeated key is for the full parse to report. */
function setKey(map: Record<string, unknown>, key: string, value: unknown): void {
  if (Object.hasOwn(map, key)) throw UNREAD;
  map[key] = value;
}

/** Read a flow value of one line from `at`; returns the value and where it ends. */
function readFlow(
  line: string,
  at: number,
  depth: number,
  sink: NodeLines | undefined,
  lineNo: number,
): [unknown, number] {
  if (depth > MAX_DEPTH) throw UNREAD;
  while (line[at] === ' ') at++;
  const c = line[at];
  if (c === '{' || c === '[') {
    const collection: Record<string, unknown> | unknown[] = c === '{' ? {} : [];
    const close = c === '{' ? '}' : ']';
    const lines = linesOf(sink, collection);
    at++;
    while (line[at] === ' ') at++;
    if (line[at] === close) return [collection, at + 1];
    for (;;) {
      while (line[at] === ' ') at++;
      let key: string | undefined;
      if (!Array.isArray(collection)) {
        FLOW_KEY.lastIndex = at;
        key = FLOW_KEY.exec(line)?.[0];
        if (key === undefined || line[at + key.length] !== ':' || line[at + key.length + 1] !== ' ') throw UNREAD;
        at += key.length + 2;
      }
      const [value, end] = readFlow(line, at, depth + 1, sink, lineNo);
      if (Array.isArray(collection)) collection.push(value);
      else setKey(collection, checkKey(key!), value);
      lines?.push(lineNo);
      at = end;
      while (line[at] === ' ') at++;
      if (line[at] === close) return [collection, at + 1];
      if (line[at] !== ',') throw UNREAD;
      at++;
    }
  }
  if (c === '"' || c === "'") return readQuoted(line, at);
  let end = at;
  while (end < line.length && !',[]{}:#'.includes(line[end])) end++;
  const text = line.slice(at, end).trimEnd();
  if (!FLOW_PLAIN.test(text) || line[end] === ':') throw UNREAD;
  return [resolvePlain(text), end];
}

/** Read a quoted scalar that ends on its line (double-quoted text has no escapes here). */
function readQuoted(line: string, at: number): [string, number] {
  const quote = line[at];
  let end = line.indexOf(quote, at + 1);
  if (quote === "'") while (end !== -1 && line[end + 1] === "'") end = line.indexOf("'", end + 2);
  if (end === -1) throw UNREAD;
  const text = line.slice(at + 1, end);
  return [quote === "'" ? text.replaceAll("''", "'") : text, end + 1];
}

/** Read a value that starts on a block line and ends with it: a flow collection, a quoted or a plain scalar. */
function readInline(text: string, depth: number, sink: NodeLines | undefined, lineNo: number): unknown {
  const c = text[0];
  if (c === '{' || c === '[' || c === '"' || c === "'") {
    const [value, end] = readFlow(text, 0, depth, sink, lineNo);
    if (end !== text.length) throw UNREAD;
    return value;
  }
  if (!BLOCK_PLAIN.test(text) || text.includes(': ') || text.endsWith(':')) throw UNREAD;
  return resolvePlain(text);
}

/** The lines of a document, with a cursor that skips blank and comment lines. */
class Lines {
  readonly texts: string[] = [];
  readonly indents: number[] = [];
  /** The line of each, in the input (the text starts on line `firstLine`). */
  readonly numbers: number[] = [];
  at = 0;

  constructor(text: string, firstLine: number) {
    let lineNo = firstLine - 1;
    for (const raw of text.split('\n')) {
      lineNo++;
      const line = raw.trimEnd();
      let indent = 0;
      while (line.charCodeAt(indent) === 32) indent++;
      if (indent === line.length || line[indent] === '#') continue;
      if (line.includes('#')) throw UNREAD;
      this.texts.push(line.slice(indent));
      this.indents.push(indent);
      this.numbers.push(lineNo);
    }
  }

  /** The indent of the current line, or -1 at the end. */
  indent(): number {
    return this.at < this.texts.length ? this.indents[this.at] : -1;
  }
}

/** Read the value after `key:` with nothing on its line: a nested block, or null. */
function readNested(lines: Lines, parentIndent: number, depth: number, sink: NodeLines | undefined): unknown {
  const indent = lines.indent();
  const text = lines.texts[lines.at];
  const isItem = text !== undefined && (text === '-' || text.startsWith('- '));
  if (indent > parentIndent)
    return isItem ? readSequence(lines, indent, depth, sink) : readMapping(lines, indent, depth, sink);
  if (indent === parentIndent && isItem) return readSequence(lines, indent, depth, sink);
  return null;
}

/** Read a block mapping whose keys are at `indent`; `first` is an entry already on the current line. */
function readMapping(
  lines: Lines,
  indent: number,
  depth: number,
  sink: NodeLines | undefined,
  first?: string,
): Record<string, unknown> {
  if (depth > MAX_DEPTH) throw UNREAD;
  const map: Record<string, unknown> = {};
  const keyLines = linesOf(sink, map);
  let text = first;
  for (;;) {
    if (text === undefined) {
      const at = lines.indent();
      if (at < indent) return map;
      if (at > indent) throw UNREAD;
      text = lines.texts[lines.at];
    }
    const lineNo = lines.numbers[lines.at];
    lines.at++;
    const match = KEY_COLON.exec(text);
    if (!match) throw UNREAD;
    const key = checkKey(match[1]);
    const rest = text.slice(match[0].length);
    keyLines?.push(lineNo);
    setKey(
      map,
      key,
      rest === '' ? readNested(lines, indent, depth + 1, sink) : readInline(rest, depth + 1, sink, lineNo),
    );
    text = undefined;
  }
}

/** Read a block sequence whose `- ` are at `indent`. */
function readSequence(lines: Lines, indent: number, depth: number, sink: NodeLines | undefined): unknown[] {
  if (depth > MAX_DEPTH) throw UNREAD;
  const list: unknown[] = [];
  const itemLines = linesOf(sink, list);
  for (;;) {
    const at = lines.indent();
    const text = lines.texts[lines.at];
    if (at === indent && text === '-') throw UNREAD;
    if (at < indent || (at === indent && !text.startsWith('- '))) return list;
    if (at > indent) throw UNREAD;
    let start = 2;
    while (text[start] === ' ') start++;
    const content = text.slice(start);
    if (content === '-' || content.startsWith('- ')) throw UNREAD;
    const lineNo = lines.numbers[lines.at];
    itemLines?.push(lineNo);
    if (KEY_COLON.test(content)) {
      list.push(readMapping(lines, indent + start, depth + 1, sink, content));
    } else {
      lines.at++;
      list.push(readInline(content, depth + 1, sink, lineNo));
    }
  }
}

/**
 * The plain data of a one-document text in the plain style this reader reads (see above), exactly as `yaml`'s
 * `parseAllDocuments(text, { version: '1.1' })[0].toJS()` gives it; `undefined` when the text has anything else.
 * With `sink`, the line of each node is written there (the text starting on line `firstLine`).
 */
export function readPlainYaml(text: string, sink?: NodeLines, firstLine = 1): Record<string, unknown> | undefined {
  if (UNREAD_CHARACTERS.test(text)) return undefined;
  try {
    const lines = new Lines(text, firstLine);
    if (lines.texts[0] === '---' && lines.indents[0] === 0) lines.at = 1;
    if (lines.indent() !== 0) return undefined;
    const root = lines.numbers[lines.at];
    const value = readMapping(lines, 0, 1, sink);
    if (lines.at !== lines.texts.length) return undefined;
    sink?.roots.push(root);
    return value;
  } catch (error) {
    if (error === UNREAD) return undefined;
    throw error;
  }
}
