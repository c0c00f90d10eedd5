// A large input checked in parts (src/drain/check/check-parts.ts), with related objects far apart: every pool at the
// other end of the input from its Deployment, routes naming pools before the pools come, two Deployments of one name in
// two namespaces. The report must be the one of the same objects checked as one manifest (every part read and joined,
// then checked at once), whatever the window the first pass keeps and whatever the batch size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRead } from '../../src/drain/check/check.ts';
import { checkParts } from '../../src/drain/check/check-parts.ts';
import { joinManifests, readManifest } from '../../src/drain/check/read-manifest.ts';
import { splitDocuments } from '../../src/drain/check/split-documents.ts';
import { profiles } from '../support/check.ts';

const PAIRS = 900;

function deployment(i: number, namespace: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: chat-${i % 450}, namespace: ${namespace}}
spec:
  replicas: ${1 + (i % 3)}
  selector: {matchLabels: {app: chat-${i}}}
  template:
    metadata: {labels: {app: chat-${i}}}
    spec:
      terminationGracePeriodSeconds: ${30 + (i % 5) * 60}
      containers:
      - name: vllm
        image: vllm/vllm-openai:v0.18.1
        args: ["--model", "Qwen/Qwen3-8B", "--port", "8000"]
        resources: {limits: {nvidia.com/gpu: 1}}
`;
}

function pool(i: number, namespace: string): string {
  return `apiVersion: inference.networking.k8s.io/v1
kind: InferencePool
metadata: {name: pool-${i}, namespace: ${namespace}}
spec:
  selector: {matchLabels: {app: chat-${i}}}
  targetPorts: [{number: ${i % 10 === 0 ? 9000 : 8000}}]
`;
}

function route(i: number, namespace: string): string {
  return `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: route-${i}, namespace: ${namespace}}
spec:
  rules:
  - backendRefs: [{group: inference.networking.k8s.io, kind: InferencePool, name: pool-${i}}]
`;
}

/** Routes for every 50th pool first, then the Deployments, then the pools in reverse order. */
function largeInput(): string {
  const ns = (i: number) => (i < 450 ? 'team-a' : 'team-b');
  const docs: string[] = [];
  for (let i = 0; i < PAIRS; i += 50) docs.push(route(i, ns(i)));
  for (let i = 0; i < PAIRS; i++) docs.push(deployment(i, ns(i)));
  docs.push('# a comment alone\n');
  for (let i = PAIRS - 1; i >= 0; i--) docs.push(pool(i, ns(i)));
  return docs.join('---\n');
}

function printed(result: ReturnType<typeof checkParts>) {
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

test('a large input with related objects far apart, checked in parts, gives the report of one manifest', () => {
  const text = largeInput();
  const parts = splitDocuments(text);
  assert.equal(parts.length, 18 + 2 * PAIRS + 1);
  const joined = joinManifests(
    parts.map((p) => {
      const read = readManifest(p.text);
      assert.ok(read.ok);
      return { manifest: read.manifest, lineOffset: p.line - 1 };
    }),
  );
  const whole = checkRead(joined, {}, profiles, {});
  const expected = printed(whole);
  assert.ok(whole.ok);
  // Worked out by hand: 900 Deployments, each with its pool; every 10th pool targets port 9000, which no container serves.
  assert.equal(whole.report.workloads, PAIRS);
  // Every 10th pool targets 9000 while its server listens on 8000 (--port): 90 errors, one on each of those pools.
  const wrongPort = whole.report.findings.filter((f) => f.code === 'pool-port-not-exposed' && f.severity === 'error');
  assert.equal(wrongPort.length, PAIRS / 10);
  // The pools come last, in reverse: pool-0 is the input's last document (18 routes, 900 Deployments, a comment).
  assert.equal(wrongPort.at(-1)?.document, 18 + PAIRS + 1 + PAIRS);
  // 900 Deployments are 450 names in two namespaces, team-b's alike team-a's: of two alike findings the first in the
  // input stays, so no Deployment finding is on team-b's documents (19 to 468 are team-a's, 469 to 918 team-b's).
  const onDeployments = whole.report.findings.filter((f) => f.object.startsWith('Deployment/'));
  assert.ok(onDeployments.length > 0);
  assert.deepEqual(
    onDeployments.filter((f) => f.document! > 18 + 450),
    [],
  );
  for (const limits of [
    undefined,
    { bytes: 8 * 1024, parts: 8 },
    { bytes: 64 * 1024, parts: 64, window: { bytes: 2 * 1024, parts: 2 } },
  ]) {
    assert.deepEqual(printed(checkParts(parts, {}, profiles, limits)), expected, JSON.stringify(limits));
  }
});

test('one group of more than 500 documents (a pool that selects 600 Deployments) is checked, not refused', () => {
  // Checked in batches of whole groups, this group was one text over the page's 500-document limit, and the CLI, which
  // has no limit, said "The input has 601 YAML documents". Each part is read alone, so the group is checked.
  const deployment = (i: number) => `apiVersion: apps/v1
kind: Deployment
metadata: {name: d-${i}}
spec:
  template:
    metadata: {labels: {app: one}}
    spec:
      containers: [{name: vllm, image: "vllm/vllm-openai:v0.18.1", args: ["--model", "m"], resources: {limits: {nvidia.com/gpu: 1}}}]
`;
  const poolText = `apiVersion: inference.networking.k8s.io/v1
kind: InferencePool
metadata: {name: p}
spec:
  selector: {matchLabels: {app: one}}
  targetPorts: [{number: 8000}]
`;
  const text = [...Array.from({ length: 600 }, (_, i) => deployment(i)), poolText].join('---\n');
  const checked = checkParts(splitDocuments(text), {}, profiles);
  assert.ok(checked.ok, checked.ok ? '' : checked.problem.message);
  assert.equal(checked.report.workloads, 600);
  assert.deepEqual(checked.report.workloadDocuments.slice(0, 3), [0, 1, 2]);
});
