// Rollout strategy, progress deadline and probes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codesOf, planOf } from '../support/drain.ts';

test('a spare GPU per replica surges; fewer replaces in place', () => {
  assert.deepEqual(planOf({ 'spare-gpus': 0 }).strategy, { maxSurge: 0, maxUnavailable: 1 });
  assert.deepEqual(planOf({ 'spare-gpus': 1 }).strategy, { maxSurge: 1, maxUnavailable: 0 });
  assert.deepEqual(planOf({ 'gpus-per-replica': 4, 'spare-gpus': 3 }).strategy, { maxSurge: 0, maxUnavailable: 1 });
  assert.deepEqual(planOf({ 'gpus-per-replica': 4, 'spare-gpus': 4 }).strategy, { maxSurge: 1, maxUnavailable: 0 });
});

test('one replica without a spare GPU warns of an outage of grace + load', () => {
  const p = planOf({ replicas: 1 });
  assert.ok(codesOf(p).includes('single-replica-outage'));
  // 125 s grace + 600 s load = 725 s
  assert.match(p.warnings.find((w) => w.code === 'single-replica-outage')!.message, /up to 725s/);
  assert.ok(!codesOf(planOf({ replicas: 1, 'spare-gpus': 1 })).includes('single-replica-outage'));
});

test('the progress deadline never drops below 600 s', () => {
  // 125 + 60 = 185 → 600
  assert.equal(planOf({ 'startup-seconds': 60 }).progressDeadlineSeconds, 600);
  // 125 + 475 = 600 exactly
  assert.equal(planOf({ 'startup-seconds': 475 }).progressDeadlineSeconds, 600);
  // 125 + 1800 = 1925
  assert.equal(planOf({ 'startup-seconds': 1800 }).progressDeadlineSeconds, 1925);
});

test('the startup probe covers the model load, rounded up', () => {
  // 601 / 10 = 60.1 → 61;  600 / 7 = 85.7 → 86
  assert.equal(planOf({ 'startup-seconds': 601 }).probes.startup.failureThreshold, 61);
  assert.equal(planOf({ 'startup-period-seconds': 7 }).probes.startup.failureThreshold, 86);
});

test('liveness that fails before readiness is a warning', () => {
  // liveness 5 × 2 = 10 s < readiness 5 × 3 = 15 s
  const p = planOf({ 'liveness-period-seconds': 5, 'liveness-failure-threshold': 2 });
  assert.ok(codesOf(p).includes('liveness-faster-than-readiness'));
  // equal windows (5 × 3 = 15) are fine
  assert.ok(!codesOf(planOf({ 'liveness-period-seconds': 5 })).includes('liveness-faster-than-readiness'));
});
