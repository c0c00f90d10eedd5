import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readProfiles } from '../../src/facts/read-files.ts';
import { prepare } from '../../src/lab/prepare.ts';
import { bucketOutcomes, median } from '../../src/lab/timeline.ts';

const profiles = readProfiles();

test('a run lasts until the pod is gone and the last request has ended', () => {
  const { shape } = prepare('recommended', profiles, { gateway: 'gke', inputs: { 'removal-seconds': '30' } });
  // last request reaches the pod at 30 and runs 30 s: drain ends at 60, + 2 s teardown = 62
  assert.deepEqual(shape, { warmup: 10, loadEnd: 45, horizon: 60, expectedExit: 62, deadline: 115 });
});

test('a replace-after rolling update keeps load on until the replacement is up', () => {
  const { shape } = prepare('rolling', profiles, { gateway: 'gke', inputs: { 'removal-seconds': '30' } });
  // exit at 62, replacement loads 3 s, then 10 s of tail: 75
  assert.equal(shape.loadEnd, 75);
  assert.equal(shape.horizon, 85);
});

test('outcomes are counted in 2 s buckets of the time they happened', () => {
  const t = bucketOutcomes(
    [
      { ended: -9.5, outcome: 'ok' },
      { ended: 0.1, outcome: 'refused' },
      { ended: 1.9, outcome: 'refused' },
      { ended: 2, outcome: 'cut' },
      { ended: 50, outcome: 'ok' },
    ],
    -10,
    4,
  );
  assert.equal(t.width, 2);
  assert.deepEqual(
    t.buckets.map((b) => b.from),
    [-10, -8, -6, -4, -2, 0, 2],
  );
  assert.equal(t.buckets[0].ok, 1);
  assert.equal(t.buckets[5].refused, 2);
  assert.equal(t.buckets[6].cut, 1);
  assert.equal(t.buckets[6].ok, 1); // after the range: counted in the last bucket
});

test('median of three and of two', () => {
  assert.equal(median([9, 15, 9]), 9);
  assert.equal(median([4, 8]), 6);
  assert.equal(median([]), 0);
});
