// Rollout rules: strategy with and without spare GPUs, Recreate, progress deadline, LeaderWorkerSet workers.
// GKE + vLLM defaults: grace 125 s, model load 600 s → progress deadline 725 s; 0 spare GPUs → maxSurge 0, maxUnavailable 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, codes, docs, fixed, only, pool, problems, vllm } from '../support/check.ts';

const strategy = (surge: string, unavailable: string) => ({
  strategy: `strategy:\n    rollingUpdate:\n      maxSurge: ${surge}\n      maxUnavailable: ${unavailable}`,
});

test('surge-without-spare-gpus: no strategy on 3 replicas is 25% → maxSurge 1, maxUnavailable 0: the rollout stalls (error)', () => {
  const text = vllm({ strategy: '' });
  const f = only(check(text), 'surge-without-spare-gpus');
  assert.equal(f.severity, 'error');
  assert.equal(f.path, 'spec.strategy');
  assert.match(f.message, /maxSurge 1 \(unset: Kubernetes\u2019 default 25% of 3 replicas\)/);
  assert.match(
    fixed(text),
    /strategy:\n {4}rollingUpdate:\n {6}maxSurge: 0 # 0 spare GPUs < 1 per replica: replace in place\n {6}maxUnavailable: 1/,
  );
});

test('surge-without-spare-gpus: maxSurge 1 with maxUnavailable 1 only leaves a Pending pod: warning', () => {
  const f = only(check(vllm(strategy('1', '1'))), 'surge-without-spare-gpus');
  assert.equal(f.severity, 'warning');
  assert.equal(f.path, 'spec.strategy.rollingUpdate.maxSurge');
});

test('surge-without-spare-gpus: not with a spare GPU per replica, but still with 1 spare for 2 GPUs per replica', () => {
  assert.ok(!codes(check(vllm(strategy('1', '0')), { 'spare-gpus': '1' })).includes('surge-without-spare-gpus'));
  const twoGpus = {
    ...strategy('1', '0'),
    resources: 'resources:\n            limits:\n              nvidia.com/gpu: 2',
  };
  assert.equal(only(check(vllm(twoGpus), { 'spare-gpus': '1' }), 'surge-without-spare-gpus').severity, 'error');
});

test('strategy-recreate: every pod goes before any new one loads: error, fixed to a rolling update', () => {
  const text = vllm({ strategy: 'strategy:\n    type: Recreate' });
  const f = only(check(text), 'strategy-recreate');
  assert.equal(f.severity, 'error');
  assert.equal(f.path, 'spec.strategy.type');
  // The gap: Recreate waits for the old pods (up to their 125 s grace period), then a new pod loads its model
  // (up to 600 s): 125 + 600 = 725 s.
  assert.match(
    f.message,
    /until a new pod has loaded its model: up to 725s \(Recreate waits up to the 125s grace period for the old pods to exit, then the model loads for up to 600s\)/,
  );
  // With the grace period unset, the 30 s default: 30 + 600 = 630 s.
  const unset = only(check(vllm({ strategy: 'strategy:\n    type: Recreate', grace: '' })), 'strategy-recreate');
  assert.match(unset.message, /up to 630s \(Recreate waits up to the 30s grace period/);
  assert.match(fixed(text), /type: RollingUpdate\n {4}rollingUpdate:\n {6}maxSurge: 0/);
  assert.deepEqual(problems(check(fixed(text))), []);
});

test('progress-deadline-too-short: unset is 600 s, less than 125 + 600 = 725: warning, fixed to 725', () => {
  const f = only(check(vllm({ progressDeadline: '' })), 'progress-deadline-too-short');
  assert.equal(f.severity, 'warning');
  assert.equal(f.fix!.text, 'progressDeadlineSeconds: 725 # 125s grace + 600s model load');
  assert.equal(
    only(check(vllm({ progressDeadline: 'progressDeadlineSeconds: 700' })), 'progress-deadline-too-short').severity,
    'warning',
  );
});

test('progress-deadline-too-short: not at 725, and the 600 s default is enough for a 300 s load (125 + 300 < 600)', () => {
  assert.ok(!codes(check(vllm())).includes('progress-deadline-too-short'));
  assert.ok(
    !codes(check(vllm({ progressDeadline: '' }), { 'startup-seconds': '300' })).includes('progress-deadline-too-short'),
  );
});

test('single-replica-outage: the plan\u2019s warning about one replica points at spec.replicas', () => {
  const f = only(check(vllm({ replicas: 'replicas: 1' })), 'single-replica-outage');
  assert.equal(f.severity, 'warning');
  assert.equal(f.path, 'spec.replicas');
});

const LWS = (
  workerGrace: string,
  workerHook = '          lifecycle: {preStop: {sleep: {seconds: 110}}}\n',
) => `apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata:
  name: big
spec:
  replicas: 2
  leaderWorkerTemplate:
    size: 2
    leaderTemplate:
      metadata:
        labels: {app: big}
      spec:
        terminationGracePeriodSeconds: 125
        containers:
        - name: leader
          image: vllm/vllm-openai:v0.18.1
          args: ["--model", "x/y", "--shutdown-timeout=75"]
          ports: [{name: http, containerPort: 8000}]
          resources: {limits: {nvidia.com/gpu: 8}}
          lifecycle: {preStop: {sleep: {seconds: 35}}}
          startupProbe: {httpGet: {path: /v1/models, port: http}, periodSeconds: 10, failureThreshold: 60}
          readinessProbe: {httpGet: {path: /v1/models, port: http}, periodSeconds: 5, failureThreshold: 3}
    workerTemplate:
      spec:
${workerGrace}        containers:
        - name: worker
          image: vllm/vllm-openai:v0.18.1
          resources: {limits: {nvidia.com/gpu: 8}}
${workerHook}`;

test('lws-worker-prestop-missing: a worker without a preStop exits at SIGTERM mid-drain; it sleeps 35 + 75 = 110 s', () => {
  const text = LWS('        terminationGracePeriodSeconds: 125\n', '');
  const f = only(check(text), 'lws-worker-prestop-missing');
  assert.equal(f.severity, 'warning');
  assert.equal(f.path, 'spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].lifecycle');
  assert.equal(f.remedy, 'applied');
  assert.match(
    fixed(text),
    /\n {10}lifecycle:\n {12}preStop:\n {14}sleep:\n {16}seconds: 110 # the leader’s 35s preStop \+ 75s drain\n/,
  );
  assert.deepEqual(problems(check(fixed(text))), []);
});

test('lws-worker-grace-shorter: workers with the 30 s default die before the leader\u2019s 125 s drain ends: warning', () => {
  const f = only(check(LWS('')), 'lws-worker-grace-shorter');
  assert.equal(f.severity, 'warning');
  assert.equal(f.path, 'spec.leaderWorkerTemplate.workerTemplate.spec.terminationGracePeriodSeconds');
  assert.deepEqual(problems(check(fixed(LWS('')))), []);
});

test('a LeaderWorkerSet whose workers wait as long as the leader has no finding; its group holds 16 GPUs', () => {
  const report = check(LWS('        terminationGracePeriodSeconds: 125\n'));
  assert.deepEqual(problems(report), []);
  assert.ok(
    report.found.some((f) => f.flag === 'gpus-per-replica' && f.value === '16'),
    'leader 8 + 1 worker × 8',
  );
});

test('a LeaderWorkerSet pool may select by the set\u2019s own pod labels', () => {
  const lwsPool = pool('leaderworkerset.sigs.k8s.io/name: big').replace('name: m\n', 'name: big\n');
  assert.ok(
    !codes(check(docs(LWS('        terminationGracePeriodSeconds: 125\n'), lwsPool))).includes(
      'pool-selector-mismatch',
    ),
  );
});

test('a StatefulSet is checked like a Deployment, without the Deployment-only rules', () => {
  const sts = vllm({ strategy: '', progressDeadline: '' }).replace('kind: Deployment', 'kind: StatefulSet');
  assert.deepEqual(problems(check(sts)), []);
  assert.equal(only(check(sts.replace('seconds: 35', 'seconds: 5')), 'prestop-too-short').object, 'StatefulSet/m');
});
