// An Argo Rollout copies spec.template into a ReplicaSet with one label added (argo-rollouts v1.9.1 rollout/sync.go,
// createDesiredReplicaSet; content/controllers/argo-rollouts.yaml), so its pods are checked and fixed in the Rollout.
// Numbers from the test settings: 10 ms × 4096 tokens × 1.2 → 50 s longest request, 75 s drain, 35 s preStop on the
// 30 s removal p99 + 5 s margin, 35 + 75 + 15 s teardown = 125 s grace (tests/support/check.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertFixSound, check, codes, docs, fixed, only } from '../support/check.ts';

const rollout = (template = 'template') => `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: chat
spec:
  replicas: 4
  strategy:
    canary:
      steps:
        - setWeight: 25
        - pause: {duration: 10m}
  selector:
    matchLabels: {app: chat}
  ${template}:
    metadata:
      labels: {app: chat}
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.19.0
          args: ["--model", "Qwen/Qwen3-8B", "--port", "8000"]
          ports: [{containerPort: 8000, name: http}]
          resources: {limits: {nvidia.com/gpu: 1}}
`;

test('an Argo Rollout is read through its template: the pod rules fire on it and its fixes land in it', () => {
  const report = check(rollout());
  assert.deepEqual(codes(report, 'error').sort(), ['drain-aborts-in-flight', 'prestop-missing', 'readiness-missing']);
  // 30 s (unset) is below the 35 s sleep the plan adds, which rests on the gateway's removal p99 (not named).
  const grace = only(report, 'grace-too-short');
  assert.equal(grace.severity, 'warning');
  assert.match(grace.message, /This rests on an assumed removal p99 .*until you give --gateway/);
  const missing = only(report, 'prestop-missing');
  assert.equal(missing.object, 'Rollout/chat');
  assert.equal(missing.path, 'spec.template.spec.containers[0].lifecycle');
  // The strategy is Argo's (canary steps), not a Deployment's: no Deployment strategy rule speaks of it.
  for (const code of ['surge-without-spare-gpus', 'strategy-recreate', 'progress-deadline-too-short'])
    assert.ok(!codes(report).includes(code), code);
  const out = assertFixSound(rollout());
  assert.match(out, /args: \["--model", "Qwen\/Qwen3-8B", "--port", "8000", --shutdown-timeout=75\]/);
  assert.match(out, /terminationGracePeriodSeconds: 125/);
  assert.match(out, /preStop:\n\s+sleep:\n\s+seconds: 35/);
  assert.equal(fixed(out), out);
});

test('a Rollout that takes its template from workloadRef is a note; the Deployment it names, scaled to 0, is checked without a replica count', () => {
  const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: chat
spec:
  replicas: 0
  selector:
    matchLabels: {app: chat}
  template:
    metadata:
      labels: {app: chat}
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.19.0
          args: ["--model", "Qwen/Qwen3-8B", "--shutdown-timeout=75"]
          resources: {limits: {nvidia.com/gpu: 1}}
`;
  const ref = rollout('workloadRef: {apiVersion: apps/v1, kind: Deployment, name: chat}\n  unused').replace(
    /\n {2}unused:[\s\S]*$/,
    '\n',
  );
  const report = check(docs(ref, deployment));
  assert.equal(only(report, 'unknown-kind').severity, 'info');
  assert.equal(only(report, 'prestop-missing').object, 'Deployment/chat');
  // replicas: 0 is a count someone else sets (here the Rollout): not one replica replaced in place.
  assert.ok(!codes(report).includes('single-replica-outage'));
  assert.ok(codes(check(deployment.replace('replicas: 0', 'replicas: 1'))).includes('single-replica-outage'));
});
