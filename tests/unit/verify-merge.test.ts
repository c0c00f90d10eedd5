import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mergeReports, readReportFile } from '../../src/verify/merge.ts';
import type { RequestRow, VerifyReport } from '../../src/verify/report.ts';

const settings = {
  url: 'http://gw/v1/completions',
  api: 'completions' as const,
  model: 'm',
  ratePerSecond: 5,
  concurrency: 50,
  durationSeconds: 60,
  maxTokens: 200,
  timeoutSeconds: 300,
};

const row = (
  id: number,
  start: number,
  end: number,
  outcome: RequestRow['outcome'],
  ttftMs: number | null = 100,
): RequestRow => ({ id, start, end, outcome, status: outcome === 'refused' ? 503 : 200, ttftMs, detail: null });

/** Shard A starts at 12:00:00, shard B two seconds later. Counts written out by hand. */
const a: VerifyReport = {
  tool: 'hitless verify',
  version: 1,
  startedAt: '2026-12-01T12:00:00.000Z',
  settings,
  requests: 3,
  outcomes: { ok: 2, refused: 1, cut: 0, aborted: 0, unreadable: 0, timeout: 0 },
  lost: 1,
  skipped: 2,
  cancelled: 0,
  ttftMs: { p50: 100, p99: 300 },
  longestOkSeconds: 4,
  clientMaxLagMs: 12,
  shards: 1,
  events: [
    { atSeconds: 0, what: 'load starts' },
    { atSeconds: 10, what: 'rollout complete' },
  ],
  perRequest: [row(1, 0, 4, 'ok', 100), row(2, 1, 1.1, 'refused', null), row(3, 2, 5, 'ok', 300)],
};
const b: VerifyReport = {
  ...a,
  startedAt: '2026-12-01T12:00:02.000Z',
  requests: 3,
  outcomes: { ok: 1, refused: 0, cut: 1, aborted: 0, unreadable: 0, timeout: 0 },
  lost: 1,
  skipped: 0,
  cancelled: 1,
  ttftMs: { p50: 200, p99: 200 },
  longestOkSeconds: 6,
  clientMaxLagMs: 40,
  events: [{ atSeconds: 0, what: 'load starts' }],
  perRequest: [row(1, 0, 6, 'ok', 200), row(2, 0.5, 3, 'cut', 150), row(3, 1, 2, 'cancelled', null)],
};

test('merging adds the counts up and moves every time onto the earliest start', () => {
  const m = mergeReports([b, a]);
  assert.equal(m.startedAt, '2026-12-01T12:00:00.000Z');
  assert.equal(m.requests, 6);
  assert.deepEqual(m.outcomes, { ok: 3, refused: 1, cut: 1, aborted: 0, unreadable: 0, timeout: 0 });
  assert.equal(m.lost, 2);
  assert.equal(m.skipped, 2);
  assert.equal(m.cancelled, 1);
  assert.equal(m.shards, 2);
  assert.equal(m.longestOkSeconds, 6);
  assert.equal(m.clientMaxLagMs, 40);
  assert.equal(m.settings.ratePerSecond, 10);
  assert.equal(m.settings.concurrency, 100);
  // The four TTFTs (100, 300 from a; 200, 150 from b) sorted: 100 150 200 300; nearest rank: p50 the 2nd, p99 the 4th.
  assert.deepEqual(m.ttftMs, { p50: 150, p99: 300 });
  // b (shard 0, given first) started 2 s after a (shard 1): b's times move by +2 s.
  const bCut = m.perRequest.find((r) => r.shard === 0 && r.id === 2)!;
  assert.deepEqual([bCut.start, bCut.end, bCut.outcome], [2.5, 5, 'cut']);
  const aRefused = m.perRequest.find((r) => r.shard === 1 && r.id === 2)!;
  assert.deepEqual([aRefused.start, aRefused.end], [1, 1.1]);
  assert.deepEqual(m.events, [
    { atSeconds: 0, what: 'shard 1: load starts' },
    { atSeconds: 2, what: 'shard 0: load starts' },
    { atSeconds: 10, what: 'shard 1: rollout complete' },
  ]);
});

test('merging merged reports counts the shards inside them', () => {
  const once = mergeReports([a, b]);
  const twice = mergeReports([once, a]);
  assert.equal(twice.shards, 3);
  assert.equal(twice.requests, 9);
  assert.deepEqual(twice.outcomes, { ok: 5, refused: 2, cut: 1, aborted: 0, unreadable: 0, timeout: 0 });
});

test('report files: kubectl log lines before the JSON are skipped; other files are refused naming the problem', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verify-merge-'));
  try {
    writeFileSync(
      join(dir, 'shard-0.json'),
      `Defaulted container "verify" out of: verify\n${JSON.stringify(a, null, 2)}\n`,
    );
    assert.equal(readReportFile(join(dir, 'shard-0.json')).requests, 3);
    writeFileSync(join(dir, 'lab.json'), JSON.stringify({ wallSeconds: 3, scenarios: [] }));
    assert.throws(
      () => readReportFile(join(dir, 'lab.json')),
      /lab\.json is not a hitless verify report: "tool" is not "hitless verify"/,
    );
    writeFileSync(join(dir, 'text.json'), 'hitless verify: 3 requests');
    assert.throws(() => readReportFile(join(dir, 'text.json')), /text\.json is not a hitless verify JSON report/);
    assert.throws(() => readReportFile(join(dir, 'missing.json')), /missing\.json cannot be read: ENOENT/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a shard written before unreadable was an outcome (no count for it) is read as none', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verify-merge-'));
  try {
    const old = JSON.parse(JSON.stringify(a)) as Record<string, unknown>;
    delete (old.outcomes as Record<string, number>).unreadable;
    writeFileSync(join(dir, 'old.json'), JSON.stringify(old));
    const merged = mergeReports([readReportFile(join(dir, 'old.json'))]);
    assert.equal(merged.outcomes.unreadable, 0);
    assert.equal(merged.lost, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
