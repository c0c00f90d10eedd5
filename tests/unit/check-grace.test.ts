// For GKE (given: an error rests on the gateway's removal p99):
// terminationGracePeriodSeconds against preStop 35 s + longest request 50 s (error) and + 75 s drain + 15 s teardown = 125 s (warning).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, codes, only, vllm } from '../support/check.ts';

const grace = (s: number | string) => ({ grace: `terminationGracePeriodSeconds: ${s}` });

test('grace-too-short: 60 s leaves 25 s after the 35 s sleep, less than the 50 s longest request: error, fixed to 125', () => {
  const f = only(check(vllm(grace(60)), { gateway: 'gke' }), 'grace-too-short');
  assert.equal(f.severity, 'error');
  assert.equal(f.path, 'spec.template.spec.terminationGracePeriodSeconds');
  assert.match(f.message, /leaves 25s to drain, less than the 50s longest request/);
  assert.equal(f.fix!.text, 'terminationGracePeriodSeconds: 125 # 35s preStop + 75s drain + 15s teardown');
});

const SLEEP_20 = { lifecycle: 'lifecycle:\n            preStop:\n              sleep:\n                seconds: 20' };

test('grace-too-short: unset is the 30 s default, an error (with a 20 s sleep, so that the sleep itself fits)', () => {
  const f = only(check(vllm({ grace: '', ...SLEEP_20 }), { gateway: 'gke' }), 'grace-too-short');
  assert.equal(f.severity, 'error');
  assert.match(f.message, /unset: the 30s default/);
});

test('grace-too-short: 100 s covers 35 + 50 but not 35 + 75 + 15 = 125: warning', () => {
  const f = only(check(vllm(grace(100))), 'grace-too-short');
  assert.equal(f.severity, 'warning');
  assert.match(f.message, /need 125s/);
});

test('grace-too-short: not at 125 s or above', () => {
  assert.ok(!codes(check(vllm(grace(125)))).includes('grace-too-short'));
  assert.ok(
    !codes(check(vllm({ ...grace(300), progressDeadline: 'progressDeadlineSeconds: 900' }))).includes(
      'grace-too-short',
    ),
  );
});

test('grace-too-short: a missing preStop counts as the 35 s the fix adds, so 100 s is short', () => {
  const f = only(check(vllm({ ...grace(100), lifecycle: '' })), 'grace-too-short');
  assert.equal(f.severity, 'warning');
  assert.match(f.message, /a 35s preStop sleep/);
});

test('grace-too-short: a longer sleep the reader chose is kept, and the grace must cover it: 60 + 75 + 15 = 150', () => {
  const f = only(
    check(vllm({ lifecycle: 'lifecycle:\n            preStop:\n              sleep:\n                seconds: 60' })),
    'grace-too-short',
  );
  assert.equal(f.fix!.text, 'terminationGracePeriodSeconds: 150 # 60s preStop + 75s drain + 15s teardown');
});

test('a grace period the API server refuses ("125", a string) is an error, fixed by unquoting, and read as the one number it can mean', () => {
  const report = check(vllm(grace('"125"')));
  const f = only(report, 'value-rejected');
  assert.equal(f.severity, 'error');
  assert.equal(f.remedy, 'applied');
  assert.equal(f.fix!.text, 'terminationGracePeriodSeconds: 125');
  assert.ok(!codes(report).includes('prestop-exceeds-grace'), '125 s covers the 35 s sleep');
  assert.ok(!codes(check(vllm({ ...grace('"125"'), ...SLEEP_20 }))).includes('grace-too-short'));
});
