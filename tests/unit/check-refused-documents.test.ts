/**
 * One refused document does not stop the others (#34): a document that is not valid YAML, repeats a key, nests too
 * deep or names an alias before its anchor is a document-refused finding on that document, and the Deployment beside
 * it is checked as if alone. Only where an error hides where its document ends is the whole input refused. Inputs and
 * expected lines are written by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, codes, only, problem, vllm } from '../support/check.ts';

/** A Deployment with a quoted replica count: value-rejected on line 6 of its document, whatever is beside it. */
const DEPLOYMENT = vllm({ replicas: 'replicas: "3"' });
/** The lines of DEPLOYMENT (it ends with a newline), so the line of the document after it is this + 2. */
const DEPLOYMENT_LINES = DEPLOYMENT.split('\n').length - 1;

/** The Deployment, then `bad` as the second document: the findings of both. */
function besideDeployment(bad: string) {
  const report = check(`${DEPLOYMENT}---\n${bad}`);
  const rejected = only(report, 'value-rejected');
  assert.equal(rejected.document, 1);
  assert.equal(rejected.line, 6, 'replicas is line 6 of the Deployment');
  assert.match(rejected.message, /^replicas: "3" is a string, not a number/);
  const refused = only(report, 'document-refused');
  assert.equal(refused.document, 2);
  return { report, refused };
}

test('alone, each broken document is still the input\u2019s problem, with its line', () => {
  assert.equal(problem('apiVersion: v1\nkind: ConfigMap\nmetadata: [1, 2\nx: 1\n').line, 4);
  assert.match(problem('a: 1\na: 2\n').message, /^Not valid YAML at line 2, column 1: the key "a" appears twice/);
});

test('a document that is not valid YAML beside a Deployment: a finding on it, and the Deployment is checked', () => {
  // The flow list opened on the ConfigMap's line 3 is cut off by `x: 1` on its line 4.
  const { report, refused } = besideDeployment('apiVersion: v1\nkind: ConfigMap\nmetadata: [1, 2\nx: 1\n');
  assert.deepEqual(codes(report).sort(), ['document-refused', 'no-pool', 'value-rejected']);
  const line = DEPLOYMENT_LINES + 1 + 4;
  assert.equal(refused.line, line);
  assert.match(refused.message, new RegExp(`^Not valid YAML at line ${line}, column \\d+: `));
  assert.equal(refused.severity, 'error');
});

test('a document that repeats a key beside a Deployment: a finding naming the key and its line', () => {
  const { refused } = besideDeployment('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\nkind: Secret\n');
  const line = DEPLOYMENT_LINES + 1 + 4;
  assert.equal(refused.line, line);
  assert.equal(
    refused.message,
    `Not valid YAML at line ${line}, column 1: the key "kind" appears twice in one mapping (map keys must be unique).`,
  );
});

test('a document nested 101 levels deep (block style) beside a Deployment: a finding, not a refused input', () => {
  // k0 at depth 2 (the root mapping is depth 1), k99 at 101: its value is the first node past 100.
  const deep = `${Array.from({ length: 101 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')} 1\n`;
  const { refused } = besideDeployment(deep);
  assert.equal(refused.message, 'Document 2 nests more than 100 levels deep; no Kubernetes object is that deep.');
});

test('a document with an alias before its anchor beside a Deployment: a finding on it', () => {
  const { refused } = besideDeployment('a: *x\nb: &x 1\n');
  assert.equal(refused.line, DEPLOYMENT_LINES + 2);
  assert.match(refused.message, /^Document 2 is not valid YAML: Unresolved alias/);
});

test('the other documents are checked whichever one is refused: first, middle or last', () => {
  const bad = 'kind: ConfigMap\nmetadata: [1, 2\nx: 1\n';
  const report = check(`${bad}---\n${DEPLOYMENT}---\n${bad}`);
  assert.deepEqual(
    report.findings.filter((f) => f.code === 'document-refused').map((f) => f.document),
    [1, 3],
  );
  assert.equal(only(report, 'value-rejected').document, 2);
});

test('an unclosed quote that runs past the next `---` hides where its document ends: the whole input is refused', () => {
  // The quoted scalar opened in document 2 swallows `---` and the ConfigMap after it, so the parser sees 2
  // documents where the text has 3 `---`-separated ones.
  const p = problem(`${DEPLOYMENT}---\nkind: ConfigMap\ndata: {a: "x\n---\nkind: ConfigMap\n`);
  assert.match(
    p.message,
    /^Not valid YAML at line \d+, column \d+: .*The error hides where its document ends, so no document was checked\.$/,
  );
});
