// The default plan (gke + vllm), worked by hand from DRAIN-MODEL.md and the profiles:
//   removal 30 (gke, observed) + margin 5 = 35 preStop
//   4096 tokens × 10 ms × 1.2 = 49.152 s → 50 s longest request
//   50 × 1.5 = 75 s drain;  35 + 75 + 15 = 125 s grace
//   0 spare GPUs < 1 per replica → maxSurge 0, maxUnavailable 1
//   125 + 600 = 725 progress deadline;  600 / 10 = 60 startup failures
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planOf } from '../support/drain.ts';

test('default plan follows the drain model to the second', () => {
  const p = planOf();
  assert.equal(p.gateway, 'gke');
  assert.equal(p.modelServer, 'vllm');
  assert.equal(p.removalSeconds, 30);
  assert.equal(p.removalBasis, 'observed');
  assert.equal(p.preStopSeconds, 35);
  assert.equal(p.preStopAction, 'sleep');
  assert.equal(p.maxRequestSeconds, 50);
  assert.equal(p.maxRequestDerived, true);
  assert.equal(p.drainSeconds, 75);
  assert.equal(p.terminationGracePeriodSeconds, 125);
  assert.deepEqual(p.drainFlag, { flag: '--shutdown-timeout', seconds: 75 });
  assert.deepEqual(p.strategy, { maxSurge: 0, maxUnavailable: 1 });
  assert.equal(p.progressDeadlineSeconds, 725);
  assert.equal(p.probes.startup.failureThreshold, 60);
  assert.equal(p.probes.readiness.periodSeconds, 5);
  assert.equal(p.probes.readiness.failureThreshold, 3);
  assert.equal(p.probes.liveness.periodSeconds, 10);
  assert.equal(p.probes.liveness.failureThreshold, 3);
});

test('the derivation states the arithmetic of each drain value', () => {
  const formula = (field: string) => planOf().derivation.find((s) => s.field === field)?.formula;
  assert.equal(formula('preStopSeconds'), '30s removal p99 + 5s margin');
  assert.equal(formula('maxRequestSeconds'), '4096 tokens × 10ms × 1.2 prefill = 49.152s, rounded up');
  assert.equal(formula('drainSeconds'), '50s longest request × 1.5 headroom');
  assert.equal(formula('terminationGracePeriodSeconds'), '35s preStop + 75s drain + 15s teardown');
  assert.equal(formula('progressDeadlineSeconds'), '125s grace + 600s model load');
});

test('the default plan warns only that the drain flag needs vLLM 0.18', () => {
  const p = planOf();
  assert.deepEqual(p.warnings.map((w) => [w.code, w.severity]), [['drain-flag-min-version', 'info']]);
  assert.match(p.warnings[0].message, /--shutdown-timeout needs vLLM 0\.18/);
});
