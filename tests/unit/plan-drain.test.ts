// Unbounded drain, each kind of model-server drain (flag, fixed, unbounded, none), and the drain flag by release.
// Tests about a kind build their own server facts, so they hold whatever today's data files say.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codesOf, generateWith, manifestOf, planOf, withServer } from '../support/drain.ts';

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

test('an unbounded drain whose cap is shorter than the longest request is an error that names both', () => {
  // 4096 × 100 ms × 1.2 = 491.52 → 492 s longest request; cap 100 s < 492 s.
  const short = planOf({ 'unbounded-drain': true, 'drain-cap-seconds': 100 });
  const error = short.warnings.find((w) => w.code === 'drain-cap-below-request');
  assert.equal(error?.severity, 'error');
  assert.equal(
    error?.message,
    'The drain cap, 100s, is shorter than the 492s longest request: the drain ends at the cap, so at every rollout the '
      + 'requests longer than that are cut. Raise drain-cap-seconds to at least 492, or lower the longest request.',
  );
  // A cap equal to the longest request lets it finish; bounded drains never get it (drain ≥ longest request).
  assert.ok(
    !codesOf(planOf({ 'unbounded-drain': true, 'drain-cap-seconds': 492 })).includes('drain-cap-below-request'),
  );
  assert.ok(!codesOf(planOf({ 'drain-cap-seconds': 100 })).includes('drain-cap-below-request'));
});

test('Triton gets --exit-timeout-secs with the drain budget', () => {
  // 4096 × 100 ms × 1.2 = 491.52 → 492 s; ⌈492 × 1.5⌉ = 738 s
  const p = planOf({ 'model-server': 'triton' });
  assert.deepEqual(p.drainFlag, { flag: '--exit-timeout-secs', seconds: 738 });
  assert.ok(!codesOf(p).includes('drain-flag-min-version'));
});

test('SGLang has no drain flag and drains until done', () => {
  const p = planOf({ 'model-server': 'sglang' });
  assert.equal(p.drainFlag, null);
  assert.equal(p.drainFlagStatus, 'no-flag');
  assert.equal(p.terminationGracePeriodSeconds, 788);
  assert.ok(codesOf(p).includes('drain-unbounded-server'));
});

// TGI as the fact check describes it: --graceful-termination-timeout, default 90, first in 3.2.2.
const tgiFlag = withServer('tgi', {
  kind: 'flag',
  flag: '--graceful-termination-timeout',
  defaultSeconds: 90,
  minVersion: '3.2.2',
});

test('a server whose data says kind flag gets its flag with the drain budget: TGI --graceful-termination-timeout', () => {
  // 3.3.5 ≥ 3.2.2; drain 738 s as for every server at the defaults
  const { plan, manifest } = generateWith(tgiFlag, {
    'model-server': 'tgi',
    image: 'ghcr.io/huggingface/text-generation-inference:3.3.5',
  });
  assert.equal(plan.modelServerRelease, '3.3.5');
  assert.deepEqual(plan.drainFlag, { flag: '--graceful-termination-timeout', seconds: 738 });
  assert.match(manifest, /\n {12}- --graceful-termination-timeout=738 # drain: 492s longest request × 1\.5 headroom\n/);
  assert.ok(!codesOf(plan).some((c) => c.startsWith('drain-fixed') || c.startsWith('drain-flag-')));
});

test('a TGI release before the flag gets none, and an error naming 3.2.2 and what happens instead', () => {
  const { plan, manifest } = generateWith(tgiFlag, {
    'model-server': 'tgi',
    image: 'ghcr.io/huggingface/text-generation-inference:3.1.0',
  });
  assert.equal(plan.drainFlag, null);
  assert.equal(plan.drainFlagStatus, 'too-old');
  assert.doesNotMatch(manifest, /graceful-termination-timeout=/);
  const w = plan.warnings.find((x) => x.code === 'drain-flag-too-old');
  assert.equal(w?.severity, 'error');
  assert.equal(
    w?.message,
    'Hugging Face TGI 3.1.0 (from the image tag) predates --graceful-termination-timeout, which Hugging Face TGI has from 3.2.2, so the '
      + 'manifest leaves it out: a binary without the flag would refuse to start. Without it Hugging Face TGI cannot be told to drain for '
      + 'the 738s budget. Use an image of Hugging Face TGI 3.2.2 or later.',
  );
});

test('kind fixed still works for data that uses it: a warning when the fixed time is shorter than the drain', () => {
  const fixed = withServer('tgi', {
    kind: 'fixed',
    fixedSeconds: 90,
    fixedScope: 'launcher gives the web server',
    caveat: 'not verified',
  });
  // tpot 10 ms: 4096 × 10 ms × 1.2 = 49.152 → 50 s; drain 75 s ≤ 90 s: no warning
  assert.ok(
    !codesOf(generateWith(fixed, { 'model-server': 'tgi', 'tpot-ms': 10 }).plan).includes('drain-fixed-shorter'),
  );
  // defaults: drain 738 s > 90 s
  const { plan, manifest } = generateWith(fixed, { 'model-server': 'tgi' });
  assert.equal(plan.drainFlag, null);
  assert.equal(
    plan.warnings.find((w) => w.code === 'drain-fixed-shorter')!.message,
    "Hugging Face TGI's launcher gives the web server a fixed 90s after SIGTERM (not verified), less than the 738s drain budget: "
      + 'requests longer than that are cut. Lower max-output-tokens or choose a server with a drain setting.',
  );
  assert.match(
    manifest,
    /# Hugging Face TGI has no drain flag: its launcher gives the web server a fixed 90s after SIGTERM; not verified\.\n/,
  );
});

test('the manifest comment for a server that does not drain says so, and what is not verified', () => {
  // llama.cpp: kind none, with the caveat that this is read in the server's code, not tested.
  const text = manifestOf({ 'model-server': 'llamacpp' });
  assert.match(
    text,
    /# llama\.cpp server has no drain flag: it does not drain; in-flight requests end at SIGTERM \(read in the server's code on master; not tested\)\.\n/,
  );
  // No drain budget for a server that exits at SIGTERM: 35 s preStop + 0 s drain + 15 s teardown = 50 s.
  assert.match(text, /terminationGracePeriodSeconds: 50 # 35s preStop \+ 0s drain \+ 15s teardown\n/);
});

test('llama.cpp does not drain, and the plan says so', () => {
  const p = planOf({ 'model-server': 'llamacpp' });
  assert.equal(p.drainFlag, null);
  assert.ok(codesOf(p).includes('no-drain'));
  assert.match(
    p.warnings.find((w) => w.code === 'no-drain')!.message,
    /^llama\.cpp server does not drain on SIGTERM \(read in the server's code on master; not tested\): requests still running/,
  );
  // The plan gives it no drain: 30 s removal + 5 s margin = 35 s preStop, 0 s drain, 15 s teardown = 50 s grace,
  // under the autoscaler's 600 s, so no autoscaler note.
  assert.equal(p.drainSeconds, 0);
  assert.equal(p.terminationGracePeriodSeconds, 50);
  assert.ok(!codesOf(p).includes('grace-exceeds-autoscaler'));
});
