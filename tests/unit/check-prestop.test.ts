// The preStop rules, with GKE + vLLM at the defaults: removal p99 30 s + 5 s margin = 35 s; grace 125 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, codes, docs, fixed, only, pool, problems, vllm } from '../support/check.ts';

const SLEEP = (s: number) => `lifecycle:\n            preStop:\n              sleep:\n                seconds: ${s}`;
const EXEC = (command: string) =>
  `lifecycle:\n            preStop:\n              exec:\n                command: ${command}`;

test('the clean Deployment and its pool have no findings, only one note', () => {
  // The gateway is only the default (GKE), whose missing GCPBackendPolicy is a note, not a warning.
  assert.deepEqual(codes(check(docs(vllm(), pool()))), ['gateway-policy-missing']);
  assert.equal(codes(check(docs(vllm(), pool())), 'info').length, 1);
  // Given the 50 s longest request (nothing derived), the same.
  assert.deepEqual(codes(check(docs(vllm(), pool()), { 'max-request-seconds': '50' })), ['gateway-policy-missing']);
  // Istio needs no such policy; its 10 s removal p99 is an estimate (a note), and the 35 s sleep is long enough.
  assert.deepEqual(codes(check(docs(vllm(), pool()), { 'max-request-seconds': '50', gateway: 'istio' })), [
    'removal-estimate',
  ]);
});

test('prestop-missing: no hook is an error, fixed with a 35 s sleep (30 s removal + 5 s margin)', () => {
  const f = only(check(vllm({ lifecycle: '' })), 'prestop-missing');
  assert.equal(f.severity, 'error');
  assert.equal(f.object, 'Deployment/m');
  assert.equal(f.path, 'spec.template.spec.containers[0].lifecycle');
  assert.match(f.message, /30s \(the removal p99\)/);
  assert.equal(f.fix!.text, 'lifecycle:\n  preStop:\n    sleep:\n      seconds: 35 # 30s removal p99 + 5s margin');
});

test('prestop-missing: not when the hook sleeps 35 s, as an action or through exec', () => {
  assert.ok(!codes(check(vllm())).includes('prestop-missing'));
  assert.deepEqual(problems(check(vllm({ lifecycle: EXEC('["/bin/sleep", "35"]') }))), []);
  assert.deepEqual(problems(check(vllm({ lifecycle: EXEC('["sh", "-c", "sleep 35"]') }))), []);
});

test('prestop-too-short: 20 s is below the 30 s removal p99, an error fixed to 35', () => {
  // GKE given: an error rests on the gateway's removal p99 (check-assumed.test.ts has it assumed).
  const f = only(check(vllm({ lifecycle: SLEEP(20) }), { gateway: 'gke' }), 'prestop-too-short');
  assert.equal(f.severity, 'error');
  assert.equal(f.path, 'spec.template.spec.containers[0].lifecycle.preStop.sleep.seconds');
  assert.equal(f.fix!.text, '35 (30s removal p99 + 5s margin)');
});

test('prestop-too-short: 32 s covers the removal p99 but not the 5 s margin, a warning', () => {
  const f = only(check(vllm({ lifecycle: SLEEP(32) })), 'prestop-too-short');
  assert.equal(f.severity, 'warning');
  assert.match(f.message, /5s margin/);
});

test('prestop-too-short: not at 35 s, nor above it; and 15 s is enough for a 10 s removal p99', () => {
  assert.ok(!codes(check(vllm({ lifecycle: SLEEP(35) }))).includes('prestop-too-short'));
  assert.ok(
    !codes(check(vllm({ lifecycle: SLEEP(60), grace: 'terminationGracePeriodSeconds: 150' }))).includes(
      'prestop-too-short',
    ),
  );
  assert.ok(!codes(check(vllm({ lifecycle: SLEEP(15) }), { 'removal-seconds': '10' })).includes('prestop-too-short'));
});

test('prestop-too-short: an exec sleep inside a shell script is read and raised in place', () => {
  const text = vllm({ lifecycle: EXEC('["/bin/sh", "-c", "echo bye; sleep 10"]') });
  const f = only(check(text), 'prestop-too-short');
  assert.equal(f.path, 'spec.template.spec.containers[0].lifecycle.preStop.exec.command[2]');
  assert.match(fixed(text), /command: \["\/bin\/sh", "-c", "echo bye; sleep 35"\]/);
});

test('a preStop script that polls until no request runs is not read as its poll interval, and not edited', () => {
  const poll = '"sleep 10; while curl -s localhost:8000/metrics | grep -q running; do sleep 5; done"';
  const report = check(vllm({ lifecycle: EXEC(`["/bin/sh", "-c", ${poll}]`) }));
  assert.ok(!codes(report).includes('prestop-too-short'));
  const f = only(report, 'prestop-unreadable');
  assert.match(f.message, /a script that does more than sleep \(it sleeps 10 first\)/);
  assert.equal(f.remedy, 'manual');
});

test('prestop-exceeds-grace: a 40 s sleep with no grace period (30 s default) is an error; grace goes to 40 + 75 + 15 = 130', () => {
  const report = check(vllm({ lifecycle: SLEEP(40), grace: '' }));
  const f = only(report, 'prestop-exceeds-grace');
  assert.equal(f.severity, 'error');
  assert.equal(f.path, 'spec.template.spec.terminationGracePeriodSeconds');
  assert.match(f.message, /\(30s, the default\)/);
  assert.equal(f.fix!.text, 'terminationGracePeriodSeconds: 130 # 40s preStop + 75s drain + 15s teardown');
  assert.ok(!codes(report).includes('grace-too-short'), 'the same fix is not reported twice');
});

test('prestop-exceeds-grace: a sleep equal to the grace period is allowed (Kubernetes rejects only a longer one)', () => {
  assert.ok(!codes(check(vllm({ lifecycle: SLEEP(125) }))).includes('prestop-exceeds-grace'));
});

test('prestop-sleep-unsupported: the sleep action on Kubernetes 1.29 is an error, fixed with an exec sleep', () => {
  const text = vllm();
  const f = only(check(text, { 'kubernetes-version': '1.29' }), 'prestop-sleep-unsupported');
  assert.equal(f.severity, 'error');
  assert.match(
    fixed(text, { 'kubernetes-version': '1.29' }),
    /exec:\n\s+command:\n\s+- \/bin\/sleep\n\s+- "35" # 30s removal p99 \+ 5s margin/,
  );
  assert.ok(!codes(check(text, { 'kubernetes-version': '1.30' })).includes('prestop-sleep-unsupported'));
});

test('prestop-unreadable: an httpGet hook is noted (info), and not reported as missing or short', () => {
  const report = check(
    vllm({ lifecycle: 'lifecycle:\n            preStop:\n              httpGet: {path: /drain, port: 8000}' }),
  );
  assert.equal(only(report, 'prestop-unreadable').severity, 'info');
  assert.match(only(report, 'prestop-unreadable').message, /at least 35s/);
  assert.ok(!codes(report).some((c) => c === 'prestop-missing' || c === 'prestop-too-short'));
});

// A second container appended after the vllm container (the builder's last part is the liveness probe).
const LIVENESS =
  'livenessProbe:\n            httpGet: {path: /health, port: http}\n            periodSeconds: 10\n            failureThreshold: 3';
const withSecond = (container: string) => vllm({ liveness: `${LIVENESS}\n${container}` });

test('prestop-missing: every container that serves gets the hook, not only the model server', () => {
  // A second vLLM server on its own GPU without a hook: one error on it, fixed with the same 35 s sleep.
  const second = withSecond(
    '        - name: vllm-b\n          image: vllm/vllm-openai:v0.18.1\n          resources:\n            limits:\n              nvidia.com/gpu: 1',
  );
  const f = only(check(second), 'prestop-missing');
  assert.equal(f.path, 'spec.template.spec.containers[1].lifecycle');
  assert.match(f.message, /^The vllm-b container serves this pod too \(it runs vLLM\) and has no preStop hook/);
  assert.match(
    fixed(second),
    /- name: vllm-b\n {10}image: vllm\/vllm-openai:v0\.18\.1\n[\s\S]*lifecycle:\n {12}preStop:\n {14}sleep:\n {16}seconds: 35 # 30s removal p99 \+ 5s margin/,
  );
  // A frontend on the port the pool targets (8080, in front of the server's 8000) serves too.
  const front = withSecond(
    '        - name: front\n          image: example.com/front:1\n          ports:\n            - containerPort: 8080',
  );
  assert.match(
    only(check(docs(front, pool('app: m', '8080'))), 'prestop-missing').message,
    /it listens on 8080, a port InferencePool\/m targets/,
  );
  // A metrics exporter or a mesh proxy (no server, no accelerator, no pool port) gets none.
  const exporter = withSecond(
    '        - name: metrics\n          image: example.com/exporter:3\n          ports:\n            - containerPort: 9400',
  );
  assert.ok(!codes(check(docs(exporter, pool()))).includes('prestop-missing'));
});
