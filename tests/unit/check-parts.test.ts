// The CLI checks large inputs in parts (src/drain/check/check-parts.ts). Checked in parts of one group per batch, every
// fixture and every concatenation of fixtures must give what the whole check gives: the same findings (documents and
// lines of the whole input), counts, workloads and settings. The whole check is the reference here, not the result.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { checkManifest } from '../../src/check/index.ts';
import { checkParts } from '../support/check-parts.ts';
import { splitDocuments } from '../../src/check/read/split-documents.ts';
import { profiles } from '../support/check.ts';

const FIXTURES = ['deployments', 'check', 'policy', 'gateways'].flatMap((dir) => {
  const url = new URL(`../fixtures/${dir}/`, import.meta.url);
  return readdirSync(url)
    .filter((n) => n.endsWith('.yaml'))
    .sort()
    .map((n) => ({ name: `${dir}/${n}`, text: readFileSync(new URL(n, url), 'utf8') }));
});

/** The parts of a whole check that the CLI prints. */
function printed(result: ReturnType<typeof checkManifest> | ReturnType<typeof checkParts>) {
  if (!result.ok) return { problem: result.problem };
  const { findings, counts, workloads, found, inputs, generator, checkedFor, workloadDocuments } = result.report;
  return {
    findings: findings.map(({ fix, ...f }) => ({ ...f, fix: fix?.text })),
    counts,
    workloads,
    found,
    inputs,
    generator,
    checkedFor,
    workloadDocuments,
  };
}

function assertSame(text: string, label: string, settings: Record<string, string> = {}): void {
  const whole = printed(checkManifest(text, settings, profiles));
  const parts = printed(checkParts(splitDocuments(text), settings, profiles, { bytes: 1, parts: 1 }));
  assert.deepEqual(parts, whole, label);
}

test('each fixture checked in parts gives the whole check\u2019s report', () => {
  assert.ok(FIXTURES.length >= 40, `${FIXTURES.length} fixtures`);
  for (const f of FIXTURES) assertSame(f.text, f.name);
  for (const f of FIXTURES.slice(0, 8)) assertSame(f.text, `${f.name} for istio`, { gateway: 'istio' });
});

test('concatenated fixtures checked in parts give the whole check\u2019s report (pools, policies and notes across parts)', () => {
  const body = (t: string) => (t.endsWith('\n') ? t : `${t}\n`);
  for (let i = 0; i < FIXTURES.length; i += 5) {
    const group = FIXTURES.slice(i, i + 5);
    assertSame(group.map((f) => body(f.text)).join('---\n'), group.map((f) => f.name).join(' + '));
  }
  assertSame(FIXTURES.map((f) => body(f.text)).join('---\n'), 'all fixtures');
});

test('a pool that selects nothing and a policy for a missing pool are related as the whole check relates them', () => {
  const text = `apiVersion: v1
kind: ConfigMap
metadata: {name: a}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: first}
spec:
  template:
    metadata: {labels: {app: first}}
    spec:
      containers: [{name: vllm, image: "vllm/vllm-openai:v0.18.1", args: ["--model", "m"], resources: {limits: {nvidia.com/gpu: 1}}}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: b}
---
apiVersion: inference.networking.k8s.io/v1
kind: InferencePool
metadata: {name: typo}
spec:
  selector: {matchLabels: {app: frist}}
  targetPorts: [{number: 8000}]
---
apiVersion: networking.gke.io/v1
kind: GCPBackendPolicy
metadata: {name: p}
spec:
  targetRef: {group: inference.networking.k8s.io, kind: InferencePool, name: missing}
  default: {timeoutSec: 30}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: d}
---
# only a comment
---
- a list
`;
  assertSame(text, 'pool, policy, ignored kinds and a stray');
  const checked = checkParts(splitDocuments(text), {}, profiles, { bytes: 1, parts: 1 });
  assert.ok(checked.ok);
  // Worked out by hand: four ConfigMaps make one note naming three and one more; the pool's typo is an error.
  assert.ok(
    checked.report.findings.some(
      (f) => f.code === 'unknown-kind' && /ConfigMap\/a, ConfigMap\/b, ConfigMap\/c and 1 more/.test(f.message),
    ),
  );
  assert.ok(
    checked.report.findings.some((f) => f.code === 'pool-selector-mismatch' && f.document === 4 && f.line === 22),
  );
  assert.ok(
    checked.report.findings.some(
      (f) => f.code === 'unknown-kind' && f.document === 9 && /^Document 9 is a list/.test(f.message),
    ),
  );
});

test('a problem in a part is reported at the whole input\u2019s line and document', () => {
  const text =
    'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: [1, 2\nx: 1\n';
  assertSame(text, 'YAML error in the second document');
  // The second document alone is refused (document-refused), on line 8 of the input, where the flow list is cut off.
  const checked = checkParts(splitDocuments(text), {}, profiles, { bytes: 1, parts: 1 });
  assert.ok(checked.ok);
  const refused = checked.report.findings.filter((f) => f.code === 'document-refused');
  assert.deepEqual(
    refused.map((f) => [f.document, f.line]),
    [[2, 8]],
  );
  assert.match(refused[0].message, /^Not valid YAML at line 8, column \d+: /);
  // Alone (no object beside it), a broken document is still the input's problem.
  const alone = checkParts(splitDocuments('apiVersion: v1\nkind: ConfigMap\nmetadata: [1, 2\nx: 1\n'), {}, profiles);
  assert.ok(!alone.ok);
  assert.equal(alone.problem.line, 4);
});

test('one group larger than the page’s limits (600 Deployments one pool selects) is checked whole, not refused', () => {
  // Each Deployment has no preStop hook; all carry the pool's selector label, so the 601 documents are one group,
  // which the CLI cannot split. The page's limit is 500 documents per input; the CLI promises no cap.
  const deployment = (i: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: shard-${i}, labels: {app: shard-${i}}}
spec:
  selector: {matchLabels: {app: shard-${i}}}
  template:
    metadata: {labels: {app: shard-${i}, pool: big}}
    spec:
      containers:
      - name: vllm
        image: vllm/vllm-openai:v0.18.1
        args: ["--model", "Qwen/Qwen3-8B", "--port", "8000"]
        ports: [{containerPort: 8000}]
`;
  const pool = `apiVersion: inference.networking.k8s.io/v1
kind: InferencePool
metadata: {name: big}
spec:
  selector: {matchLabels: {pool: big}}
  targetPorts: [{number: 8000}]
  endpointPickerRef: {name: big-epp, port: {number: 9002}}
`;
  const text = [...Array.from({ length: 600 }, (_, i) => deployment(i + 1)), pool].join('---\n');
  const result = checkParts(splitDocuments(text), {}, profiles);
  assert.ok(result.ok, result.ok ? '' : result.problem.message);
  assert.equal(result.report.workloads, 600);
  const missing = result.report.findings.filter((f) => f.code === 'prestop-missing');
  assert.equal(missing.length, 600);
  // The Deployments are documents 1 to 600, in order; the pool is 601.
  assert.deepEqual(
    [missing[0].document, missing.at(-1)!.document, missing[0].object, missing.at(-1)!.object],
    [1, 600, 'Deployment/shard-1', 'Deployment/shard-600'],
  );
});

test('parts in the plain style (read by the quick reader in both passes) give the whole check’s report and lines', () => {
  // Deployment + InferencePool pairs as teams write them, in block and flow style, a few with what the quick reader
  // leaves to the full parse (a comment after a value, a block scalar), so that batches of both kinds are checked.
  const pair = (i: number) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: chat-${i}
  namespace: team-${i % 3}
  labels: {app: chat-${i}}
spec:
  replicas: ${i % 4}
  selector: {matchLabels: {app: chat-${i}}}
  template:
    metadata: {labels: {app: chat-${i}}}
    spec:
      terminationGracePeriodSeconds: ${i % 2 === 0 ? 130 : 30}
      containers:
      - name: vllm
        image: 'vllm/vllm-openai:v0.18.1'
        args: ["--model", "Qwen/Qwen3-8B", "--port", "8000"]
        ports: [{containerPort: 8000, name: http}]${i % 5 === 0 ? ' # the server port' : ''}
        readinessProbe:
          httpGet: {path: /health, port: 8000}
          periodSeconds: 5
        resources: {limits: {nvidia.com/gpu: 1, memory: 40Gi}}${i % 7 === 0 ? '\n        command: |\n          vllm serve' : ''}
---
apiVersion: inference.networking.k8s.io/v1
kind: InferencePool
metadata: {name: chat-${i}, namespace: team-${i % 3}}
spec:
  selector: {matchLabels: {app: chat-${i % 9 === 0 ? 'typo' : i}}}
  targetPorts: [{number: 8000}]
`;
  const text = Array.from({ length: 30 }, (_, i) => pair(i + 1)).join('---\n');
  assertSame(text, 'plain pairs');
  const whole = printed(checkManifest(text, {}, profiles));
  const parts = printed(checkParts(splitDocuments(text), {}, profiles));
  assert.deepEqual(parts, whole, 'plain pairs in batches of the default size');
  // Worked out by hand: pair 9's pool (document 18) selects app: chat-typo. A pair is 29 lines (the Deployment 22,
  // `---`, the pool 6), pair 7 two more (its block scalar), and the join puts a `---` line after each pair: pair 9
  // starts after 8 * 29 + 2 + 8 = 242 lines, and its pool's selector is the pair's line 28.
  const parted = checkParts(splitDocuments(text), {}, profiles);
  assert.ok(parted.ok);
  const mismatch = parted.report.findings.find((f) => f.code === 'pool-selector-mismatch' && f.document === 18);
  assert.equal(mismatch?.line, 242 + 28);
});
