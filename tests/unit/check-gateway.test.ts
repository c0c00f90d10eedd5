// Gateway-side timeouts. GKE's GCPBackendPolicy (from content/gateways/gke.yaml): timeoutSec defaults to 30 s,
// connectionDraining.drainingTimeoutSec to 0 s. The plan for GKE + vLLM: longest request 50 s; gateway timeout
// needed 50 × 1.5 = 75 s, which the generator raises to the profile's 300 s floor (GIE's GKE example); draining
// 35 s preStop + 75 s drain = 110 s. A timeout of 75 s or more cuts nothing, so only one below 75 s is a finding,
// and its fix writes the generator's 300.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration } from '../../src/check/read/duration.ts';
import { check, codes, docs, fixed, only, pool, problems, vllm } from '../support/check.ts';

const policy = (defaults: string) => `apiVersion: networking.gke.io/v1
kind: GCPBackendPolicy
metadata:
  name: m
spec:
  targetRef:
    group: inference.networking.k8s.io
    kind: InferencePool
    name: m
  default:
${defaults}`;
const DRAINING = '    connectionDraining:\n      drainingTimeoutSec: 110\n';

test('gateway-timeout-too-short: an unset timeoutSec is the 30 s default, below the 50 s longest request: error, fixed to 300', () => {
  const text = docs(vllm(), pool(), policy(`    logging: {enabled: true}\n${DRAINING}`));
  const f = only(check(text), 'gateway-timeout-too-short');
  assert.equal(f.severity, 'error');
  assert.equal(f.object, 'GCPBackendPolicy/m');
  assert.match(f.message, /timeoutSec unset: the 30s default/);
  assert.equal(
    f.fix!.text,
    "timeoutSec: 300 # 50s longest request (steady state, not drain p99) × 1.5 headroom = 75s, kept at the 300s floor (GIE's GKE example)",
  );
  assert.deepEqual(problems(check(fixed(text))), []);
});

test('gateway-timeout-too-short: 60 s covers the 50 s request but not the 75 s it needs with headroom: warning, fixed to 300', () => {
  const f = only(check(docs(vllm(), pool(), policy(`    timeoutSec: 60\n${DRAINING}`))), 'gateway-timeout-too-short');
  assert.equal(f.severity, 'warning');
  assert.equal(f.path, 'spec.default.timeoutSec');
  assert.match(f.fix!.text, /^timeoutSec: 300 # /);
});

test('gateway-timeout-too-short: none at 75 s (50 × 1.5), though the generator would write the 300 s floor; one at 74 s', () => {
  assert.deepEqual(problems(check(docs(vllm(), pool(), policy(`    timeoutSec: 75\n${DRAINING}`)))), []);
  assert.equal(
    only(check(docs(vllm(), pool(), policy(`    timeoutSec: 74\n${DRAINING}`))), 'gateway-timeout-too-short').severity,
    'warning',
  );
});

test('gateway-timeout-too-short and gateway-draining-too-short: none with 300 s and 110 s', () => {
  assert.deepEqual(problems(check(docs(vllm(), pool(), policy(`    timeoutSec: 300\n${DRAINING}`)))), []);
});

test('gateway-draining-too-short: no connection draining (0 s) while the pod serves for 110 s: warning, fixed to 110', () => {
  const f = only(check(docs(vllm(), pool(), policy('    timeoutSec: 300\n'))), 'gateway-draining-too-short');
  assert.equal(f.severity, 'warning');
  assert.match(f.fix!.text, /^drainingTimeoutSec: 110 # 35s preStop \+ 75s drain/);
});

test('a GKE policy tells the checker the gateway when no gateway is given', () => {
  const report = check(docs(vllm(), pool(), policy(`    timeoutSec: 300\n${DRAINING}`)));
  assert.ok(report.found.some((f) => f.flag === 'gateway' && f.value === 'gke'));
});

const route = (timeouts: string) => `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: m
spec:
  parentRefs: [{name: inference-gateway}]
  rules:
    - backendRefs:
        - group: inference.networking.k8s.io
          kind: InferencePool
          name: m
${timeouts}`;

test('gateway-timeout-too-short: an HTTPRoute request timeout of 30s is an error; 5m, or 0s (no timeout), is not', () => {
  const f = only(
    check(docs(vllm(), pool(), route('      timeouts:\n        request: 30s\n'))),
    'gateway-timeout-too-short',
  );
  assert.equal(f.severity, 'error');
  assert.equal(f.path, 'spec.rules[0].timeouts.request');
  assert.ok(
    !codes(check(docs(vllm(), pool(), route('      timeouts:\n        request: 5m\n')))).includes(
      'gateway-timeout-too-short',
    ),
  );
  assert.ok(
    !codes(check(docs(vllm(), pool(), route('      timeouts:\n        backendRequest: 0s\n')))).includes(
      'gateway-timeout-too-short',
    ),
  );
  assert.equal(
    only(check(docs(vllm(), pool(), route('      timeouts:\n        request: 1.5s\n'))), 'value-unreadable').severity,
    'info',
  );
});

test('Gateway API durations: 1h30m is 5400 s, 500ms is 0.5 s, 1.5s and 90 are not durations', () => {
  assert.equal(parseDuration('1h30m'), 5400);
  assert.equal(parseDuration('500ms'), 0.5);
  assert.equal(parseDuration('2m10s'), 130);
  assert.equal(parseDuration('1.5s'), undefined);
  assert.equal(parseDuration('90'), undefined);
});
