// Rounding rule: round to the nearest millisecond, then up to whole seconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ceilSeconds } from '../../src/model/seconds.ts';
import { planOf } from '../support/drain.ts';

test('30 × 1.1 gives 33, not 34 (floating point gives 33.000000000000004)', () => {
  assert.equal(ceilSeconds(30 * 1.1), 33);
  // max-request 30 s with 10 % headroom: drain 33 s; grace = 35 + 33 + 15 = 83
  const p = planOf({ 'max-request-seconds': 30, 'drain-headroom-percent': 10 });
  assert.equal(p.drainSeconds, 33);
  assert.equal(p.terminationGracePeriodSeconds, 83);
});

test('fractions round up to the next whole second', () => {
  assert.equal(ceilSeconds(49.152), 50);
  assert.equal(ceilSeconds(2.001), 3);
  assert.equal(ceilSeconds(7), 7);
  // removal 2.4 + margin 0.5 = 2.9 → 3
  assert.equal(planOf({ 'removal-seconds': 2.4, 'removal-margin-seconds': 0.5 }).preStopSeconds, 3);
});

test('noise below a millisecond does not add a second', () => {
  assert.equal(ceilSeconds(10.0004), 10);
  assert.equal(ceilSeconds(10.0006), 11);
  // a given removal of 10.0004 s is read as 10 s: preStop 10 + 5 = 15
  assert.equal(planOf({ 'removal-seconds': '10.0004' }).preStopSeconds, 15);
});

test('a derived longest request is rounded before the headroom is applied', () => {
  // 8192 × 10 ms × 1.2 = 98.304 → 99 s; 99 × 1.5 = 148.5 → 149 s
  const p = planOf({ 'max-output-tokens': 8192, 'tpot-ms': 10 });
  assert.equal(p.maxRequestSeconds, 99);
  assert.equal(p.drainSeconds, 149);
  // tpot 0.1 ms: 4096 × 0.1 ms × 1.2 = 0.49152 s → 1 s; 1 × 1.5 → 2 s
  const tiny = planOf({ 'tpot-ms': 0.1 });
  assert.equal(tiny.maxRequestSeconds, 1);
  assert.equal(tiny.drainSeconds, 2);
});

test('zero headroom and zero prefill overhead keep the bare numbers', () => {
  // 1000 tokens × 20 ms × 1.0 = 20 s; drain 20 × 1.0 = 20
  const p = planOf({
    'max-output-tokens': 1000,
    'tpot-ms': 20,
    'prefill-overhead-percent': 0,
    'drain-headroom-percent': 0,
  });
  assert.equal(p.maxRequestSeconds, 20);
  assert.equal(p.drainSeconds, 20);
});

test('a longest request under half a millisecond is 1 s, not 0: vLLM\u2019s --shutdown-timeout=0 would abort, not drain', () => {
  // 1 token × 0.1 ms × 1.2 = 0.12 ms: rounded up to a whole second, 1; drain 1 × 1.5 = 1.5 → 2.
  const p = planOf({ 'max-output-tokens': 1, 'tpot-ms': 0.1 });
  assert.equal(p.maxRequestSeconds, 1);
  assert.equal(p.drainSeconds, 2);
});
