// `hitless check` has no document cap: 10,000 documents on stdin (over the page's 256 KiB and 500 documents) are all
// read and checked, in parts. Sized to run fast: most documents are ConfigMaps (read, indexed and named in one
// note), 100 are vLLM Deployments with their pools, and the last document is a stray list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));

const configMap = (i: number) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-${i}, namespace: apps}\ndata: {key: value-${i}}\n`;
const deployment = (i: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: chat-${i}, namespace: apps}
spec:
  replicas: 2
  selector: {matchLabels: {app: chat-${i}}}
  template:
    metadata: {labels: {app: chat-${i}}}
    spec:
      containers:
      - name: vllm
        image: vllm/vllm-openai:v0.18.1
        args: ["--model", "Qwen/Qwen3-8B", "--port", "8000"]
        ports: [{containerPort: 8000}]
        resources: {limits: {nvidia.com/gpu: 1}}
`;
const pool = (i: number) => `apiVersion: inference.networking.k8s.io/v1
kind: InferencePool
metadata: {name: chat-${i}, namespace: apps}
spec:
  selector: {matchLabels: {app: chat-${i}}}
  targetPorts: [{number: 8000}]
  endpointPickerRef: {name: chat-${i}-epp, port: {number: 9002}}
`;

test('10,000 documents on stdin are all checked (counts), with findings at the input\u2019s own lines', {
  timeout: 300_000,
}, () => {
  const documents: string[] = [];
  let deployments = 0;
  let configMaps = 0;
  for (let i = 0; documents.length < 9_999; i++) {
    if (i % 98 === 0 && deployments < 100) {
      documents.push(deployment(deployments), pool(deployments));
      deployments++;
    } else {
      documents.push(configMap(configMaps++));
    }
  }
  documents.push('- a stray list\n');
  assert.equal(documents.length, 10_000);
  const input = documents.join('---\n');
  const r = spawnSync(process.execPath, [BIN, 'check', '-', '--format', 'json'], {
    encoding: 'utf8',
    input,
    maxBuffer: 256 * 1024 * 1024,
  });
  assert.equal(r.stderr, '');
  assert.equal(r.status, 1, 'errors found');
  const out = JSON.parse(r.stdout) as {
    findings: { code: string; document?: number; line?: number; message: string; object: string }[];
  };
  // Every vLLM Deployment runs without --shutdown-timeout: one drain-aborts-in-flight error each, on its own document.
  const aborts = out.findings.filter((f) => f.code === 'drain-aborts-in-flight');
  assert.equal(aborts.length, 100);
  assert.equal(new Set(aborts.map((f) => f.object)).size, 100);
  // The ConfigMaps make one note: the first three by name and the rest counted.
  const ignored = out.findings.filter((f) => f.code === 'unknown-kind' && f.object);
  assert.equal(ignored.length, 1);
  assert.match(
    ignored[0].message,
    new RegExp(`^Ignored ConfigMap/cm-0, ConfigMap/cm-1, ConfigMap/cm-2 and ${configMaps - 3} more:`),
  );
  // The last document was read: the stray list is document 10,000, found at its `---` line (the last but one).
  const stray = out.findings.find((f) => f.code === 'unknown-kind' && !f.object);
  assert.equal(stray?.document, 10_000);
  assert.equal(stray?.line, input.split('\n').length - 2);
  // A finding's line is the input's: the last Deployment's args line.
  const last = aborts.find((f) => f.object === 'Deployment/chat-99')!;
  const lines = input.split('\n');
  assert.match(lines[last.line! - 1], /args: \["--model"/);
  assert.match(
    lines
      .slice(0, last.line! - 1)
      .reverse()
      .find((l) => l.startsWith('metadata:'))!,
    /name: chat-99,/,
  );
});

test('in an input checked in parts, a refused document is a finding at its own line and the others are checked', {
  timeout: 120_000,
}, () => {
  // 700 documents (over the page's 500, so the CLI reads in parts). Every document before the Deployment is 4
  // lines, and documents are joined by `---` lines: document k (from 1) starts on line (k - 1) × 5 + 1.
  const broken = 'apiVersion: v1\nkind: ConfigMap\nmetadata: [1, 2\nx: 1\n'; // cut off on its line 4
  const repeated = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: twice}\nkind: Secret\n'; // kind again, line 4
  const documents: string[] = [];
  for (let k = 1; k <= 698; k++) documents.push(k === 300 ? broken : k === 450 ? repeated : configMap(k));
  documents.push(deployment(0), pool(0));
  const r = spawnSync(process.execPath, [BIN, 'check', '-', '--format', 'json'], {
    encoding: 'utf8',
    input: documents.join('---\n'),
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(r.stderr, '');
  assert.equal(r.status, 1, 'errors found');
  const out = JSON.parse(r.stdout) as {
    findings: { code: string; document?: number; line?: number; message: string; object: string }[];
  };
  const refused = out.findings.filter((f) => f.code === 'document-refused');
  // Document 300's line 4 is line 299 × 5 + 4 = 1499; document 450's is 449 × 5 + 4 = 2249.
  assert.deepEqual(
    refused.map((f) => [f.document, f.line]),
    [
      [300, 1499],
      [450, 2249],
    ],
  );
  assert.match(refused[0].message, /^Not valid YAML at line 1499, column \d+: /);
  assert.equal(
    refused[1].message,
    'Not valid YAML at line 2249, column 1: the key "kind" appears twice in one mapping (map keys must be unique).',
  );
  // The Deployment after them (document 699) is checked: it runs vLLM without --shutdown-timeout.
  const aborts = out.findings.filter((f) => f.code === 'drain-aborts-in-flight');
  assert.deepEqual(
    aborts.map((f) => [f.document, f.object]),
    [[699, 'Deployment/chat-0']],
  );
});
