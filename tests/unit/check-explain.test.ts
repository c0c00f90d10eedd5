// `hitless check --explain`: the workload model the rules run on (issue #30, item 1), and pods, ReplicaSets and Jobs
// read as workloads, with a controller-made object's fixes turned into what to change in its owner. The expected
// values are read off the manifests below by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { explainManifest, type Explanation } from '../../src/check/index.ts';
import { check, only, profiles, vllm } from '../support/check.ts';

const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));
const run = (args: string[], input: string) =>
  spawnSync(process.execPath, [BIN, ...args], { input, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });

function explained(text: string, settings: Record<string, string> = {}): Explanation {
  const result = explainManifest(text, settings, profiles);
  if (!result.ok) assert.fail(result.problem.message);
  return result.explanation;
}

const POD_WITH_HELPERS = `apiVersion: apps/v1
kind: Deployment
metadata: {name: chat}
spec:
  replicas: 4
  selector: {matchLabels: {app: chat}}
  template:
    metadata: {labels: {app: chat}}
    spec:
      initContainers:
      - name: fetch
        image: busybox:1.36
      - name: mesh
        image: example.com/mesh/proxy:1.2
        restartPolicy: Always
      containers:
      - name: server
        image: vllm/vllm-openai:v0.19.1
        command: ["vllm", "serve", "Qwen/Qwen3-8B"]
        resources: {limits: {nvidia.com/gpu: 2}}
      - name: metrics
        image: example.com/exporter:3
`;

test('each container is classified: the server with its release and evidence, a native sidecar, an init, a helper', () => {
  const e = explained(POD_WITH_HELPERS);
  assert.equal(e.workloads.length, 1);
  const w = e.workloads[0];
  assert.equal(w.object, 'Deployment/chat');
  assert.equal(w.replicas, 4);
  assert.equal(w.checked, true);
  assert.deepEqual(w.server, { id: 'vllm', recognised: true });
  const byName = Object.fromEntries(w.templates[0].containers.map((c) => [c.name, c]));
  assert.equal(byName.server.role, 'serving');
  assert.equal(byName.server.server, 'vllm');
  assert.equal(byName.server.release, '0.19.1');
  assert.equal(byName.server.confidence, 'high');
  assert.deepEqual(byName.server.evidence, ['command vllm serve', "image is vLLM's", 'requests 2 GPUs']);
  assert.equal(byName.server.at, 'containers[0]');
  assert.equal(byName.metrics.role, 'sidecar');
  assert.equal(byName.metrics.confidence, 'none');
  assert.equal(byName.mesh.role, 'sidecar');
  assert.equal(byName.mesh.at, 'initContainers[1]');
  assert.equal(byName.fetch.role, 'init');
  assert.equal(byName.fetch.at, 'initContainers[0]');
});

test('each input says where it came from: read from the manifest, given by the reader, or assumed', () => {
  const e = explained(POD_WITH_HELPERS, { 'max-output-tokens': '1024' });
  const input = (flag: string) => e.workloads[0].inputs.find((i) => i.flag === flag);
  assert.deepEqual(input('replicas'), {
    flag: 'replicas',
    value: '4',
    source: 'read',
    from: 'Deployment/chat spec.replicas',
  });
  assert.deepEqual(input('max-output-tokens'), {
    flag: 'max-output-tokens',
    value: '1024',
    source: 'given',
    from: '--max-output-tokens',
  });
  assert.equal(input('spare-gpus')?.source, 'assumed');
  assert.equal(input('model')?.value, 'Qwen/Qwen3-8B');
  assert.equal(input('model')?.source, 'read');
  assert.deepEqual(e.gateway.source, 'default');
});

test('a LeaderWorkerSet: the worker template is explained with its multi-node workers; a KServe object is named', () => {
  const lws = `apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: big}
spec:
  replicas: 2
  leaderWorkerTemplate:
    size: 4
    leaderTemplate:
      spec:
        containers:
        - name: leader
          image: vllm/vllm-openai:v0.19.1
          command: ["sh", "-c", "exec vllm serve m --tensor-parallel-size 8"]
          resources: {limits: {nvidia.com/gpu: 8}}
    workerTemplate:
      spec:
        containers:
        - name: worker
          image: vllm/vllm-openai:v0.19.1
          command: ["sh", "-c", "ray start --block --address=$(LWS_LEADER_ADDRESS):6379"]
          resources: {limits: {nvidia.com/gpu: 8}}
---
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: isvc}
spec: {predictor: {model: {modelFormat: {name: huggingface}}}}
`;
  const e = explained(lws);
  const w = e.workloads[0];
  assert.equal(w.groupSize, 4);
  assert.deepEqual(
    w.templates.map((t) => [t.role, t.path, t.containers.map((c) => c.role)]),
    [
      ['leader', 'spec.leaderWorkerTemplate.leaderTemplate', ['serving']],
      ['worker', 'spec.leaderWorkerTemplate.workerTemplate', ['multi-node worker']],
    ],
  );
  // The worker's image is vLLM's, but it runs ray: medium confidence, from the image alone.
  assert.equal(w.templates[1].containers[0].confidence, 'medium');
  assert.deepEqual(e.controllerManaged, [{ object: 'InferenceService/isvc', controller: 'KServe' }]);
});

const POD = (owner: string) => `apiVersion: v1
kind: Pod
metadata:
  name: chat-7d9f8-x2x9q
  labels: {app: chat}
${owner}spec:
  terminationGracePeriodSeconds: 125
  containers:
  - name: vllm
    image: vllm/vllm-openai:v0.18.1
    args: ["--model", "Qwen/Qwen3-32B", "--port", "8000", "--shutdown-timeout=75"]
    ports: [{name: http, containerPort: 8000}]
    resources: {limits: {nvidia.com/gpu: 1}}
    readinessProbe: {httpGet: {path: /v1/models, port: http}, periodSeconds: 5, failureThreshold: 3}
`;

test('a Pod is checked as a workload; one a controller made gets what to change in its owner, not an edit', () => {
  // No preStop: with the test settings (GKE, 30 s removal p99 + 5 s margin) the hook to add sleeps 35 s.
  const bare = only(check(POD('')), 'prestop-missing');
  assert.equal(bare.object, 'Pod/chat-7d9f8-x2x9q');
  assert.equal(bare.remedy, 'applied');
  const owned = only(
    check(
      POD(
        '  ownerReferences:\n  - {apiVersion: apps/v1, kind: ReplicaSet, name: chat-7d9f8, controller: true, uid: u}\n',
      ),
    ),
    'prestop-missing',
  );
  assert.equal(owned.remedy, 'manual');
  assert.match(
    owned.fix!.text,
    /in ReplicaSet\/chat-7d9f8, which makes this Pod \(or in the fields its controller passes on\)/,
  );
  assert.equal(owned.fix!.edits.length, 0);
});

test('a Deployment without preStop stays fixable (no owner)', () => {
  const text = vllm({ lifecycle: '' });
  assert.equal(only(check(text), 'prestop-missing').remedy, 'applied');
});

test('hitless check --explain prints the model (text and JSON) and exits 0; other formats are refused', () => {
  const text = run(['check', '-', '--explain'], POD_WITH_HELPERS);
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /^Gateway: GKE Gateway \(assumed: the default\)\n/);
  assert.match(
    text.stdout,
    /\n {4}containers\[0\] server: serving; vllm 0\.19\.1, confidence high; image vllm\/vllm-openai:v0\.19\.1\n/,
  );
  assert.match(text.stdout, /\n {4}replicas 4: read \(Deployment\/chat spec\.replicas\)\n/);
  const json = run(['check', '-', '--explain', '--format', 'json'], POD_WITH_HELPERS);
  assert.equal(json.status, 0, json.stderr);
  assert.equal(JSON.parse(json.stdout).workloads[0].object, 'Deployment/chat');
  const diff = run(['check', '-', '--explain', '--format', 'diff'], POD_WITH_HELPERS);
  assert.equal(diff.status, 2);
  assert.match(diff.stderr, /--explain prints text or --format json, not --format diff/);
});
