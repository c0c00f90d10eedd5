import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readProfiles } from '../../src/facts/read-files.ts';
import { LabInputError, prepare } from '../../src/lab/prepare.ts';

const profiles = readProfiles();
// Removal is pinned so the arithmetic below does not depend on a profile's estimate.
// Lab workload: 300 tokens × 100 ms × (1 + 0 %) = 30 s longest request; drain ⌈30 × 1.5⌉ = 45; teardown 15.
const gke = { gateway: 'gke', inputs: { 'removal-seconds': '30' } };
const custom = {
  gateway: 'custom',
  inputs: {
    'health-check-interval-seconds': '5',
    'health-check-unhealthy-threshold': '2',
    'health-check-timeout-seconds': '5',
    'propagation-seconds': '5',
  },
};

test('recommended on an endpoint-view gateway applies the plan: preStop 35, grace 95, drain 45', () => {
  const { setup, plan } = prepare('recommended', profiles, gke);
  assert.equal(plan.preStopSeconds, 35); // 30 + 5 margin
  assert.equal(plan.drainSeconds, 45);
  assert.equal(setup.preStopSeconds, 35);
  assert.equal(setup.graceSeconds, 95); // 35 + 45 + 15
  assert.equal(setup.pushSeconds, 30);
  assert.equal(setup.pushState, 'maint');
  assert.deepEqual(setup.checks, { path: '/v1/models', intervalSeconds: 5, fall: 2, rise: 2, timeoutSeconds: 5 });
  assert.equal(setup.preStopFailsHealth, false);
  assert.deepEqual({ mode: setup.shutdown.mode, bound: setup.shutdown.boundSeconds }, { mode: 'drain', bound: 45 });
  assert.equal(setup.plan.drainFlag, '--shutdown-timeout=45');
  assert.deepEqual(setup.changes, []);
});

test('recommended on an epp-only gateway: the picker drops the pod at removal, no checks', () => {
  const { setup } = prepare('recommended', profiles, { gateway: 'istio', inputs: { 'removal-seconds': '10' } });
  assert.equal(setup.mechanism, 'epp-only');
  assert.equal(setup.pushSeconds, 10);
  assert.equal(setup.pushState, 'drain');
  assert.equal(setup.checks, null);
  assert.equal(setup.preStopSeconds, 15);
  assert.equal(setup.graceSeconds, 75); // 15 + 45 + 15
});

test('recommended on a health-check-only gateway fails the health check in the preStop', () => {
  const { setup, plan } = prepare('recommended', profiles, custom);
  assert.equal(plan.removalSeconds, 20); // 5 × 2 + 5 + 5
  assert.equal(setup.pushSeconds, null);
  assert.equal(setup.preStopSeconds, 25);
  assert.equal(setup.graceSeconds, 85); // 25 + 45 + 15
  assert.equal(setup.preStopFailsHealth, true);
  assert.deepEqual(setup.checks, { path: '/v1/models', intervalSeconds: 5, fall: 2, rise: 2, timeoutSeconds: 5 });
});

test('the mistakes change one number each', () => {
  assert.equal(prepare('no-prestop', profiles, gke).setup.preStopSeconds, 0);
  assert.equal(prepare('no-prestop', profiles, gke).setup.graceSeconds, 95);
  assert.equal(prepare('short-prestop', profiles, gke).setup.preStopSeconds, 15); // ⌊30 / 2⌋
  assert.equal(prepare('short-grace', profiles, gke).setup.graceSeconds, 40); // 35 + 5
  const abort = prepare('vllm-abort', profiles, gke).setup.shutdown;
  assert.deepEqual({ mode: abort.mode, bound: abort.boundSeconds }, { mode: 'abort', bound: 0 });
  const sleepOnly = prepare('hc-sleep-only', profiles, custom).setup;
  assert.equal(sleepOnly.preStopSeconds, 25);
  assert.equal(sleepOnly.preStopFailsHealth, false);
  const hcNone = prepare('hc-no-prestop', profiles, custom).setup;
  assert.equal(hcNone.preStopSeconds, 0);
  assert.equal(hcNone.preStopFailsHealth, false);
});

test('each model server drains as its profile says', () => {
  const of = (modelServer: string) => prepare('recommended', profiles, { ...gke, modelServer }).setup.shutdown;
  assert.deepEqual([of('sglang').mode, of('sglang').boundSeconds], ['drain', null]);
  // TGI: 90 s whether the data says `fixed` 90 or `flag` with default 90 and no flag in the plan; past it, cut.
  assert.equal(of('tgi').mode, 'drain');
  assert.equal(of('tgi').afterBound, 'cut');
  // Triton 24.04+: new connections are reset, open ones wait, out of the plan's --exit-timeout-secs=45.
  assert.deepEqual(
    [of('triton').boundSeconds, of('triton').newRequests, of('triton').waitsFor, of('triton').afterBound],
    [45, 'refuse-connection', 'connections', 'cut'],
  );
  assert.deepEqual([of('vllm').boundSeconds, of('vllm').afterBound, of('vllm').waitsFor], [45, 'aborted', 'requests']);
  assert.equal(of('llamacpp').mode, 'exit');
});

test('rolling follows the strategy: replace after without a spare GPU, surge with one', () => {
  assert.equal(prepare('rolling', profiles, gke).setup.rolling, 'replace-after');
  assert.equal(
    prepare('rolling', profiles, { gateway: 'gke', inputs: { 'removal-seconds': '30', 'spare-gpus': '1' } }).setup
      .rolling,
    'surge-first',
  );
});

test('mismatched flags are rejected naming the flag and what is allowed', () => {
  assert.throws(
    () => prepare('nope', profiles),
    (e: Error) => e instanceof LabInputError && /--scenario must be one of recommended, no-prestop/.test(e.message),
  );
  assert.throws(
    () => prepare('hc-no-prestop', profiles, { gateway: 'gke' }),
    (e: Error) => e instanceof LabInputError && /--gateway must be one of custom/.test(e.message),
  );
  assert.throws(
    () => prepare('vllm-abort', profiles, { modelServer: 'sglang' }),
    (e: Error) => e instanceof LabInputError && /--model-server must be vllm/.test(e.message),
  );
  assert.throws(
    () => prepare('recommended', profiles, { gateway: 'nope' }),
    (e: Error) => e instanceof LabInputError && /--gateway must be one of/.test(e.message),
  );
  assert.throws(
    () => prepare('recommended', profiles, { inputs: { 'removal-seconds': '600' } }),
    (e: Error) => e instanceof LabInputError && /at most 600/.test(e.message),
  );
});
