// The quick reader of the first pass of a check in parts (src/drain/check/read-plain-yaml.ts) must give exactly what
// the full parse gives, or nothing. The reference is the yaml library itself (parseAllDocuments with the checker's
// options, then toJS), not the reader: on many generated documents, in the styles manifests are written in and with
// what the reader must leave to the full parse mixed in, every document it reads has the library's value; a few
// hand-written ones pin the values and the fallbacks down by hand.
import { KUBE_YAML } from '../../src/check/read/kube-yaml.ts';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { readPlainYaml } from '../../src/check/read/read-plain-yaml.ts';
import { lineAt, readManifest, type Manifest } from '../../src/check/read/read-manifest.ts';
import { readPlainManifest } from '../../src/check/read/read-plain-manifest.ts';
import { splitDocuments } from '../../src/check/read/split-documents.ts';
import type { Segment } from '../../src/check/read/path.ts';

/** What the checker's full parse gives for a one-document text, or undefined when it is not one valid document. */
function fullParse(text: string): unknown {
  // As the checker reads YAML: 1.1 with kubectl's numbers (read/kube-yaml.ts: `1:20:30` is a string, `0o36` is 30).
  const docs = parseAllDocuments(text, { ...KUBE_YAML, uniqueKeys: false });
  if (!Array.isArray(docs) || docs.length !== 1 || docs[0].errors.length > 0) return undefined;
  return docs[0].toJS();
}

test('a Deployment in the plain block style is read as written', () => {
  const text = `# a comment before the document
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: chat-1, namespace: team-1, labels: {app: chat-1}}
spec:
  replicas: 2

  template:
    # a comment inside
    spec:
      terminationGracePeriodSeconds: 130
      containers:
      - name: vllm
        image: vllm/vllm-openai:v0.18.1
        args: ["--model", "Qwen/Qwen3-8B", '--port', '8000']
        ports: [{containerPort: 8000, name: http}]
        resources: {limits: {nvidia.com/gpu: 1, memory: 40Gi}}
        env:
          - name: A
            value: 'it''s'
          - name: B
            value: "yes"
      nodeSelector:
      tolerations: []
`;
  assert.deepEqual(readPlainYaml(text), {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'chat-1', namespace: 'team-1', labels: { app: 'chat-1' } },
    spec: {
      replicas: 2,
      template: {
        spec: {
          terminationGracePeriodSeconds: 130,
          containers: [
            {
              name: 'vllm',
              image: 'vllm/vllm-openai:v0.18.1',
              args: ['--model', 'Qwen/Qwen3-8B', '--port', '8000'],
              ports: [{ containerPort: 8000, name: 'http' }],
              resources: { limits: { 'nvidia.com/gpu': 1, memory: '40Gi' } },
              env: [
                { name: 'A', value: "it's" },
                { name: 'B', value: 'yes' },
              ],
            },
          ],
          nodeSelector: null,
          tolerations: [],
        },
      },
    },
  });
});

test('plain scalars are YAML 1.1 values: booleans, nulls, octal and numbers with underscores', () => {
  const text = 'a: yes\nb: off\nc: ~x\nd: null\ne: 010\nf: 1_000\ng: 0x1F\nh: 1.5\ni: -1\nj: 25%\n';
  // `~x` is a string, but `~` starts no plain scalar the reader reads: the whole document goes to the full parse.
  assert.equal(readPlainYaml(text), undefined);
  assert.deepEqual(readPlainYaml(text.replace('c: ~x\n', '')), {
    a: true,
    b: false,
    d: null,
    e: 8,
    f: 1000,
    g: 31,
    h: 1.5,
    i: -1,
    j: '25%',
  });
});

test('what the reader does not read exactly is left to the full parse', () => {
  const base = 'kind: Deployment\nmetadata:\n  name: a\n';
  const unread = [
    'x: &a 1\ny: *a\n', // anchor and alias
    'x: !!str 1\n', // tag
    'x: |\n  text\n', // block scalar
    'x: >\n  text\n',
    'x: a\n  b\n', // a plain scalar over two lines
    'x: {a: 1,\n  b: 2}\n', // a flow mapping over two lines
    'x: "a\\tb"\n', // an escape
    'x:\ta\n', // a tab
    'x: a # comment\n', // a comment after content
    '? x\n: y\n', // an explicit key
    'kind: Service\n', // a repeated key (the full parse reports it)
    'metadata: {}\n', // a repeated key at the root
    'yes: 1\n', // a key YAML 1.1 reads as a boolean
    'x: 2001-12-14\n', // a timestamp
    'x: {a:b}\n', // a flow plain scalar with a colon
    'x: [a: b]\n', // a pair in a flow sequence
    'x: [a, ]\n', // a trailing comma
    'x: "{{ .Values.x }}"\n', // a Helm action
    'x: caf\u00e9\n', // non-ASCII text
    '- a\n', // a sequence where the mapping goes on
    'x:\n-\n  a: 1\n', // an item on the next line
    'x: - a\n', // an item after a key
    '__proto__: {}\n',
    'x:\n    a: 1\n  b: 2\n', // an indentation between two levels
  ];
  for (const extra of unread) assert.equal(readPlainYaml(base + extra), undefined, JSON.stringify(extra));
  assert.equal(readPlainYaml('- a\n- b\n'), undefined, 'a root that is not a mapping');
  assert.equal(readPlainYaml('---\nkind: A\n---\nkind: B\n'), undefined, 'two documents');
  assert.equal(readPlainYaml('a: 1\r\nb: 2\r\n'), undefined, 'CRLF');
  assert.deepEqual(readPlainYaml(`${base}x: [a]\n`), { kind: 'Deployment', metadata: { name: 'a' }, x: ['a'] });
});

/** A small seeded random source, so that a failing case can be rebuilt from its seed. */
function randomFrom(seed: number): (n: number) => number {
  let state = seed >>> 0 || 1;
  return (n) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

// Plain scalars, quoted ones and keys: mostly what manifests hold, with look-alikes and what the reader must refuse.
const PLAIN = [
  'a',
  'chat-1',
  'vllm/vllm-openai:v0.18.1',
  '8000',
  '0',
  '-1',
  '+1',
  '1.5',
  '.5',
  '1e3',
  '1E3',
  '0x1F',
  '0o17',
  '010',
  '08',
  '1_000',
  '12:30',
  '1:20:30',
  '2001-12-14',
  '2001-12-14t21:59:43.10-05:00',
  '40Gi',
  '500m',
  '1.5Gi',
  '25%',
  'yes',
  'No',
  'on',
  'OFF',
  'y',
  'n',
  'Y',
  'true',
  'False',
  'null',
  'Null',
  'NULL',
  '~',
  '.inf',
  '-.inf',
  '.NaN',
  'http://x:80/y',
  'a:b',
  'a, b',
  "it's",
  'say "hi"',
  'two words',
  'two  spaces',
  '--model',
  '-',
  '-a',
  'a -b',
  'x@sha256:ab',
  '/health',
  '1.0',
  '-0',
  '0.',
  '.',
  'a :b',
  'a: b',
  'a:',
  'Qwen/Qwen3-8B',
  '=',
  '<<',
  'abcdef',
  'nvidia.com/gpu',
  'TRUE',
  'yes!',
  'a#b',
  'a #b',
  '&a',
  '*a',
  '!t',
  '|',
  '>',
  '%x',
  '@x',
  '`x',
  '? x',
  'a?',
  '[',
  ']',
  'a[b',
  'a]b',
  'a{b',
  'a}b',
  '0b101',
  '+.5',
  '1.',
  '1e',
  '1e+3',
  '$HOME',
  'a=b',
  'a+b',
  '(x)',
  '^x',
  'offset',
  'nullable',
  'trueish',
  'y2',
  'n1',
  '_x',
  'x_',
  'abc.',
  '..',
  '...',
  '---x',
  '1-2',
  '1/2',
  '0:0',
];
const QUOTED = [
  '"a b"',
  "'it''s'",
  '"yes"',
  '"8000"',
  "''",
  '""',
  '"a\\"b"',
  '"a#b"',
  "'a\"b'",
  '"a: b"',
  "'a, b'",
  '"  x "',
  "'a''''b'",
  '"it\'s"',
  "'unclosed",
  '"unclosed',
];
const KEYS = [
  'a',
  'name',
  'app',
  'kind',
  'spec',
  'labels',
  'y',
  'on',
  'yes',
  'No',
  'null',
  'true',
  'nvidia.com/gpu',
  'app.kubernetes.io/name',
  '_x',
  '__proto__',
  'constructor',
  'toString',
  'k1',
  '1',
  '01',
  'a b',
  '"q"',
  "'q'",
  'a:b',
  'a-b',
  'x'.repeat(300),
  '<<',
  '?k',
  '-k',
  '~',
  'offset',
  'Off',
  'b',
  'c',
];

// What manifests hold most: most choices are of these, so that many documents are read, and some of the above.
const COMMON_PLAIN = [
  'a',
  'chat-1',
  'vllm/vllm-openai:v0.18.1',
  '8000',
  '40Gi',
  'two words',
  '/health',
  'true',
  '30',
  'Qwen/Qwen3-8B',
  '25%',
  'http://x:80/y',
  'IfNotPresent',
  '-1',
  '0.5',
];
const COMMON_QUOTED = ['"a b"', "'it''s'", '"8000"', '"--model"', "'x'", '"yes"'];
const COMMON_KEYS = [
  'name',
  'app',
  'spec',
  'labels',
  'image',
  'args',
  'ports',
  'nvidia.com/gpu',
  'app.kubernetes.io/name',
];

/** A YAML text for a random value in block and flow styles, with random spaces, comments and blank lines. */
function generateDocument(random: (n: number) => number): string {
  const pick = <T>(list: readonly T[]): T => list[random(list.length)];
  const odd = () => random(8) === 0;
  const scalar = (): string =>
    odd() ? (random(5) === 0 ? pick(QUOTED) : pick(PLAIN)) : random(4) === 0 ? pick(COMMON_QUOTED) : pick(COMMON_PLAIN);
  const key = (): string => (odd() ? pick(KEYS) : `${pick(COMMON_KEYS)}${random(4) === 0 ? '' : random(40)}`);
  const flow = (depth: number): string => {
    const n = random(4);
    const space = () => pick(['', ' ', '  ']);
    if (depth > 2 || random(3) === 0) return scalar();
    const items = Array.from({ length: n }, () =>
      random(2) === 0 ? `${key()}:${odd() ? pick(['', '  ']) : ' '}${flow(depth + 1)}` : flow(depth + 1),
    );
    const [open, close] = random(2) === 0 ? ['{', '}'] : ['[', ']'];
    const trailing = random(15) === 0 ? ',' : '';
    return `${open}${space()}${items.join(odd() ? pick([',', ' , ']) : ', ')}${trailing}${space()}${close}`;
  };
  const lines: string[] = [];
  const comment = (indent: number) => {
    if (random(12) === 0) lines.push(random(2) === 0 ? '' : `${' '.repeat(random(indent + 3))}# note`);
  };
  const value = (indent: number, depth: number): string | undefined => {
    const kind = depth > 4 ? random(3) : random(7);
    if (kind === 0 || kind === 1) return scalar();
    if (kind === 2) return flow(0);
    if (kind === 3) return '';
    if (kind === 4 || kind === 5) {
      mapping(indent + pick([2, 2, 4, 1]), depth + 1);
      return undefined;
    }
    sequence(random(2) === 0 ? indent : indent + 2, depth + 1);
    return undefined;
  };
  const entry = (prefix: string, indent: number, depth: number) => {
    const at = lines.length;
    lines.push('');
    const v = value(indent, depth);
    const tail = random(25) === 0 ? pick([' # c', '  ', '\t', ' ']) : '';
    const space = odd() ? pick(['  ', '']) : ' ';
    lines[at] = `${prefix}${key()}:${v === undefined || v === '' ? '' : space}${v ?? ''}${tail}`;
  };
  const mapping = (indent: number, depth: number, firstPrefix?: string) => {
    const n = 1 + random(4);
    for (let i = 0; i < n; i++) {
      comment(indent);
      entry(i === 0 && firstPrefix !== undefined ? firstPrefix : ' '.repeat(indent), indent, depth);
    }
  };
  const sequence = (indent: number, depth: number) => {
    const n = 1 + random(3);
    for (let i = 0; i < n; i++) {
      comment(indent);
      const dash = `${' '.repeat(indent)}-${odd() ? '  ' : ' '}`;
      if (random(2) === 0) mapping(dash.length, depth + 1, dash);
      else lines.push(`${dash}${random(3) === 0 ? flow(0) : scalar()}`);
    }
  };
  if (random(3) === 0) lines.push('# prelude');
  if (random(2) === 0) lines.push(pick(['---', '---', '--- ', '--- # c', '%YAML 1.1\n---']));
  if (random(30) === 0) sequence(0, 1);
  else mapping(random(20) === 0 ? 2 : 0, 1);
  if (random(30) === 0) lines.push(pick(['...', '---', 'x', '  y: 1']));
  return `${lines.join('\n')}${random(10) === 0 ? '' : '\n'}`;
}

test('on generated documents the quick reader gives the full parse’s value, or leaves the document to it', () => {
  let read = 0;
  let left = 0;
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
      const text = generateDocument(randomFrom(seed));
      const quick = readPlainYaml(text);
      if (quick === undefined) {
        left++;
        return;
      }
      read++;
      assert.deepStrictEqual(quick, fullParse(text), text);
      // The checker's own reader (guards, repeated keys, depth, aliases) accepts it too, with the same object.
      const manifest = readManifest(text);
      assert.ok(manifest.ok, text);
      if (manifest.manifest.objects.length === 1) assert.deepStrictEqual(manifest.manifest.objects[0].value, quick);
    }),
    { numRuns: 6000, seed: 16 },
  );
  // Both sides must be well exercised, or the comparison proves little.
  assert.ok(read >= 600, `the reader read ${read} of 6000 documents`);
  assert.ok(left >= 600, `the reader left ${left} of 6000 documents to the full parse`);
});

/** Every path into a value, and from each a step that is not there (a key, an index past the end, an index as text). */
function pathsOf(value: unknown, path: Segment[] = []): Segment[][] {
  const paths: Segment[][] = [path, [...path, 'absent'], [...path, 99]];
  if (Array.isArray(value)) {
    value.forEach((item, i) => paths.push(...pathsOf(item, [...path, i])));
    if (value.length > 0) paths.push([...path, '0'], [...path, '0', 'absent']);
  } else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) paths.push(...pathsOf(v, [...path, k]));
  }
  return paths;
}

test('a batch read by the quick reader gives each node the line the yaml Document gives it', () => {
  const random = randomFrom(7);
  const read: string[] = [];
  for (let tries = 0; read.length < 400 && tries < 20000; tries++) {
    // A Kubernetes object (with a kind), not one with a `---` line of its own (it would end the document the join
    // starts).
    const text = `kind: T${tries}\n${generateDocument(random)}`;
    if (text.endsWith('\n') && !/^---/m.test(text) && readPlainYaml(text) !== undefined) read.push(text);
  }
  assert.equal(read.length, 400);
  for (let i = 0; i < read.length; i += 8) {
    // Eight documents as one input, split into parts as the CLI splits it; the full parse reads the joined text.
    const joined = read.slice(i, i + 8).join('---\n');
    const texts = splitDocuments(joined).map((p) => p.text);
    assert.equal(texts.length, 8);
    const plain = readPlainManifest(texts);
    const full = readManifest(joined);
    assert.ok(full.ok, full.ok ? '' : `${full.problem.message}\n${joined}`);
    assert.ok(plain, joined);
    assert.deepStrictEqual(
      plain.objects.map((o) => o.value),
      full.manifest.objects.map((o) => o.value),
    );
    full.manifest.objects.forEach((object, document) => {
      for (const path of pathsOf(object.value))
        assert.equal(
          lineAt(plain, document, path),
          lineAt(full.manifest as Manifest, document, path),
          `${joined}\ndocument ${document} path ${JSON.stringify(path)}`,
        );
    });
  }
});

test('line numbers by hand: keys, items, flow collections and the root after comments', () => {
  const texts = ['# head\n---\nkind: A\nspec:\n  list:\n  - a\n  - {x: 1}\n', '---\nkind: B\n\nmeta: [p, q]\n'];
  const plain = readPlainManifest(texts)!;
  assert.equal(lineAt(plain, 0, []), 3);
  assert.equal(lineAt(plain, 0, ['spec', 'list', 1, 'x']), 7);
  assert.equal(lineAt(plain, 0, ['spec', 'list', 0]), 6);
  assert.equal(lineAt(plain, 0, ['spec', 'list', 5]), 5);
  assert.equal(lineAt(plain, 0, ['spec', 'gone', 'deeper']), 4);
  assert.equal(lineAt(plain, 1, []), 9);
  assert.equal(lineAt(plain, 1, ['meta', 1]), 11);
});
