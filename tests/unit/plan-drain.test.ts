// Unbounded drain and each model server's drain behaviour.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codesOf, manifestOf, planOf } from '../support/drain.ts';

test('unbounded drain uses the cap as the drain budget', () => {
  // drain = cap 3600; grace = 35 + 3600 + 15 = 3650; progress = 3650 + 600 = 4250
  const p = planOf({ 'unbounded-drain': true });
  assert.equal(p.drainSeconds, 3600);
  assert.equal(p.terminationGracePeriodSeconds, 3650);
  assert.equal(p.progressDeadlineSeconds, 4250);
  assert.deepEqual(p.drainFlag, { flag: '--shutdown-timeout', seconds: 3600 });
  assert.ok(codesOf(p).includes('unbounded-drain-cost'));
});

test('unbounded drain with a smaller cap', () => {
  // grace = 35 + 100 + 15 = 150; progress = max(600, 150 + 600) = 750
  const p = planOf({ 'unbounded-drain': 'true', 'drain-cap-seconds': 100 });
  assert.equal(p.drainSeconds, 100);
  assert.equal(p.terminationGracePeriodSeconds, 150);
  assert.equal(p.progressDeadlineSeconds, 750);
});

test('Triton gets --exit-timeout-secs with the drain budget', () => {
  const p = planOf({ 'model-server': 'triton' });
  assert.deepEqual(p.drainFlag, { flag: '--exit-timeout-secs', seconds: 75 });
  assert.ok(!codesOf(p).includes('drain-flag-min-version'));
});

test('SGLang has no drain flag and drains until done', () => {
  const p = planOf({ 'model-server': 'sglang' });
  assert.equal(p.drainFlag, null);
  assert.equal(p.terminationGracePeriodSeconds, 125);
  assert.ok(codesOf(p).includes('drain-unbounded-server'));
});

test('TGI warns only when its fixed 90 s is shorter than the drain budget', () => {
  // default drain 75 s ≤ 90 s: no warning
  assert.ok(!codesOf(planOf({ 'model-server': 'tgi' })).includes('drain-fixed-shorter'));
  // 8192 tokens: drain 149 s > 90 s: warning
  const long = planOf({ 'model-server': 'tgi', 'max-output-tokens': 8192 });
  assert.equal(long.drainSeconds, 149);
  assert.ok(codesOf(long).includes('drain-fixed-shorter'));
  assert.equal(long.warnings.find((w) => w.code === 'drain-fixed-shorter')!.message,
    'Hugging Face TGI\'s launcher gives the web server a fixed 90s after SIGTERM (whether in-flight requests finish in that '
    + 'time is not verified), less than the 149s drain budget: requests longer than that are cut. Lower max-output-tokens or '
    + 'choose a server with a drain setting.');
});

test('the manifest comment for a server without a drain flag says what it does, and what is not verified', () => {
  // TGI: content/model-servers/tgi.yaml fixedScope, fixedSeconds 90 and caveat.
  assert.match(manifestOf({ 'model-server': 'tgi' }),
    /# Hugging Face TGI has no drain flag: its launcher gives the web server a fixed 90s after SIGTERM; whether in-flight requests finish in that time is not verified\.\n/);
  // llama.cpp: kind none, with the caveat that this is read from PR descriptions.
  assert.match(manifestOf({ 'model-server': 'llamacpp' }),
    /# llama\.cpp server has no drain flag: it does not drain; in-flight requests end at SIGTERM \(going by the PR descriptions; not tested\)\.\n/);
});

test('llama.cpp does not drain, and the plan says so', () => {
  const p = planOf({ 'model-server': 'llamacpp' });
  assert.equal(p.drainFlag, null);
  assert.ok(codesOf(p).includes('no-drain'));
  assert.match(p.warnings.find((w) => w.code === 'no-drain')!.message,
    /^llama\.cpp server does not drain on SIGTERM \(going by the PR descriptions; not tested\): requests still running/);
});
