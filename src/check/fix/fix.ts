/**
 * Apply every fix to the manifest by editing its text at the ranges of the nodes a fix changes. Everything
 * outside those nodes stays byte for byte: indentation, flow style, comments, octal literals, custom tags,
 * and documents without a fix. Each document is re-read after each of its edits, so edits compose.
 */
import {
  Document,
  isAlias,
  isCollection,
  isMap,
  isPair,
  isScalar,
  isSeq,
  parse,
  parseAllDocuments,
  type Node,
  type Scalar,
} from 'yaml';
import type { Edit } from './edit.ts';
import { KUBE_YAML } from '../read/kube-yaml.ts';
import type { Segment } from '../read/path.ts';
import type { Manifest } from '../read/read-manifest.ts';

/** The fixed manifest, the edits written, and those not written (paths through an alias, or nodes it cannot place). */
export interface FixedManifest {
  text: string;
  edits: number;
  skipped: number;
}

/** The value for the rest of a path: `['a', 0]` and `v` give `{ a: [v] }`. */
function nested(rest: readonly Segment[], value: unknown): unknown {
  return rest.reduceRight<unknown>(
    (inner, segment) => (typeof segment === 'number' ? [inner] : { [segment]: inner }),
    value,
  );
}

/** A node along a path, with whether any collection on the way is in flow style. */
interface Step {
  node: Node | null | undefined;
  flow: boolean;
}

/** Walk a path; stops (with `at` short of the path's length) at the first step that does not exist. */
function walk(doc: Document.Parsed, path: readonly Segment[]): { steps: Step[]; at: number; alias: boolean } {
  const steps: Step[] = [
    { node: doc.contents as Node, flow: isCollection(doc.contents) && Boolean(doc.contents.flow) },
  ];
  for (let i = 0; i < path.length; i++) {
    const { node, flow } = steps[i];
    if (isAlias(node)) return { steps, at: i, alias: true };
    let child: Node | null | undefined;
    if (isMap(node) && typeof path[i] === 'string') {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === path[i]);
      if (!pair) return { steps, at: i, alias: false };
      child = pair.value as Node | null;
    } else if (isSeq(node) && typeof path[i] === 'number') {
      child = node.items[path[i] as number] as Node | undefined;
      if (child === undefined) return { steps, at: i, alias: false };
    } else return { steps, at: i, alias: false };
    if (isAlias(child)) return { steps, at: i + 1, alias: true };
    steps.push({ node: child, flow: flow || (isCollection(child) && Boolean(child.flow)) });
  }
  return { steps, at: path.length, alias: false };
}

/** Whether text read as a plain scalar, under YAML 1.1 (yaml's and kubectl's) and 1.2 alike, is this string. */
function plainSafe(value: string): boolean {
  if (value === '' || /^\s|\s$|[\n#,[\]{}]|: |:$|^[-?:](\s|$)|^[&*!|>'"%@`]/.test(value)) return false;
  try {
    return parse(value, KUBE_YAML) === value && parse(value, { version: '1.1' }) === value && parse(value) === value;
  } catch {
    return false;
  }
}

/** A scalar as inline YAML text. */
function inlineScalar(value: unknown): string {
  if (typeof value === 'string') return plainSafe(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return JSON.stringify(value);
}

/** Inline (flow) YAML for any value: `{key: value, …}` and `[a, b]` with plain scalars where they read back the same. */
function flowText(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(flowText).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${inlineScalar(k)}: ${flowText(v)}`)
      .join(', ')}}`;
  return inlineScalar(value);
}

/** Block YAML for `value`, indented by `indent` spaces, with a comment at the leaf path `commentAt`. */
function blockText(
  value: unknown,
  indent: number,
  indentSeq: boolean,
  comment?: { path: Segment[]; text: string },
): string {
  const doc = new Document(value);
  if (comment) {
    const node = doc.getIn(comment.path, true) as { comment?: string } | undefined;
    if (node) node.comment = comment.text;
  }
  const pad = ' '.repeat(indent);
  return doc
    .toString({ lineWidth: 0, indentSeq })
    .split('\n')
    .map((l) => (l === '' ? l : pad + l))
    .join('\n');
}

/** The column of an offset. */
function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

/** A string scalar re-written in its own style; a block literal keeps every line that did not change. */
function rewriteString(text: string, node: Scalar, value: string): string {
  const source = text.slice(node.range![0], node.range![1]);
  if (node.type === 'BLOCK_LITERAL' && /^\|-?[ \t]*(#.*)?\n/.test(source) && !/^[ \t]/.test(value)) {
    const header = source.slice(0, source.indexOf('\n') + 1);
    const body = source.slice(header.length);
    const bodyLines = body.split('\n');
    const indent = /^( *)\S/m.exec(body)?.[1].length ?? columnOf(text, node.range![0]) + 2;
    const oldLines = String(node.value).replace(/\n$/, '').split('\n');
    const newLines = value.replace(/\n$/, '').split('\n');
    if (header.startsWith('|-') === value.endsWith('\n')) return keepNewline(source, JSON.stringify(value));
    const out = newLines.map((line, i) =>
      oldLines.length === newLines.length && line === oldLines[i] && bodyLines[i] !== undefined
        ? bodyLines[i]
        : line === ''
          ? ''
          : ' '.repeat(indent) + line,
    );
    // The blank lines the old body had after the new one's last line are kept.
    const blank = '\n'.repeat(Math.max(0, bodyLines.length - newLines.length - 1));
    return `${header}${out.join('\n')}${source.endsWith('\n') ? '\n' : ''}${blank}`;
  }
  if (node.type === 'QUOTE_SINGLE' && !value.includes('\n')) return `'${value.replaceAll("'", "''")}'`;
  if (node.type === 'PLAIN' && plainSafe(value)) return value;
  return keepNewline(source, JSON.stringify(value));
}

/** A block scalar's source ends with its line break; a replacement written inline keeps it. */
function keepNewline(source: string, replacement: string): string {
  return source.endsWith('\n') && !replacement.endsWith('\n') ? `${replacement}\n` : replacement;
}

/**
 * Map offsets in a string scalar's value to offsets in the source, when every character of the value is written
 * as itself: a plain or quoted scalar on one line without escapes, or a block scalar whose lines are joined by
 * newlines (`|`) or spaces (`>`, no blank or more-indented lines). Undefined when the value is written otherwise.
 */
function sourceOffsets(text: string, node: Scalar): ((offset: number) => number | undefined) | undefined {
  const [start, end] = node.range!;
  const source = text.slice(start, end);
  const value = String(node.value);
  if (!source.includes('\n')) {
    const inner =
      node.type === 'PLAIN'
        ? source
        : node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE'
          ? source.slice(1, -1)
          : undefined;
    if (inner !== value) return undefined;
    const shift = node.type === 'PLAIN' ? 0 : 1;
    return (offset) => start + shift + offset;
  }
  if (node.type !== 'BLOCK_LITERAL' && node.type !== 'BLOCK_FOLDED') return undefined;
  const headerEnd = source.indexOf('\n') + 1;
  const body = source.slice(headerEnd);
  const indent = /^( *)\S/m.exec(body)?.[1].length;
  if (indent === undefined) return undefined;
  const lines: { at: number; text: string }[] = [];
  let at = start + headerEnd;
  for (const line of body.split('\n')) {
    lines.push({ at: at + Math.min(indent, line.length), text: line.slice(indent) });
    at += line.length + 1;
  }
  while (lines.length > 0 && lines.at(-1)!.text.trim() === '') lines.pop();
  const joiner = node.type === 'BLOCK_LITERAL' ? '\n' : ' ';
  if (lines.some((l) => l.text === '' || (node.type === 'BLOCK_FOLDED' && /^\s/.test(l.text)))) return undefined;
  const joined = lines.map((l) => l.text).join(joiner);
  if (value !== joined && value !== `${joined}\n`) return undefined;
  return (offset) => {
    let consumed = 0;
    for (const line of lines) {
      if (offset <= consumed + line.text.length) return line.at + (offset - consumed);
      consumed += line.text.length + 1;
    }
    return undefined;
  };
}

/** Add ` #comment` after `end` when the rest of that line is blank. */
function withComment(
  text: string,
  end: number,
  replacement: string,
  comment: string | undefined,
  flow: boolean,
): string {
  if (!comment || flow) return replacement;
  const eol = text.indexOf('\n', end);
  const rest = text.slice(end, eol === -1 ? text.length : eol);
  return rest.trim() === '' && !replacement.includes('\n') && !text.slice(0, end).endsWith('\n')
    ? `${replacement} #${comment}`
    : replacement;
}

/** Apply one edit to one document's text; undefined when it cannot be written. */
function applyEdit(text: string, edit: Edit, indentSeq: boolean): string | undefined {
  const doc = parseAllDocuments(text, { ...KUBE_YAML, uniqueKeys: false })[0] as Document.Parsed | undefined;
  if (!doc || doc.errors.length > 0 || !isMap(doc.contents)) return undefined;
  const { steps, at, alias } = walk(doc, edit.path);
  if (alias) return undefined;
  const splice = (from: number, to: number, insert: string) => text.slice(0, from) + insert + text.slice(to);
  /** Add an item before the closing bracket of a flow collection. */
  const intoFlow = (node: { range?: unknown; items: unknown[] }, close: string, item: string) => {
    const [start, end] = node.range as [number, number];
    const at = text.lastIndexOf(close, end);
    return at < start ? undefined : splice(at, at, `${node.items.length > 0 ? ', ' : ''}${item}`);
  };
  /** Add lines after a block collection whose text ends at `end`: at the start of the next line. */
  const linesAfter = (end: number, lines: string) => {
    const eol = text.indexOf('\n', end);
    const where = end > 0 && text[end - 1] === '\n' ? end : eol === -1 ? text.length : eol + 1;
    return splice(where, where, where === text.length && !text.endsWith('\n') ? `\n${lines}` : lines);
  };
  const full = at === edit.path.length;
  const { node: target, flow } = steps[at];

  if (edit.op === 'splice') {
    if (!full || !isScalar(target) || typeof target.value !== 'string' || !target.range) return undefined;
    const old = target.value;
    const inSource = sourceOffsets(text, target);
    const insert = String(edit.value);
    const from = inSource?.(edit.start ?? 0);
    const to = inSource?.(edit.end ?? 0);
    const quoteSafe =
      !(target.type === 'QUOTE_DOUBLE' && /["\\]/.test(insert))
      && !(target.type === 'QUOTE_SINGLE' && insert.includes("'"));
    if (
      from !== undefined
      && to !== undefined
      && !insert.includes('\n')
      && quoteSafe
      && text.slice(from, to) === old.slice(edit.start, edit.end)
    ) {
      return splice(from, to, insert);
    }
    const value = old.slice(0, edit.start) + String(edit.value) + old.slice(edit.end);
    return splice(target.range[0], target.range[1], rewriteString(text, target, value));
  }
  if (edit.op === 'append') {
    if (full && isSeq(target) && target.range) {
      if (target.flow) return intoFlow(target, ']', flowText(edit.value));
      const item = blockText(
        [edit.value],
        columnOf(text, target.range[0]),
        true,
        edit.comment ? { path: [0], text: edit.comment } : undefined,
      );
      return linesAfter(target.range[1], item);
    }
    // A list not there yet, or a key left null, becomes a list of the one item.
    if (full && !(isScalar(target) && target.value === null)) return undefined;
    return applyEdit(text, { ...edit, op: 'set', value: [edit.value], comment: undefined }, indentSeq);
  }
  if (edit.op !== 'set') return undefined;
  const primitive = edit.value === null || typeof edit.value !== 'object';
  if (full) {
    if (!target?.range) return undefined;
    if (isScalar(target) && primitive) {
      if (target.value === edit.value) {
        return target.comment
          ? text
          : splice(target.range[1], target.range[1], withComment(text, target.range[1], '', edit.comment, flow));
      }
      const rendered =
        typeof edit.value === 'string' && typeof target.value === 'string'
          ? rewriteString(text, target, edit.value)
          : inlineScalar(edit.value);
      return splice(
        target.range[0],
        target.range[1],
        target.comment ? rendered : withComment(text, target.range[1], rendered, edit.comment, flow),
      );
    }
    // A mapping or list written over a key left null (`rollingUpdate: null`, `~`, or nothing after the colon), which
    // Kubernetes reads as unset: the value goes in its place, inline.
    if (isScalar(target) && target.value === null && !primitive) {
      const gap = target.range[0] === target.range[1] && !/[ \t]$/.test(text.slice(0, target.range[0])) ? ' ' : '';
      return splice(target.range[0], target.range[1], `${gap}${flowText(edit.value)}`);
    }
    if (isCollection(target) && !primitive) {
      if (flow) return splice(target.range[0], target.range[1], flowText(edit.value));
      const column = columnOf(text, target.range[0]);
      const block = blockText(edit.value, column, indentSeq).slice(column);
      return splice(target.range[0], target.range[1], block.endsWith('\n') ? block : `${block}\n`);
    }
    return undefined;
  }
  // Missing from step `at` on: add it to the nearest mapping that exists, or in place of a key left null.
  const parent = steps[at].node;
  const key = edit.path[at];
  if (isScalar(parent) && parent.value === null && at > 0 && edit.op === 'set')
    return applyEdit(
      text,
      { ...edit, path: edit.path.slice(0, at), value: nested(edit.path.slice(at), edit.value), comment: undefined },
      indentSeq,
    );
  if (!isMap(parent) || typeof key !== 'string' || !parent.range) return undefined;
  const value = nested(edit.path.slice(at + 1), edit.value);
  if (flow || parent.flow) return intoFlow(parent, '}', `${inlineScalar(key)}: ${flowText(value)}`);
  const first = parent.items.find(isPair);
  const keyStart = (first?.key as Node | undefined)?.range?.[0];
  if (keyStart === undefined) return undefined;
  const leafPath = [key, ...edit.path.slice(at + 1).map((s) => (typeof s === 'number' ? 0 : s))];
  const lines = blockText(
    { [key]: value },
    columnOf(text, keyStart),
    indentSeq,
    edit.comment && primitive ? { path: leafPath, text: edit.comment } : undefined,
  );
  return linesAfter(parent.range[1], lines);
}

/** Whether a document's text writes block sequences at the indentation of their parent key (`- name` under `containers:`). */
function sequencesIndented(text: string): boolean {
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const item = /^(\s*)- /.exec(lines[i]);
    if (!item) continue;
    let j = i - 1;
    while (j >= 0 && /^\s*(#.*)?$/.test(lines[j])) j--;
    const key = j >= 0 ? /^(\s*)(- )?[^\s#][^#]*:\s*(#.*)?$/.exec(lines[j]) : null;
    if (key) return item[1].length > key[1].length + (key[2] ? 2 : 0);
  }
  return true;
}

/** What the fixer needs of a finding: its edits, if it has a fix (a `Finding` of the rules has this shape). */
export interface Fixable {
  fix?: { edits: readonly Edit[] };
}

const OP_ORDER: Record<Edit['op'], number> = { set: 0, splice: 1, append: 2, 'add-document': 3 };

/** The edits of every finding, without repeats: sets, then splices, then appends, then new documents. */
function editsOf(findings: readonly Fixable[]): Edit[] {
  const seen = new Set<string>();
  const edits: Edit[] = [];
  for (const finding of findings) {
    for (const edit of finding.fix?.edits ?? []) {
      const key = JSON.stringify([edit.op, edit.document, edit.path, edit.value, edit.comment, edit.start, edit.end]);
      if (!seen.has(key)) {
        seen.add(key);
        edits.push(edit);
      }
    }
  }
  // Splices of one string go last offset first, so the earlier offsets stay right.
  return edits.sort(
    (a, b) => OP_ORDER[a.op] - OP_ORDER[b.op] || (a.op === 'splice' ? (b.start ?? 0) - (a.start ?? 0) : 0),
  );
}

/** The manifest with every finding's fix applied. */
export function fixManifest(manifest: Manifest, findings: readonly Fixable[]): FixedManifest {
  const edits = editsOf(findings);
  if (edits.length === 0)
    return { text: manifest.crOnly ? manifest.text.replaceAll('\n', '\r') : manifest.text, edits: 0, skipped: 0 };
  const text = manifest.text;
  let out = '';
  let from = 0;
  let written = 0;
  manifest.documents.forEach((doc, index) => {
    const end = doc.range[2];
    let own = text.slice(from, end);
    const indentSeq = sequencesIndented(own);
    for (const edit of edits.filter((e) => e.document === index && e.op !== 'add-document')) {
      const next = applyEdit(own, edit, indentSeq);
      if (next !== undefined) {
        own = next;
        written++;
      }
    }
    out += own;
    from = end;
  });
  out += text.slice(from);
  // New documents go after the last one, each after its own `---` (none is needed after a trailing `---`).
  for (const edit of edits.filter((e) => e.op === 'add-document')) {
    const body = String(edit.value);
    if (out.trim() !== '') {
      if (!out.endsWith('\n')) out += '\n';
      if (!/(^|\n)---[ \t]*\n$/.test(out)) out += '---\n';
    }
    out += body.endsWith('\n') ? body : `${body}\n`;
    written++;
  }
  return { text: manifest.crOnly ? out.replaceAll('\n', '\r') : out, edits: written, skipped: edits.length - written };
}
