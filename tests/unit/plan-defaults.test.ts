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

test('the default plan notes only the placeholder time per token and the drain flag\u2019s expected first release', () => {
  const p = planOf();
  assert.deepEqual(p.warnings.map((w) => [w.code, w.severity]), [['request-placeholder', 'warning'], ['drain-flag-min-version', 'info']]);
  assert.equal(p.warnings[1].message,
    '--shutdown-timeout is expected from vLLM 0.18.0; pin an image you have '
    + 'checked has it. Without it, or with --shutdown-timeout=0, in-flight requests are aborted at SIGTERM.');
});

test('request-placeholder: a longest request derived at the placeholder 10 ms per token is noted, with the 47\u2013100 ms sources report', () => {
  // 4096 tokens × 10 ms × 1.2 = 49.152 s → 50 s longest request.
  const w = planOf().warnings.find((x) => x.code === 'request-placeholder');
  assert.equal(w?.severity, 'warning');
  assert.equal(w?.message,
    'The 50s longest request uses the placeholder 10 ms per token, which comes from no source; sources report 47\u2013100 ms '
    + 'per token for Qwen3-32B. Measure your p99 time per output token at full batch and set tpot-ms, or set max-request-seconds.');
  // 8192 tokens × 10 ms × 1.2 = 98.304 s → 99 s: the note names the plan's own longest request.
  assert.match(planOf({ 'max-output-tokens': 8192 }).warnings.find((x) => x.code === 'request-placeholder')!.message, /^The 99s longest request/);
});

test('request-placeholder: not when time per token or the longest request is given', () => {
  const has = (raw: Record<string, unknown>) => planOf(raw).warnings.some((x) => x.code === 'request-placeholder');
  assert.equal(has({ 'tpot-ms': 47 }), false);
  assert.equal(has({ 'tpot-ms': 10.5 }), false);
  assert.equal(has({ 'max-request-seconds': 50 }), false);
  // A given longest request wins even with the placeholder rate: nothing is derived from it.
  assert.equal(has({ 'max-request-seconds': 50, 'tpot-ms': 10 }), false);
});
