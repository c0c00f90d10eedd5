// Probes against the vLLM profile (readiness /v1/models 5 s × 3, startup every 10 s) and a 600 s model load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, codes, fixed, only, problems, vllm } from '../support/check.ts';

const probe = (key: string, lines: string) =>
  `${key}:\n            httpGet: {path: /health, port: http}\n            ${lines.split('\n').join('\n            ')}`;

test('readiness-missing: with a startup probe it is a warning, fixed with the profile\u2019s readiness probe', () => {
  const f = only(check(vllm({ readiness: '' })), 'readiness-missing');
  assert.equal(f.severity, 'warning');
  assert.equal(f.path, 'spec.template.spec.containers[0].readinessProbe');
  assert.equal(
    f.fix!.text,
    'readinessProbe:\n  httpGet:\n    path: /v1/models\n    port: http\n  periodSeconds: 5\n  timeoutSeconds: 2\n  failureThreshold: 3',
  );
});

test('readiness-missing: without readiness or startup probe the pod is ready before the model loads: error', () => {
  assert.equal(only(check(vllm({ readiness: '', startup: '' })), 'readiness-missing').severity, 'error');
});

test('readiness-missing: not when there is a readiness probe', () => {
  assert.ok(!codes(check(vllm())).includes('readiness-missing'));
});

test('startup-missing: liveness gives up after 10 s × 3 = 30 s, before a 600 s load: error, fixed with 60 checks every 10 s', () => {
  const f = only(check(vllm({ startup: '' })), 'startup-missing');
  assert.equal(f.severity, 'error');
  assert.match(f.message, /restarts the container 30s after it starts \(10s × 3\)/);
  assert.match(
    f.fix!.text,
    /periodSeconds: 10\n {2}timeoutSeconds: 5\n {2}failureThreshold: 60 # 600s model load \/ 10s period, rounded up/,
  );
});

test('startup-missing: a liveness probe that waits 900 s only gets a note; no liveness probe, nothing', () => {
  const slow = probe('livenessProbe', 'initialDelaySeconds: 900\nperiodSeconds: 10\nfailureThreshold: 3');
  assert.equal(only(check(vllm({ startup: '', liveness: slow })), 'startup-missing').severity, 'info');
  assert.ok(!codes(check(vllm({ startup: '', liveness: '' }))).includes('startup-missing'));
});

test('startup-too-short: 10 s × 30 = 300 s for a 600 s load is an error, fixed to 60 checks', () => {
  const text = vllm({ startup: probe('startupProbe', 'periodSeconds: 10\nfailureThreshold: 30') });
  const f = only(check(text), 'startup-too-short');
  assert.equal(f.severity, 'error');
  assert.equal(f.path, 'spec.template.spec.containers[0].startupProbe.failureThreshold');
  assert.match(fixed(text), /failureThreshold: 60 # 600s model load \/ 10s period, rounded up/);
});

test('startup-too-short: not for a 300 s load (startup-seconds 300), nor with 100 s delay + 10 s × 50 = 600 s', () => {
  const text = vllm({ startup: probe('startupProbe', 'periodSeconds: 10\nfailureThreshold: 30') });
  assert.ok(!codes(check(text, { 'startup-seconds': '300' })).includes('startup-too-short'));
  assert.ok(
    !codes(
      check(
        vllm({ startup: probe('startupProbe', 'initialDelaySeconds: 100\nperiodSeconds: 10\nfailureThreshold: 50') }),
      ),
    ).includes('startup-too-short'),
  );
});

test('liveness-before-readiness: readiness 10 s × 6 = 60 s, liveness 10 s × 3 = 30 s: warning, fixed to 6 failures', () => {
  const text = vllm({ readiness: probe('readinessProbe', 'periodSeconds: 10\nfailureThreshold: 6') });
  const f = only(check(text), 'liveness-before-readiness');
  assert.equal(f.severity, 'warning');
  assert.equal(f.path, 'spec.template.spec.containers[0].livenessProbe.failureThreshold');
  assert.equal(f.fix!.text, 'failureThreshold: 6 # 10s period × 6 ≥ 60s readiness window');
  assert.deepEqual(problems(check(fixed(text))), []);
});

test('liveness-before-readiness: not with GIE\u2019s 1 s probes (readiness 1 s × 1, liveness 1 s × 5)', () => {
  const text = vllm({
    readiness: probe('readinessProbe', 'periodSeconds: 1\nfailureThreshold: 1'),
    liveness: probe('livenessProbe', 'periodSeconds: 1\nfailureThreshold: 5'),
    startup: probe('startupProbe', 'periodSeconds: 1\nfailureThreshold: 600'),
  });
  // The only problem left is the 1 s readiness period with the 1 s default timeout (readiness-too-tight).
  assert.deepEqual(
    problems(check(text)).map((p) => p.split(':')[0]),
    ['warning readiness-too-tight'],
  );
});

test('readiness-path-differs: readiness on /health is noted with the vLLM profile\u2019s reasons for /v1/models; not on /v1/models', () => {
  const f = only(
    check(vllm({ readiness: probe('readinessProbe', 'periodSeconds: 5\nfailureThreshold: 3') })),
    'readiness-path-differs',
  );
  assert.equal(f.severity, 'info');
  assert.equal(f.path, 'spec.template.spec.containers[0].readinessProbe.httpGet.path');
  assert.match(f.message, /^The readiness probe checks \/health, where the vLLM profile checks \/v1\/models: /);
  assert.ok(!codes(check(vllm())).includes('readiness-path-differs'));
});
