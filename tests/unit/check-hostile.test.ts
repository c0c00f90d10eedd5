// Untrusted input: each gets a clear message and bounded work, never an exception or a hang.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, codes, only, problem, vllm } from '../support/check.ts';

test('invalid YAML is reported with its line and column', () => {
  const p = problem('apiVersion: apps/v1\nkind: Deployment\nspec: [1, 2\nmetadata: {}\n');
  assert.equal(p.line, 4);
  assert.equal(p.column, 1);
  assert.match(p.message, /^Not valid YAML at line 4, column 1: /);
});

test('a duplicate key is invalid YAML, at the second key', () => {
  const p = problem('kind: Deployment\nkind: StatefulSet\n');
  assert.equal(p.line, 2);
  assert.equal(
    p.message,
    'Not valid YAML at line 2, column 1: the key "kind" appears twice in one mapping (map keys must be unique).',
  );
});

test('a Helm template gets a hint to render it first', () => {
  assert.match(
    problem('metadata:\n  labels: {{- include "x" . | nindent 4 }}\n').message,
    /render it first \(helm template/,
  );
});

test('unknown kinds are ignored with one note per kind', () => {
  const svc = (n: string) => `apiVersion: v1\nkind: Service\nmetadata: {name: ${n}}\n`;
  const report = check(
    [vllm(), svc('a'), svc('b'), svc('c'), svc('d'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n'].join(
      '---\n',
    ),
  );
  const notes = report.findings.filter((f) => f.code === 'unknown-kind');
  assert.equal(notes.length, 2);
  assert.ok(notes.every((f) => f.severity === 'info'));
  assert.match(
    notes[0].message,
    /^Ignored Service\/a, Service\/b, Service\/c and 1 more: the checker reads Deployment, StatefulSet, ReplicaSet, Job, Pod, LeaderWorkerSet, LLMInferenceService, LLMInferenceServiceConfig, InferencePool/,
  );
});

test('documents that are not objects are noted beside objects; an empty document is skipped', () => {
  const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n';
  const report = check(`just a string\n---\n---\n- a list\n---\n${cm}`);
  assert.deepEqual(
    report.findings.filter((f) => f.code === 'unknown-kind' && f.object === '').map((f) => f.message),
    [
      'Document 1 is a string, not a Kubernetes object; it was ignored.',
      'Document 3 is a list, not a Kubernetes object; it was ignored.',
    ],
  );
});

test('text that holds no Kubernetes object cannot be checked (exit 2), whatever YAML it is', () => {
  assert.match(
    problem('just a string\n---\n- a list\n').message,
    /^The input holds no Kubernetes object \(document 1 is a string, not a Kubernetes object\), so it cannot be checked/,
  );
  assert.match(problem('hello: world\n').message, /document 1 is a mapping without a kind/);
});

test('an alias bomb alone is refused by its expanded size, quickly', () => {
  const levels = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < 9; i++)
    levels.push(
      `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10)
        .fill(`*${String.fromCharCode(96 + i)}`)
        .join(',')}]`,
    );
  const started = process.cpuUsage(); // CPU time: a busy machine does not fail it
  const p = problem(`${levels.join('\n')}\n`);
  // By hand: the root, 9 keys, a's list of 11 nodes and 8 lists of 1 + 10 aliases: 109 nodes. Expanded, a is 11 nodes,
  // b 1 + 10 × 11 = 111, … i 1,111,111,111 (ten ones): 1,234,567,899, plus the 9 keys and the root.
  assert.equal(
    p.message,
    'Document 1 has 109 nodes but 1,234,567,909 with its aliases (*name) expanded; the checker reads at most 131,072, as more is how alias bombs exhaust memory, so it was not checked.',
  );
  const used = process.cpuUsage(started);
  assert.ok((used.user + used.system) / 1000 < 10_000);
});

test('150 aliases of a small mapping in a ConfigMap pass, and the Deployment beside it is checked', () => {
  const cm = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: many}\ndata:\n  base: &b {a: "1"}\n  list:\n${Array.from({ length: 150 }, () => '    - *b').join('\n')}\n`;
  assert.deepEqual(codes(check(`${vllm()}---\n${cm}`)), ['no-pool', 'unknown-kind']);
});

test('a bomb beside a Deployment is a finding on its document, and the Deployment is still checked', () => {
  const bomb = `a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [${Array(10).fill('*a').join(', ')}]\nc: &c [${Array(10).fill('*b').join(', ')}]\nd: &d [${Array(10).fill('*c').join(', ')}]\ne: &e [${Array(10).fill('*d').join(', ')}]\nf: [${Array(10).fill('*e').join(', ')}]\n`;
  const report = check(`${vllm()}---\n${bomb}`);
  assert.deepEqual(codes(report), ['document-refused', 'no-pool']);
  // 1 root + 6 keys + a (11) + b … f (1 + 10 aliases each): 73 nodes. Expanded: 7 + 11 + 111 + … + 1,111,111.
  assert.equal(
    only(report, 'document-refused').message,
    'Document 2 has 73 nodes but 1,234,573 with its aliases (*name) expanded; the checker reads at most 131,072, as more is how alias bombs exhaust memory, so it was not checked.',
  );
});

test('a mapping with 15,000 keys is read in one pass (no pairwise key comparison)', () => {
  // This process's CPU time, not the wall clock, so other work on the machine does not fail the test.
  const started = process.cpuUsage();
  const keys = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n${Array.from({ length: 15_000 }, (_, i) => `  k${i}: "1"`).join('\n')}\n`;
  assert.deepEqual(codes(check(keys)), ['workload-skipped', 'unknown-kind']);
  assert.match(
    problem(`${keys}  k7: "2"\n`).message,
    /line 15005, column 3: the key "k7" appears twice in one mapping/,
  );
  const used = process.cpuUsage(started);
  assert.ok((used.user + used.system) / 1000 < 10_000);
});

test('a few aliases, as in real manifests, are fine', () => {
  const text = vllm({ replicas: 'replicas: &n 3' }).replace(
    'maxUnavailable: 1',
    'maxUnavailable: 1\n  minReadySeconds: *n',
  );
  assert.deepEqual(codes(check(text)), ['no-pool']);
});

test('an alias used before its anchor is invalid YAML, said so', () => {
  assert.match(
    problem('a: *x\nb: &x 1\n').message,
    /^Document 1 is not valid YAML: Unresolved alias \(the anchor must be set before the alias\): x\.$/,
  );
});

test('input over 256 KiB is refused and the message says the limit; exactly 256 KiB is read', () => {
  const limit = 256 * 1024;
  assert.match(
    problem(`#${'x'.repeat(limit)}\n`).message,
    /^The input is 257 KiB; the checker reads at most 256 KiB\./,
  );
  assert.match(
    problem(`#${'x'.repeat(limit - 2)}\n`).message,
    /holds no Kubernetes object/,
    'read (not refused for size), and found empty',
  );
  // 100,000 euro signs are 100,000 characters but 300,000 bytes of UTF-8.
  assert.match(problem(`# ${'\u20ac'.repeat(100_000)}\n`).message, /at most 256 KiB/);
});

test('binary data is refused, pointing at the first byte that is not text', () => {
  const nul = problem('kind: Deployment\nab\u0000cd\n');
  assert.equal(nul.line, 2);
  assert.equal(nul.column, 3);
  assert.match(nul.message, /a NUL byte, so it looks like binary data/);
  assert.match(problem('kind: \uFFFD\n').message, /bytes that are not UTF-8/);
  assert.match(problem('\u001b[31mred\n').message, /control character U\+001B/);
});

test('nesting deeper than 100 levels is refused, flow or block, with its place', () => {
  const flow = problem(`a: ${'['.repeat(150)}${']'.repeat(150)}\n`);
  assert.match(flow.message, /more than 100 levels/);
  assert.equal(flow.line, 1);
  const block = problem(`${Array.from({ length: 120 }, (_, i) => `${' '.repeat(i)}a:`).join('\n')} 1\n`);
  assert.match(block.message, /Document 1 nests more than 100 levels deep/);
  assert.equal(block.line, 101);
  assert.match(
    problem(`a: ${'['.repeat(20)}${']'.repeat(20)}\n`).message,
    /a mapping without a kind/,
    'read, and found to hold no object',
  );
});

test('an empty input, and too many documents, are refused', () => {
  assert.match(problem(' \n\n').message, /The input is empty/);
  assert.match(
    problem(Array(501).fill('a: 1\n').join('---\n')).message,
    /501 YAML documents; the checker reads at most 500/,
  );
});

test('Windows line endings and a byte-order mark are read like any manifest', () => {
  const text = `\uFEFF${vllm({ lifecycle: '' }).replaceAll('\n', '\r\n')}`;
  assert.equal(only(check(text), 'prestop-missing').line, 23);
});
