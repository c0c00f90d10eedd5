/**
 * Apply every fix to the manifest through the `yaml` Document API. Documents without a fix come back
 * byte for byte; edited documents keep the reader's comments, key order and sequence indentation, and a
 * value the checker writes gets a comment with its arithmetic unless the reader already has one there.
 */
import { isAlias, isCollection, isMap, isScalar, isSeq, parseAllDocuments, type Document, type Node } from 'yaml';
import type { Edit } from './edit.ts';
import type { Finding } from './findings.ts';
import type { Segment } from './path.ts';
import type { Manifest } from './read-manifest.ts';

/** The fixed manifest, the edits written, and those not written (paths through an alias). */
export interface FixedManifest {
  text: string;
  edits: number;
  skipped: number;
}

/** The value for the rest of a path: `['a', 0]` and `v` give `{ a: [v] }`. */
function nested(rest: readonly Segment[], value: unknown): unknown {
  return rest.reduceRight<unknown>((inner, segment) => {
    if (typeof segment === 'number') {
      const list: unknown[] = [];
      list[segment] = inner;
      return list;
    }
    return { [segment]: inner };
  }, value);
}

function insideFlow(doc: Document, path: readonly Segment[]): boolean {
  for (let end = 0; end <= path.length; end++) {
    const node = end === 0 ? doc.contents : doc.getIn(path.slice(0, end), true);
    if (isCollection(node) && node.flow) return true;
  }
  return false;
}

function comment(doc: Document, path: readonly Segment[], text: string | undefined): void {
  if (!text || insideFlow(doc, path.slice(0, -1))) return;
  const node = doc.getIn(path, true);
  if (isScalar(node) && !node.comment) node.comment = text;
}

/**
 * Write a value at a path, turning missing or scalar steps into mappings (or sequences for indexes).
 * A path through an alias (`*name`) is not written: changing the anchor would change every place that uses
 * it, and replacing the alias would drop what it stood for. Returns whether the value was written.
 */
function setPath(doc: Document, path: readonly Segment[], value: unknown): boolean {
  for (let i = 0; i < path.length; i++) {
    const parent = i === 0 ? doc.contents : doc.getIn(path.slice(0, i), true);
    if (!isCollection(parent)) return false;
    const rest = path.slice(i + 1);
    const child = parent.get(path[i] as never, true) as Node | undefined;
    if (isAlias(child)) return false;
    if (rest.length === 0) {
      const primitive = value === null || typeof value !== 'object';
      parent.set(path[i] as never, isScalar(child) && primitive ? value : doc.createNode(value));
      return true;
    }
    if (!isCollection(child)) {
      parent.set(path[i] as never, doc.createNode(nested(rest, value)));
      return true;
    }
  }
  return false;
}

/** Apply one edit; returns whether it was written. */
function apply(doc: Document, edit: Edit): boolean {
  if (!isMap(doc.contents)) return false;
  if (edit.op === 'append') {
    const seq = doc.getIn(edit.path, true);
    if (isSeq(seq)) {
      seq.items.push(doc.createNode(edit.value));
      comment(doc, [...edit.path, seq.items.length - 1], edit.comment);
      return true;
    }
    const written = setPath(doc, edit.path, [edit.value]);
    if (written) comment(doc, [...edit.path, 0], edit.comment);
    return written;
  }
  const written = setPath(doc, edit.path, edit.value);
  if (written) comment(doc, edit.path, edit.comment);
  return written;
}

/** Whether a document's text writes block sequences at the indentation of their parent key (`- name` under `containers:`). */
function sequencesIndented(text: string): boolean {
  const lines = text.split('\n');
  for (let i = 1; i < lines.length; i++) {
    const item = /^(\s*)- /.exec(lines[i]);
    if (!item) continue;
    let j = i - 1;
    while (j >= 0 && (/^\s*(#.*)?$/.test(lines[j]))) j--;
    const key = j >= 0 ? /^(\s*)(- )?[^\s#][^#]*:\s*(#.*)?$/.exec(lines[j]) : null;
    if (key) return item[1].length > key[1].length + (key[2] ? 2 : 0);
  }
  return true;
}

/** The edits of every finding, without repeats: sets, then appends, then new documents. */
export function editsOf(findings: readonly Finding[]): Edit[] {
  const seen = new Set<string>();
  const edits: Edit[] = [];
  for (const finding of findings) {
    for (const edit of finding.fix?.edits ?? []) {
      const key = JSON.stringify([edit.op, edit.document, edit.path, edit.value, edit.comment]);
      if (!seen.has(key)) {
        seen.add(key);
        edits.push(edit);
      }
    }
  }
  return [...edits.filter((e) => e.op === 'set'), ...edits.filter((e) => e.op === 'append'), ...edits.filter((e) => e.op === 'add-document')];
}

/** The manifest with every finding's fix applied. */
export function fixManifest(manifest: Manifest, findings: readonly Finding[]): FixedManifest {
  const edits = editsOf(findings);
  if (edits.length === 0) return { text: manifest.text, edits: 0, skipped: 0 };
  const text = manifest.text;
  // Fresh documents: the checked ones stay as they were read.
  const documents = parseAllDocuments(text, { uniqueKeys: false }) as Document.Parsed[];
  let out = '';
  let from = 0;
  let written = 0;
  documents.forEach((doc, index) => {
    const end = doc.range[2];
    const original = text.slice(from, end);
    const own = edits.filter((e) => e.document === index && e.op !== 'add-document');
    if (own.length === 0) {
      out += original;
    } else {
      for (const edit of own) if (apply(doc, edit)) written++;
      out += doc.toString({
        lineWidth: 0,
        minContentWidth: 0,
        indentSeq: sequencesIndented(original),
        flowCollectionPadding: /[[{] \S/.test(original.replace(/(^|\s)#.*$/gm, '')),
      });
    }
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
  return { text: out, edits: written, skipped: edits.length - written };
}
