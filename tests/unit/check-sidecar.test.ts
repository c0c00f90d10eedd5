// Native sidecars in front of the model server. The kubelet (pkg/kubelet/kuberuntime: killContainer runs each
// container's preStop hook, then terminationOrdering.waitForTurn holds a sidecar until every regular container has
// exited, then StopContainer with the rest of the grace period, at least 2 s) stops a proxy sidecar after the server.
// Worked by hand at CHECK_TEST_SETTINGS: 35 s preStop, 75 s drain, 15 s teardown, 125 s grace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, codes, only } from '../support/check.ts';
import { readRuleFiles } from '../support/rule-audit.ts';

const fires = readRuleFiles('sidecar-serves-pool').fires!;

test('a proxy sidecar on the pool\u2019s port: a note on the stop order and the shared grace, nothing to fix', () => {
  const f = only(check(fires), 'sidecar-serves-pool');
  assert.equal(f.severity, 'info');
  assert.equal(f.remedy, 'manual');
  assert.equal(f.path, 'spec.template.spec.initContainers[0].restartPolicy');
  assert.match(
    f.message,
    /^The proxy sidecar of Deployment\/m serves port 8000 of InferencePool\/m in front of the vllm container\. /,
  );
  assert.match(
    f.message,
    /SIGTERM only after vllm has exited, with what is left of the pod\u2019s 125s grace period \(at least 2s\)/,
  );
  assert.match(f.message, /keeps accepting through vllm\u2019s 35s preStop sleep and its drain of up to 75s/);
  assert.match(f.message, /comes out of the 15s teardown\.$/);
  // The server listens on 8200 and declares it; the pool's 8000 is the sidecar's: no port finding.
  assert.ok(!codes(check(fires)).includes('pool-port-not-exposed'));
});

test('below Kubernetes 1.29 native sidecars are off by default: an error, since the pod would never start', () => {
  const report = check(fires, { 'kubernetes-version': '1.28' });
  const f = only(report, 'sidecar-serves-pool');
  assert.equal(f.severity, 'error');
  assert.match(
    f.message,
    /Kubernetes 1\.28 does not enable by default \(SidecarContainers is beta and on from 1\.29\): without the feature the API server drops restartPolicy/,
  );
  assert.equal(only(check(fires, { 'kubernetes-version': '1.29' }), 'sidecar-serves-pool').severity, 'info');
});

test('a preStop hook on the proxy instead of the server: prestop-missing says the sidecar\u2019s hook does not delay the server', () => {
  const text = fires
    .replace('                seconds: 35\n', '')
    .replace('          lifecycle:\n            preStop:\n              sleep:\n', '')
    .replace(
      '          restartPolicy: Always\n',
      '          restartPolicy: Always\n          lifecycle:\n            preStop:\n              sleep:\n                seconds: 35\n',
    );
  const report = check(text);
  assert.match(
    only(report, 'prestop-missing').message,
    /The preStop hook of the proxy sidecar does not help: the kubelet runs each container\u2019s hook at deletion, side by side, and it holds back only proxy\u2019s own SIGTERM\.$/,
  );
  assert.match(
    only(report, 'sidecar-serves-pool').message,
    /Its own preStop hook runs from deletion, beside vllm\u2019s: it does not delay vllm\u2019s SIGTERM/,
  );
});

test('a sidecar that serves no port of the pool (a log shipper) is not a proxy: no note', () => {
  const text = fires.replace(
    '            - containerPort: 8000\n      containers:',
    '            - containerPort: 9100\n      containers:',
  );
  assert.ok(!codes(check(text)).includes('sidecar-serves-pool'));
});
