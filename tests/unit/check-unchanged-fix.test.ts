// A fix whose value is already there is not a finding (issue 34 item 7): the checker drops such a verdict, and the
// plan's own warning names the setting at fault. The case that showed it: an unbounded drain capped below the
// longest request, where grace-too-short "fixed" terminationGracePeriodSeconds to the value the manifest had.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changesNothing } from '../../src/check/fix/unchanged.ts';
import { readManifest } from '../../src/check/read/read-manifest.ts';
import { manifestOf } from '../support/drain.ts';
import { check, codes } from '../support/check.ts';

test('the generator\u2019s manifest for a cap below the longest request: the plan\u2019s error, no grace-too-short', () => {
  // 10 ms × 4096 × 1.2 = 49.152 → 50 s longest request; cap 40 s; grace 35 + 40 + 15 = 90 s, which leaves
  // 90 − 35 = 55 s after the sleep: not below 50 s. With teardown 0: grace 75 s leaves 40 s < 50 s, and the
  // grace-too-short fix would write 35 + 40 + 0 = 75, the value there.
  const settings = { 'tpot-ms': '10', 'unbounded-drain': 'true', 'drain-cap-seconds': '40', 'teardown-seconds': '0' };
  const manifest = manifestOf(settings);
  assert.match(manifest, /terminationGracePeriodSeconds: 75\b/);
  const report = check(manifest, settings);
  assert.deepEqual(codes(report, 'error'), ['drain-cap-below-request']);
  assert.ok(!codes(report).includes('grace-too-short'));
  // The same manifest with a shorter grace period: grace-too-short fires again, and its fix writes 75.
  const short = check(
    manifest.replace('terminationGracePeriodSeconds: 75', 'terminationGracePeriodSeconds: 60'),
    settings,
  );
  const grace = short.findings.find((f) => f.code === 'grace-too-short');
  assert.equal(grace?.severity, 'error');
  assert.equal(grace?.fix?.edits[0].value, 75);
});

test('changesNothing: set and splice edits that write what is there; anything else changes something', () => {
  const read = readManifest('kind: ConfigMap\nmetadata: {name: a}\ndata: {k: "v1", num: 5}\nlist: [1, {a: 2}]\n');
  assert.ok(read.ok);
  const m = read.manifest;
  const set = (path: (string | number)[], value: unknown) => ({ op: 'set' as const, document: 0, path, value });
  assert.equal(changesNothing(m, [set(['data', 'num'], 5)]), true);
  assert.equal(changesNothing(m, [set(['data', 'num'], '5')]), false, 'a string where a number is: a change');
  assert.equal(changesNothing(m, [set(['list'], [1, { a: 2 }])]), true);
  assert.equal(changesNothing(m, [set(['list'], [1, { a: 2, b: 3 }])]), false);
  assert.equal(changesNothing(m, [set(['data', 'num'], 5), set(['data', 'k'], 'v2')]), false, 'one real edit');
  assert.equal(changesNothing(m, [set(['data', 'missing'], undefined)]), false, 'a missing path is written');
  assert.equal(changesNothing(m, [{ ...set(['data', 'k'], 'v'), op: 'splice', start: 0, end: 1 }]), true);
  assert.equal(changesNothing(m, [{ ...set(['data', 'k'], 'x'), op: 'splice', start: 0, end: 1 }]), false);
  assert.equal(changesNothing(m, [{ ...set(['list'], 3), op: 'append' }]), false);
  assert.equal(
    changesNothing(m, [set(['data', 'num'], 5), { ...set([], 'kind: A\n'), op: 'add-document', document: 1 }]),
    false,
  );
  assert.equal(changesNothing(m, []), false, 'no edits: a manual fix, kept');
});
