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
  // 788 s grace + 600 s load = 1388 s
  assert.match(p.warnings.find((w) => w.code === 'single-replica-outage')!.message, /up to 1388s/);
  assert.ok(!codesOf(planOf({ replicas: 1, 'spare-gpus': 1 })).includes('single-replica-outage'));
});

test('the progress deadline never drops below 600 s', () => {
  // At 10 ms per token the grace is 35 + 75 + 15 = 125 s.
  // 125 + 60 = 185 → 600
  assert.equal(planOf({ 'tpot-ms': 10, 'startup-seconds': 60 }).progressDeadlineSeconds, 600);
  // 125 + 475 = 600 exactly
  assert.equal(planOf({ 'tpot-ms': 10, 'startup-seconds': 475 }).progressDeadlineSeconds, 600);
  // defaults: 788 + 60 = 848; 788 + 1800 = 2588
  assert.equal(planOf({ 'startup-seconds': 60 }).progressDeadlineSeconds, 848);
  assert.equal(planOf({ 'startup-seconds': 1800 }).progressDeadlineSeconds, 2588);
});

test('rollout: steps × (model load + grace), and the replicas that serve during a step', () => {
  // 5 replicas replaced in place: 5 steps × (600 + 788) = 6940 s; 5 − 1 = 4 of 5 serve (80%)
  const inPlace = planOf({ replicas: 5 });
  assert.equal(inPlace.rolloutSteps, 5);
  assert.equal(inPlace.rolloutSeconds, 6940);
  assert.equal(inPlace.rolloutServingReplicas, 4);
  assert.equal(inPlace.rolloutCapacityPercent, 80);
  // With a spare GPU: maxSurge 1, maxUnavailable 0: still 5 steps of one pod, all 5 serve (100%)
  const surge = planOf({ replicas: 5, 'spare-gpus': 1, 'startup-seconds': 300 });
  assert.equal(surge.rolloutSteps, 5);
  assert.equal(surge.rolloutSeconds, 5 * (300 + 788));
  assert.equal(surge.rolloutServingReplicas, 5);
  assert.equal(surge.rolloutCapacityPercent, 100);
  // One replica in place: nothing serves during the step
  const single = planOf({ replicas: 1 });
  assert.equal(single.rolloutSeconds, 1388);
  assert.equal(single.rolloutCapacityPercent, 0);
  // 7 replicas: 6 of 7 = 85.7% → 85 (rounded down)
  assert.equal(planOf({ replicas: 7 }).rolloutCapacityPercent, 85);
});

test('a grace period above 600 s notes the safe-to-evict annotation the output adds for cluster-autoscaler', () => {
  // 550 s longest request, no headroom: drain 550; 35 + 550 + 15 = 600: not above
  const at600 = planOf({ 'max-request-seconds': 550, 'drain-headroom-percent': 0 });
  assert.equal(at600.terminationGracePeriodSeconds, 600);
  assert.ok(!codesOf(at600).includes('grace-exceeds-autoscaler'));
  // 551 s: 601 s grace
  const above = planOf({ 'max-request-seconds': 551, 'drain-headroom-percent': 0 });
  assert.equal(above.terminationGracePeriodSeconds, 601);
  const w = above.warnings.find((x) => x.code === 'grace-exceeds-autoscaler');
  assert.equal(w?.severity, 'info');
  assert.equal(
    w?.message,
    'The 601s grace period is longer than the 600s cluster-autoscaler gives a pod when it removes a node (its '
      + '--max-graceful-termination-sec, 600 unless set), so the manifest adds the pod annotation '
      + 'cluster-autoscaler.kubernetes.io/safe-to-evict: "false": the autoscaler then does not remove a node while one of these pods '
      + 'runs there, and such nodes are not scaled down, even when idle. To let them scale down, raise --max-graceful-termination-sec '
      + 'to at least 601 and remove the annotation. A node drain that shortens the grace period (kubectl drain --grace-period below it) '
      + 'still cuts these pods; kubectl drain --timeout only bounds how long the command waits.',
  );
});

test('the PodDisruptionBudget is on by default and can be turned off', () => {
  assert.deepEqual(planOf().podDisruptionBudget, { maxUnavailable: 1 });
  assert.equal(planOf({ 'pod-disruption-budget': 'false' }).podDisruptionBudget, null);
  assert.equal(
    planOf({ 'pod-disruption-budget': false }).derivation.find((s) => s.field === 'podDisruptionBudget')!.value,
    'off',
  );
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
