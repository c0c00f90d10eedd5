import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rolloutOrder, terminationTimes } from '../../src/lab/kubelet-rules.ts';

test('SIGTERM follows the preStop; SIGKILL comes at the grace deadline', () => {
  // preStop 35 within grace 95: TERM at 35, KILL at 35 + (95 − 35) = 95.
  assert.deepEqual(terminationTimes(35, 95), { preStopEnd: 35, preStopCut: false, sigterm: 35, sigkill: 95 });
});

test('without a preStop, SIGTERM is immediate and SIGKILL comes at grace', () => {
  assert.deepEqual(terminationTimes(0, 30), { preStopEnd: 0, preStopCut: false, sigterm: 0, sigkill: 30 });
});

test('the kubelet leaves at least 2 s between SIGTERM and SIGKILL', () => {
  // grace 11 − preStop 10 = 1 s left, raised to the 2 s minimum: KILL at 10 + 2 = 12.
  assert.deepEqual(terminationTimes(10, 11), { preStopEnd: 10, preStopCut: false, sigterm: 10, sigkill: 12 });
  // preStop exactly as long as grace: 0 s left, raised to 2: KILL at 32.
  assert.deepEqual(terminationTimes(30, 30), { preStopEnd: 30, preStopCut: false, sigterm: 30, sigkill: 32 });
});

test('a preStop longer than grace is abandoned at grace, then TERM and KILL 2 s later', () => {
  assert.deepEqual(terminationTimes(40, 30), { preStopEnd: 30, preStopCut: true, sigterm: 30, sigkill: 32 });
});

test('short-grace arithmetic: preStop 35, grace 40 gives KILL 5 s after TERM', () => {
  assert.deepEqual(terminationTimes(35, 40), { preStopEnd: 35, preStopCut: false, sigterm: 35, sigkill: 40 });
});

test('a surge strategy starts the replacement first, otherwise after the old pod', () => {
  assert.equal(rolloutOrder({ maxSurge: 1, maxUnavailable: 0 }), 'surge-first');
  assert.equal(rolloutOrder({ maxSurge: 0, maxUnavailable: 1 }), 'replace-after');
});
