// InferencePool rules: the selector must reach the model-server pods (app=m), and the target port must be one they expose (8000).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, codes, docs, fixed, only, pool, problems, vllm } from '../support/check.ts';

test('pool-selector-mismatch: a selector no pod template carries is an error, fixed to the Deployment\u2019s selector', () => {
  const text = docs(vllm(), pool('app: m-server'));
  const f = only(check(text), 'pool-selector-mismatch');
  assert.equal(f.severity, 'error');
  assert.equal(f.object, 'InferencePool/m');
  assert.equal(f.path, 'spec.selector.matchLabels');
  assert.equal(f.document, 2);
  assert.match(
    f.message,
    /selects app=m-server, which no pod template in the input carries \(Deployment\/m labels its pods app=m\)/,
  );
  assert.equal(f.fix!.text, 'matchLabels: { app: m }');
  assert.deepEqual(problems(check(fixed(text))), []);
});

test('pool-selector-mismatch: a pool in another namespace selects nothing', () => {
  const text = docs(
    vllm().replace('name: m\n', 'name: m\n  namespace: serving\n'),
    pool().replace('name: m\n', 'name: m\n  namespace: gateway\n'),
  );
  assert.match(
    only(check(text), 'pool-selector-mismatch').message,
    /namespace gateway but Deployment\/m runs in serving/,
  );
});

test('pool-selector-mismatch: not when the selector is a subset of the pod labels', () => {
  const labels = { labels: 'labels:\n        app: m\n        inference.networking.k8s.io/engine-type: vllm' };
  assert.deepEqual(problems(check(docs(vllm(labels), pool()))), []);
});

test('pool-port-not-exposed: port 8080 where the pods expose 8000 is an error, fixed to 8000', () => {
  const f = only(check(docs(vllm(), pool('app: m', '8080'))), 'pool-port-not-exposed');
  assert.equal(f.severity, 'error');
  assert.equal(f.path, 'spec.targetPorts[0].number');
  assert.match(f.message, /port 8080, which Deployment\/m\u2019s pods do not expose \(they expose 8000\)/);
  assert.equal(f.fix!.text, 'number: 8000');
});

test('pool-port-not-exposed: a container that lists no ports and probes none gets a warning and a declared port', () => {
  const text = docs(
    vllm({
      ports: '',
      readiness: 'readinessProbe:\n            exec: {command: [cat, /tmp/ready]}',
      startup: 'startupProbe:\n            exec: {command: [cat, /tmp/ready]}\n            failureThreshold: 60',
      liveness: '',
    }),
    pool(),
  );
  const f = only(check(text), 'pool-port-not-exposed');
  assert.equal(f.severity, 'warning');
  assert.match(fixed(text), /ports:\n\s+- name: http\n\s+containerPort: 8000/);
  assert.deepEqual(problems(check(fixed(text))), []);
});

test('pool-port-not-exposed: no ports listed, but probes reach the server on the pool\u2019s port: it listens there', () => {
  const probes = (port: number) => ({
    ports: '',
    readiness: `readinessProbe:\n            httpGet: {path: /v1/models, port: ${port}}`,
    startup: `startupProbe:\n            tcpSocket: {port: ${port}}\n            failureThreshold: 60`,
    liveness: '',
  });
  assert.ok(!check(docs(vllm(probes(8000)), pool())).findings.some((f) => f.code === 'pool-port-not-exposed'));
  // Probes on another port say nothing of 8000: the warning stays.
  assert.equal(only(check(docs(vllm(probes(9100)), pool())), 'pool-port-not-exposed').severity, 'warning');
});

test('pool-port-not-exposed: a server listening elsewhere (--port 9000, no ports listed) is an error', () => {
  const text = docs(
    vllm({ ports: '', args: 'args: ["--model", "x/y", "--port", "9000", "--shutdown-timeout=75"]' }),
    pool(),
  );
  const f = only(check(text), 'pool-port-not-exposed');
  assert.equal(f.severity, 'error');
  assert.equal(f.fix!.text, 'number: 9000');
});

test('pool-api-removed: a v1alpha2 pool gets a note, and its flat selector and targetPortNumber are still checked', () => {
  const old =
    'apiVersion: inference.networking.x-k8s.io/v1alpha2\nkind: InferencePool\nmetadata:\n  name: m\nspec:\n  selector:\n    app: other\n  targetPortNumber: 8000\n  extensionRef:\n    name: m-epp\n';
  const report = check(docs(vllm(), old));
  assert.equal(only(report, 'pool-api-removed').severity, 'info');
  assert.equal(only(report, 'pool-selector-mismatch').path, 'spec.selector');
});

test('no-pool and no-workload: a Deployment alone, or a pool alone, gets a note and nothing else', () => {
  assert.deepEqual(codes(check(vllm())), ['no-pool']);
  // A pool alone, for the default gateway (GKE): the note that no GCPBackendPolicy targets it comes too.
  assert.deepEqual(codes(check(pool())), ['gateway-policy-missing', 'no-workload']);
  assert.deepEqual(codes(check(pool(), { gateway: 'istio' })), ['no-workload']);
});

test('no-pool: a comment that states the inferencepool chart install is named, with how to check its pool', () => {
  const install =
    '#   helm install m oci://registry.k8s.io/gateway-api-inference-extension/charts/inferencepool --version v1.5.0\n';
  const stated = only(check(install + vllm()), 'no-pool');
  assert.equal(stated.severity, 'info');
  assert.match(stated.message, /states the inferencepool chart install that creates it \(release m\)/);
  assert.match(stated.message, /helm template with the same flags/);
  // Another chart, or no install line: the plain note.
  const other = only(check(`#   helm install m oci://example.com/charts/vllm --version 1.0.0\n${vllm()}`), 'no-pool');
  assert.match(other.message, /^The input has no InferencePool, so the pool/);
});
