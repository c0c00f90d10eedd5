// Ticks of the drain timeline's axis: the smallest step from 1, 2, 5, 10, 15, 20, 30, 60, … that fits, labelled in
// one unit per axis.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tickLabels, ticksFor } from '../../src/components/timeline/axis.ts';

test('130 s at up to 6 ticks steps by 30 s', () => {
  // 130 / 20 = 6.5 > 5 intervals; 130 / 30 = 4.33 <= 5
  assert.deepEqual(ticksFor(130, 6), [0, 30, 60, 90, 120]);
});

test('a one-hour drain cap at up to 10 ticks steps by 10 minutes', () => {
  // 3600 / 300 = 12 > 9; 3600 / 600 = 6 <= 9
  assert.deepEqual(tickLabels(ticksFor(3600, 10)), ['0m', '10m', '20m', '30m', '40m', '50m', '60m']);
});

test('a narrow chart still gets two ticks', () => {
  assert.deepEqual(ticksFor(10, 1), [0, 10]); // limit raised to 2 ticks: 10 / 10 = 1 interval
});

test('one unit per axis: seconds below 10 minutes or when a tick is not a whole minute, hours from 3 h', () => {
  assert.deepEqual(tickLabels([0, 30, 60, 90]), ['0s', '30s', '60s', '90s']);
  // 830 s at 7 ticks: 830 / 120 = 6.9 > 6; 830 / 300 = 2.8: 0, 300, 600 — whole minutes reaching 10 min
  assert.deepEqual(tickLabels(ticksFor(830, 7)), ['0m', '5m', '10m']);
  // 900 s by 150 s would include 150 (2.5 min): all in seconds
  assert.deepEqual(tickLabels([0, 150, 300, 450, 600, 750, 900]), [
    '0s',
    '150s',
    '300s',
    '450s',
    '600s',
    '750s',
    '900s',
  ]);
  assert.deepEqual(tickLabels([0, 3600, 7200, 10800]), ['0h', '1h', '2h', '3h']);
});
