import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readProfiles } from '../../src/facts/read-files.ts';
import { contradicts, runningAt } from '../../src/lab/predict.ts';
import { prepare } from '../../src/lab/prepare.ts';

const profiles = readProfiles();
const gke = { gateway: 'gke', inputs: { 'removal-seconds': '30' } };
const custom = {
  gateway: 'custom',
  inputs: {
    'health-check-interval-seconds': '5',
    'health-check-unhealthy-threshold': '2',
    'health-check-timeout-seconds': '5',
    'propagation-seconds': '5',
  },
};

test('requests still running: λ × Σ share × (lastAccepted − max(−warmup, at − length))', () => {
  // at 35, last accepted 30, λ 2, warmup 10; lengths 2/5/10/20/30 s with shares .3/.3/.2/.1/.1:
  // 2 s, 5 s: none; 10 s: (30 − 25) × .2 = 1; 20 s: (30 − 15) × .1 = 1.5; 30 s: (30 − 5) × .1 = 2.5 → 5 × 2 = 10.
  assert.equal(runningAt(35, 30, 2), 10);
  // at 0 with last accepted 0: 30 s requests from −10: (0 − (−10)) × .1 = 1, 20 s: 1, 10 s: (0 − (−10)) × .2 = 2,
  // 5 s: (0 − (−5)) × .3 = 1.5, 2 s: (0 − (−2)) × .3 = .6 → 6.1 × 2 = 12.2.
  assert.ok(Math.abs(runningAt(0, 0, 2) - 12.2) < 1e-9);
});

test('the plan loses nothing', () => {
  const p = prepare('recommended', profiles, gke).prediction;
  assert.equal(p.expect, 'none');
  assert.deepEqual(p.refused, { min: 0, max: 0 });
  assert.deepEqual(p.routeStop, { min: 30, max: 30 });
  assert.equal(p.stopAccepting, 35);
  assert.equal(p.sigkill, 95);
  // the server gives up at 35 + 45 = 80, before SIGKILL at 95; the last request (at 30, 30 s) ends at 60
  assert.deepEqual(p.back, { at: 80, outcome: 'aborted', count: { min: 0, max: 0 } });
});

test('no preStop on gke: refused from SIGTERM until checks (5–15 s) or removal (30 s)', () => {
  const p = prepare('no-prestop', profiles, gke).prediction;
  // checks fail from 0: down between (2 − 1) × 5 = 5 and 2 × 5 + 5 = 15; λ = 6 / 3 pods = 2
  assert.deepEqual(p.routeStop, { min: 5, max: 15 });
  assert.deepEqual(p.refused, { min: 10, max: 30 });
  assert.equal(p.expect, 'loss');
});

test('vllm-abort: everything running at SIGTERM (35 s) is aborted, about 10 requests', () => {
  const p = prepare('vllm-abort', profiles, gke).prediction;
  assert.deepEqual(p.back, { at: 35, outcome: 'aborted', count: { min: 10, max: 10 } });
  assert.equal(p.expect, 'loss');
});

test('short-grace: SIGKILL at 40 cuts the 20 s and 30 s requests still running, about 6', () => {
  // 30 s: (30 − 10) × .1 = 2; 20 s: (30 − 20) × .1 = 1; 10 s: (30 − 30) = 0 → 3 × 2 = 6
  const p = prepare('short-grace', profiles, gke).prediction;
  assert.deepEqual(p.back, { at: 40, outcome: 'cut', count: { min: 6, max: 6 } });
});

test('health checks only: the sleep alone moves the refusals to after SIGTERM', () => {
  const p = prepare('hc-sleep-only', profiles, custom).prediction;
  // SIGTERM at 25; down between 25 + 5 = 30 and 25 + 20 (the removal p99) = 45 → refused 2 × 5 to 2 × 20
  assert.deepEqual(p.routeStop, { min: 30, max: 45 });
  assert.deepEqual(p.refused, { min: 10, max: 40 });
  assert.equal(p.expect, 'loss');
  const failing = prepare('recommended', profiles, custom).prediction;
  // health fails at 0: down by 20 at the latest, before SIGTERM at 25
  assert.deepEqual(failing.routeStop, { min: 5, max: 20 });
  assert.equal(failing.expect, 'none');
});

test('a server without a drain loses what runs at SIGTERM even with the plan', () => {
  const p = prepare('recommended', profiles, { ...gke, modelServer: 'llamacpp' }).prediction;
  assert.equal(p.back?.outcome, 'cut');
  assert.equal(p.back?.at, 35);
  assert.equal(p.expect, 'loss');
});

test('contradictions: a loss where none is predicted, or none where a loss is', () => {
  assert.equal(contradicts('none', 1), true);
  assert.equal(contradicts('none', 0), false);
  assert.equal(contradicts('loss', 0), true);
  assert.equal(contradicts('loss', 5), false);
  assert.equal(contradicts('either', 0), false);
});
