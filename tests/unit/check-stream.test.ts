// `hitless check` streams a large input: read in chunks and split as it arrives (documentSplitter, readJoined), each
// part indexed and stored as it is split (readCheckInput), each batch's texts asked for only when it is checked and
// its findings handed on before the next batch is read (checkIndexedParts), the findings kept in a store with only
// what sorts and dedupes them in memory (storeFindings). Expected values are worked out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openByteStore, type ByteStore } from '../../src/cli/byte-store.ts';
import { storeFindings } from '../../src/cli/check-findings.ts';
import { readCheckInput, readJoined } from '../../src/cli/check-input.ts';
import { checkIndexedParts } from '../../src/check/check-parts.ts';
import type { Finding } from '../../src/check/rules/findings.ts';
import { indexParts } from '../../src/check/part-index.ts';
import { documentSplitter, splitDocuments } from '../../src/check/read/split-documents.ts';
import { profiles } from '../support/check.ts';

/** Split `text` pushed `size` characters at a time. */
function splitInPieces(text: string, size: number, firstLine = 1) {
  const splitter = documentSplitter(firstLine);
  const parts = [];
  for (let at = 0; at < text.length; at += size) parts.push(...splitter.push(text.slice(at, at + size)));
  parts.push(...splitter.end());
  return parts;
}

test('text split as it arrives gives the parts of the whole text, wherever the pieces end', () => {
  // Starts: line 3 (`---`), line 5 (`--- x`); `----` and ` ---` start nothing; a leading comment goes with the
  // document after it; `---` at the very end starts an empty last document.
  const text = '# head\n---\na: 1\nb: 2\n--- x\n----\n ---\n---';
  const expected = [
    { text: '# head\n---\na: 1\nb: 2\n', line: 1 },
    { text: '--- x\n----\n ---\n', line: 5 },
    { text: '---', line: 8 },
  ];
  for (const size of [1, 2, 3, 4, 5, 7, 100])
    assert.deepEqual(splitInPieces(text, size), expected, `pieces of ${size}`);
  assert.deepEqual(splitDocuments(text), expected);
  // `---` followed by a character that is not a space, tab or line break does not start a document, even when the
  // character comes in the next piece; at the end of the text it does.
  assert.deepEqual(splitInPieces('a\n---b\n', 5), [{ text: 'a\n---b\n', line: 1 }]);
  assert.deepEqual(splitInPieces('a\n---', 4), [
    { text: 'a\n', line: 1 },
    { text: '---', line: 2 },
  ]);
  // A comment alone is a part of its own; an empty input is one empty part.
  assert.deepEqual(splitInPieces('# only\n', 2), [{ text: '# only\n', line: 1 }]);
  assert.deepEqual(documentSplitter().end(), [{ text: '', line: 1 }]);
});

test('inputs read in chunks are joined as one text: a --- line between files, a line break added where missing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hitless-stream-test-'));
  try {
    const a = join(dir, 'a.yaml');
    const b = join(dir, 'b.yaml');
    const c = join(dir, 'c.yaml');
    writeFileSync(a, 'x: 1');
    writeFileSync(b, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('y: 2\n')]));
    writeFileSync(c, '');
    let text = '';
    const read = await readJoined([a, b, c], (piece) => {
      text += piece;
    });
    // a: line 1, then its added line break; the --- line is line 2; b (its byte order mark dropped) starts on
    // line 3; the --- line after it is line 4; c starts on line 5. a's start says the break was added (a diff of
    // a leaves it out again).
    assert.equal(text, 'x: 1\n---\ny: 2\n---\n');
    assert.deepEqual(read.starts, [
      { name: a, line: 1, addedBreak: true },
      { name: b, line: 3 },
      { name: c, line: 5 },
    ]);
    assert.deepEqual(read.unreadable, []);

    // A three-byte character across the first 64 KiB chunk's end is decoded whole.
    const big = join(dir, 'big.yaml');
    const body = `k: ${'a'.repeat(65_536 - 4)}\u20ac\n`;
    writeFileSync(big, body);
    assert.equal(Buffer.byteLength(body.slice(0, body.indexOf('\u20ac'))), 65_535);
    const pieces: string[] = [];
    await readJoined([big], (piece) => pieces.push(piece));
    assert.ok(pieces.length >= 2, `${pieces.length} pieces`);
    assert.equal(pieces.join(''), body);

    // Bytes that are not UTF-8 make the file unreadable; the other files are still read.
    const binary = join(dir, 'binary.yaml');
    writeFileSync(binary, Buffer.from([0x61, 0x3a, 0x20, 0xff, 0x0a]));
    const bad = await readJoined([binary, join(dir, 'missing.yaml')], () => {});
    assert.deepEqual(
      bad.unreadable.map((u) => u.problem),
      ['is not UTF-8 text; it looks like binary data, not a YAML manifest', 'does not exist'],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const configMap = (i: number) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-${i}}\ndata: {k: v}\n`;

test('an input over 500 documents is indexed and stored part by part, not kept as text', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hitless-stream-test-'));
  try {
    const file = join(dir, 'many.yaml');
    const text = Array.from({ length: 600 }, (_, i) => configMap(i)).join('---\n');
    writeFileSync(file, text);
    const input = await readCheckInput([file], profiles);
    assert.equal(input.kind, 'parts');
    if (input.kind !== 'parts') return;
    assert.equal(input.parts, 600);
    assert.equal(input.bytes, Buffer.byteLength(text));
    assert.equal(input.problem, undefined);
    // Every part is in the index (document i of the input is part i) and in the store, as splitDocuments cuts it.
    assert.equal(input.indexer!.indexes.length, 600);
    assert.deepEqual(
      input.indexer!.indexes.slice(0, 3).map((x) => [x.document, x.line, x.lines]),
      [
        [0, 1, 4],
        [1, 5, 5],
        [2, 10, 5],
      ],
    );
    const parts = splitDocuments(text);
    assert.equal(input.store!.size, 600);
    for (const i of [0, 1, 299, 599]) assert.equal(input.store!.text(i), parts[i].text);
    assert.equal('text' in input, false);
    input.store!.close();

    // Within the page's limits the input stays whole (and can be fixed).
    const small = join(dir, 'small.yaml');
    writeFileSync(small, configMap(1));
    const whole = await readCheckInput([small], profiles);
    assert.deepEqual(whole, { kind: 'whole', starts: [{ name: small, line: 1 }], text: configMap(1) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A vLLM Deployment without --shutdown-timeout (one drain-aborts-in-flight error) and the pool that selects it. */
const pair = (i: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: chat-${i}}
spec:
  selector: {matchLabels: {app: chat-${i}}}
  template:
    metadata: {labels: {app: chat-${i}}}
    spec:
      containers:
      - name: vllm
        image: vllm/vllm-openai:v0.18.1
        args: ["--model", "m", "--port", "8000"]
        ports: [{containerPort: 8000}]
        resources: {limits: {nvidia.com/gpu: 1}}
---
apiVersion: inference.networking.k8s.io/v1
kind: InferencePool
metadata: {name: chat-${i}}
spec:
  selector: {matchLabels: {app: chat-${i}}}
  targetPorts: [{number: 8000}]
  endpointPickerRef: {name: chat-${i}-epp, port: {number: 9002}}
`;

test('the second pass asks for a batch\u2019s parts only when it checks it, and hands its findings on before the next', () => {
  const parts = splitDocuments(Array.from({ length: 4 }, (_, i) => pair(i)).join('---\n'));
  assert.equal(parts.length, 8);
  const indexer = indexParts(profiles);
  for (const part of parts) assert.equal(indexer.add(part), undefined);
  const events: string[] = [];
  const result = checkIndexedParts(
    indexer,
    (i) => {
      events.push(`part ${i}`);
      return parts[i].text;
    },
    {},
    profiles,
    (f) => {
      if (f.code === 'drain-aborts-in-flight') events.push(`abort ${f.object} document ${f.document}`);
    },
    { bytes: 1_000_000, parts: 2 },
  );
  assert.ok(result.ok);
  // Each pair (a pool with the Deployment it selects) is one batch of two parts: its Deployment's error (on documents
  // 1, 3, 5, 7) comes before the next pair's parts are asked for.
  assert.deepEqual(events, [
    'part 0',
    'part 1',
    'abort Deployment/chat-0 document 1',
    'part 2',
    'part 3',
    'abort Deployment/chat-1 document 3',
    'part 4',
    'part 5',
    'abort Deployment/chat-2 document 5',
    'part 6',
    'part 7',
    'abort Deployment/chat-3 document 7',
  ]);
  assert.equal(result.ok && result.report.workloads, 4);
});

/** A finding with what sorting and deduping read. */
const finding = (code: string, severity: Finding['severity'], document?: number, line?: number, message = 'm') =>
  ({ code, severity, object: 'Deployment/a', path: 'spec', document, line, message, remedy: 'manual' }) as Finding;

/** A store that keeps its texts in memory (what openByteStore falls back to), counting them. */
function countingStore(): ByteStore & { appended: number } {
  const texts: string[] = [];
  const store = {
    kind: 'memory' as const,
    appended: 0,
    append(text: string) {
      store.appended++;
      return texts.push(text) - 1;
    },
    get size() {
      return texts.length;
    },
    text: (i: number) => texts[i],
    *texts(entries: Iterable<number>) {
      for (const i of entries) yield texts[i];
    },
    close() {},
  };
  return store;
}

test('stored findings are deduped, counted and sorted as dedupe and sortFindings do, when every hash collides too', () => {
  const arriving = [
    finding('w1', 'warning', 2, 5),
    finding('e2', 'error', 3, 1),
    { ...finding('w1', 'warning', 9, 9) }, // the same code, object, path and message as the first: a repeat
    finding('i4', 'info'),
    finding('e5', 'error', 1, 9),
    finding('e6', 'error', 1, 9),
    finding('e2', 'error', 3, 1, 'another message'), // not a repeat: its message differs
  ];
  // Errors by document and line (e5 and e6 on the same line in the order they came), then the warning, then the
  // note without a document; the repeat of w1 is left out.
  const expected = 'e5 e6 e2 e2 w1 i4 ';
  for (const hash of [undefined, () => 0]) {
    const stores: (ByteStore & { appended: number })[] = [];
    const found = storeFindings((f) => `${f.code} `, {
      hash,
      open: () => {
        stores.push(countingStore());
        return stores.at(-1)!;
      },
    });
    for (const f of arriving) found.add(f);
    assert.deepEqual(found.counts, { error: 4, warning: 1, info: 1 });
    assert.equal([...found.sorted()].join(''), expected, hash ? 'every hash the same' : 'FNV-1a');
    // Six printed findings and their six keys were stored.
    assert.deepEqual(
      stores.map((s) => s.appended),
      [6, 6],
    );
  }
});

test('the temporary store leaves no file behind and reads back what was written, in pieces', () => {
  const parent = mkdtempSync(join(tmpdir(), 'hitless-stream-test-'));
  const store = openByteStore(parent);
  try {
    // A file, removed as soon as it is open: nothing in its folder while it is in use.
    assert.equal(store.kind, 'file');
    assert.deepEqual(readdirSync(parent), []);
    const texts = ['one\n', 'zwei \u00fc\n', '\u20ac three\n', 'x'.repeat(300_000)];
    for (const t of texts) store.append(t);
    assert.equal(store.size, 4);
    assert.equal(store.text(1), 'zwei \u00fc\n');
    assert.equal(store.text(3), texts[3]);
    // Entries next to each other are read at once; out of order, each on its own.
    assert.deepEqual([...store.texts([0, 1, 2], 1024)], ['one\nzwei \u00fc\n\u20ac three\n']);
    assert.deepEqual([...store.texts([2, 0], 1024)], ['\u20ac three\n', 'one\n']);
  } finally {
    store.close();
    rmSync(parent, { recursive: true, force: true });
  }
});
