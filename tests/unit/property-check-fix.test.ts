/**
 * Property test of the checker's fix (issue 30 item 7) over random workloads (tests/support/random-workloads.ts):
 * kinds, one to three containers, images at releases, launchers, probes and hooks in block and flow style. For
 * every one: the check returns (a report or a reported problem, never a throw); after the fix every lifecycle hook
 * and probe has exactly one handler; fixing the fixed manifest changes nothing.
 *
 * Reproducible: the seed is fixed unless FC_SEED is given, and a failure prints it with the shrunk manifest.
 * A workload costs up to two checks and fixes, about 6 CPU-ms in all, and the machine running the suite is shared:
 * a local run takes 1,000 (about 6 CPU-seconds), CI (CI=true, as .ci/run is run) the full sweep of 10,000 the issue
 * asks for (58 CPU-seconds, 3 min wall on a loaded 2-core machine when this test was written); FC_RUNS sets any.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { checkAndFix, handlerProblems, parseDocs } from '../support/corpus-invariants.ts';
import { randomWorkload } from '../support/random-workloads.ts';

const RUNS = Number(process.env.FC_RUNS ?? (process.env.CI === 'true' ? 10_000 : 1_000));
const seed = Number(process.env.FC_SEED ?? 20261204);

test(`random workloads: no throw, one handler per hook and probe, fixes converge (${RUNS} runs, seed ${seed})`, () => {
  fc.assert(
    fc.property(randomWorkload, ({ text }) => {
      const once = checkAndFix(text);
      if (!once.ok || once.text === text) return; // refused, or nothing to fix: fix(fix(x)) = fix(x) = x
      assert.deepEqual(handlerProblems(parseDocs(once.text)), [], `seed ${seed}\n${text}`);
      assert.equal(checkAndFix(once.text).text, once.text, `seed ${seed}: fix(fix(x)) differs\n${text}`);
    }),
    { numRuns: RUNS, seed },
  );
});

test('the random workloads are manifests a cluster takes, with one handler each, and most are checked', () => {
  const sample = fc.sample(randomWorkload, { numRuns: 300, seed });
  let checked = 0;
  for (const { text } of sample) {
    assert.deepEqual(handlerProblems(parseDocs(text)), [], text);
    if (checkAndFix(text).ok) checked++;
  }
  assert.ok(checked > 250, `${checked} of 300 were checked (not refused)`);
});
