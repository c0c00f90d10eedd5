import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSchedule, LAB_MIX, longestSeconds, requestSeconds } from '../../src/lab/load-mix.ts';
import { pickWeighted, seededRandom } from '../../src/lab/rng.ts';

test('mulberry32 gives the reference sequence for seed 1', () => {
  // Reference values computed separately (Python, 32-bit arithmetic) for mulberry32(1).
  const random = seededRandom(1);
  assert.equal(random(), 0.6270739405881613);
  assert.equal(random(), 0.002735721180215478);
  assert.equal(random(), 0.5274470399599522);
});

test('pickWeighted walks the cumulative weights', () => {
  const items = [
    { id: 'a', weight: 0.3 },
    { id: 'b', weight: 0.3 },
    { id: 'c', weight: 0.4 },
  ];
  assert.equal(pickWeighted(() => 0, items).id, 'a');
  assert.equal(pickWeighted(() => 0.29, items).id, 'a');
  assert.equal(pickWeighted(() => 0.3, items).id, 'b');
  assert.equal(pickWeighted(() => 0.61, items).id, 'c');
  assert.equal(pickWeighted(() => 0.999, items).id, 'c');
});

test('lengths: 300 tokens at 100 ms is 30 model seconds, the longest of the mix', () => {
  assert.equal(requestSeconds(300), 30);
  assert.equal(requestSeconds(20), 2);
  assert.equal(longestSeconds(), 30);
});

test('arrivals are every 1/6 model second from the start, ids in order', () => {
  const schedule = buildSchedule({ seed: 7, from: -10, to: 0 });
  assert.equal(schedule.length, 60);
  assert.equal(schedule[0].at, -10);
  assert.equal(schedule[1].at, -9.833);
  assert.equal(schedule[59].at, -0.167);
  assert.deepEqual(
    schedule.map((r) => r.id),
    Array.from({ length: 60 }, (_, i) => i + 1),
  );
});

test('the same seed gives the same mix; another seed another', () => {
  const a = buildSchedule({ seed: 42, from: 0, to: 50 }).map((r) => r.maxTokens);
  const b = buildSchedule({ seed: 42, from: 0, to: 50 }).map((r) => r.maxTokens);
  const c = buildSchedule({ seed: 43, from: 0, to: 50 }).map((r) => r.maxTokens);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a, c);
});

test('over many requests the mix has its shares (30/30/20/10/10 %)', () => {
  const schedule = buildSchedule({ seed: 3, from: 0, to: 10_000 });
  assert.equal(schedule.length, 60_000);
  const expected: Record<number, number> = { 20: 0.3, 50: 0.3, 100: 0.2, 200: 0.1, 300: 0.1 };
  for (const m of LAB_MIX) {
    const share = schedule.filter((r) => r.maxTokens === m.maxTokens).length / schedule.length;
    assert.ok(Math.abs(share - expected[m.maxTokens]) < 0.01, `${m.maxTokens} tokens: ${share}`);
  }
});

test('the horizon leaves out requests that would outlast it without changing the others', () => {
  const full = buildSchedule({ seed: 42, from: 0, to: 20 });
  const cut = buildSchedule({ seed: 42, from: 0, to: 20, horizon: 25 });
  assert.ok(cut.length < full.length);
  for (const r of cut) {
    assert.ok(r.at + r.seconds <= 25);
    assert.deepEqual(
      r,
      full.find((f) => f.id === r.id),
    );
  }
  assert.equal(full.filter((r) => r.at + r.seconds <= 25).length, cut.length);
});
