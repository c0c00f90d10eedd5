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

test('TGI (3.2.2 and later) takes the drain budget in --graceful-termination-timeout, so a long budget is not cut at 90 s', () => {
  // Fact check #36: launcher/src/main.rs graceful_termination_timeout, default 90, first tag v3.2.2.
  assert.deepEqual(planOf({ 'model-server': 'tgi' }).drainFlag, { flag: '--graceful-termination-timeout', seconds: 75 });
  // 8192 tokens: drain 149 s, set on the flag; no fixed-time warning any more.
  const long = planOf({ 'model-server': 'tgi', 'max-output-tokens': 8192 });
  assert.equal(long.drainSeconds, 149);
  assert.deepEqual(long.drainFlag, { flag: '--graceful-termination-timeout', seconds: 149 });
  assert.ok(!codesOf(long).includes('drain-fixed-shorter'));
});

test('the manifest comment for a server without a drain flag says what it does, and what is not verified', () => {
  // TGI has a drain flag now (fact check #36), so the manifest sets it instead of explaining its absence.
  assert.match(manifestOf({ 'model-server': 'tgi' }), /- --graceful-termination-timeout=75/);
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
