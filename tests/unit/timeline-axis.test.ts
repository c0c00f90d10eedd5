// Ticks of the drain timeline's axis: the smallest step from 1, 2, 5, 10, 15, 20, 30, 60, … that fits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tickLabel, ticksFor } from '../../src/components/timeline/axis.ts';

test('130 s at up to 6 ticks steps by 30 s', () => {
  // 130 / 20 = 6.5 > 5 intervals; 130 / 30 = 4.33 <= 5
  assert.deepEqual(ticksFor(130, 6), [0, 30, 60, 90, 120]);
});

test('a one-hour drain cap at up to 10 ticks steps by 10 minutes', () => {
  // 3600 / 300 = 12 > 9; 3600 / 600 = 6 <= 9
  assert.deepEqual(ticksFor(3600, 10).map(tickLabel), ['0s', '10m', '20m', '30m', '40m', '50m', '1h']);
});

test('a narrow chart still gets two ticks', () => {
  assert.deepEqual(ticksFor(10, 1), [0, 10]);               // limit raised to 2 ticks: 10 / 10 = 1 interval
});
