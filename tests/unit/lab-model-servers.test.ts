import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ModelServerProfile, Profiles } from '../../src/facts/profiles.ts';
import { standInGatewayLabel, standInLogLabel } from '../../src/lab/labels.ts';
import { exitContradicts } from '../../src/lab/predict.ts';
import { LabInputError, prepare, publishSet } from '../../src/lab/prepare.ts';
import { shutdownLog } from '../../src/lab/server-logs.ts';
import type { ServerShutdown } from '../../src/lab/setup.ts';
import { readProfiles } from '../../src/facts/read-files.ts';

const profiles = readProfiles();
// Removal pinned at 30 s: preStop 35, drain ⌈30 × 1.5⌉ = 45 for the lab's 30 s longest request, grace 95.
const gke = { gateway: 'gke', inputs: { 'removal-seconds': '30' } };

/** The profiles with TGI's drain as the fact check corrects it: `--graceful-termination-timeout`, default 90. */
function withTgiFlag(base: Profiles): Profiles {
  const tgi = (m: ModelServerProfile): ModelServerProfile => ({
    ...m,
    drain: {
      ...m.drain,
      kind: 'flag',
      flag: '--graceful-termination-timeout',
      defaultSeconds: 90,
      fixedSeconds: undefined,
    },
  });
  return { ...base, modelServers: base.modelServers.map((m) => (m.id === 'tgi' ? tgi(m) : m)) };
}

/** The profiles with TGI's drain as the data said before the correction: a fixed 90 s, no flag. */
function withTgiFixed(base: Profiles): Profiles {
  const tgi = (m: ModelServerProfile): ModelServerProfile => ({
    ...m,
    drain: { ...m.drain, kind: 'fixed', fixedSeconds: 90, flag: undefined, defaultSeconds: undefined },
  });
  return { ...base, modelServers: base.modelServers.map((m) => (m.id === 'tgi' ? tgi(m) : m)) };
}

test("TGI with the drain flag: the stand-in drains for the plan's --graceful-termination-timeout, then cuts", () => {
  const { setup, prediction } = prepare('recommended', withTgiFlag(profiles), { ...gke, modelServer: 'tgi' });
  assert.equal(setup.plan.drainFlag, '--graceful-termination-timeout=45');
  assert.deepEqual([setup.shutdown.mode, setup.shutdown.boundSeconds, setup.shutdown.afterBound], ['drain', 45, 'cut']);
  assert.equal(prediction.expect, 'none');
});

test('TGI with the flag at 5 s: the launcher kills its web server at SIGTERM + 5 and cuts about 6 requests', () => {
  const { setup, prediction } = prepare('short-drain', withTgiFlag(profiles), { ...gke, modelServer: 'tgi' });
  assert.equal(setup.shutdown.boundSeconds, 5);
  assert.deepEqual(setup.changes, [
    '--graceful-termination-timeout=5 (the plan sets --graceful-termination-timeout=45)',
  ]);
  // Cut at 35 + 5 = 40; routing stopped at 30, λ = 2 per pod: the 20 s requests from 20..30 (× .1) and the 30 s
  // requests from 10..30 (× .1) still run: (10 × .1 + 20 × .1) × 2 = 6.
  assert.deepEqual(prediction.back, { at: 40, outcome: 'cut', count: { min: 6, max: 6 } });
  assert.equal(prediction.expect, 'loss');
});

test('TGI as a fixed 90 s: the stand-in drains 90 s, and short-drain is refused naming the servers that fit', () => {
  const fixed = withTgiFixed(profiles);
  const { setup } = prepare('recommended', fixed, { ...gke, modelServer: 'tgi' });
  assert.deepEqual([setup.plan.drainFlag, setup.shutdown.boundSeconds, setup.shutdown.afterBound], [null, 90, 'cut']);
  assert.throws(
    () => prepare('short-drain', fixed, { ...gke, modelServer: 'tgi' }),
    (e: Error) =>
      e instanceof LabInputError
      && /--model-server must be one of vllm, .*triton.* for --scenario short-drain/.test(e.message)
      && !/tgi,/.test(e.message),
  );
  assert.throws(() => prepare('short-drain', profiles, { ...gke, modelServer: 'llamacpp' }), LabInputError);
});

test('Triton with its exit timeout at 5 s: the one budget runs out at SIGTERM + 5 and what still runs is cut', () => {
  const { setup, prediction } = prepare('short-drain', profiles, { ...gke, modelServer: 'triton' });
  assert.deepEqual(setup.changes, ['--exit-timeout-secs=5 (the plan sets --exit-timeout-secs=45)']);
  assert.deepEqual(prediction.back, { at: 40, outcome: 'cut', count: { min: 6, max: 6 } });
});

test('vLLM with its shutdown timeout at 5 s aborts what still runs instead of cutting it', () => {
  assert.deepEqual(prepare('short-drain', profiles, { ...gke, modelServer: 'vllm' }).prediction.back, {
    at: 40,
    outcome: 'aborted',
    count: { min: 6, max: 6 },
  });
});

test('SGLang drains without a bound, so only SIGKILL at the grace deadline cuts it', () => {
  const { prediction } = prepare('short-grace', profiles, { ...gke, modelServer: 'sglang' });
  // SIGKILL at 35 + 5 = 40: the same 6 requests as above, cut.
  assert.deepEqual(prediction.back, { at: 40, outcome: 'cut', count: { min: 6, max: 6 } });
});

test('publish covers every model server, with short-drain for TGI once it has the flag', () => {
  const ids = (p: Profiles) => publishSet(p).map((x) => x.id);
  const flagged = ids(withTgiFlag(profiles));
  for (const server of profiles.modelServers.map((m) => m.id))
    assert.ok(flagged.includes(`recommended@gke/${server}`), server);
  assert.ok(flagged.includes('short-drain@gke/tgi'));
  assert.ok(flagged.includes('short-drain@gke/triton'));
  assert.ok(flagged.includes('short-grace@gke/sglang'));
  assert.ok(flagged.includes('vllm-abort@gke/vllm'));
  assert.ok(flagged.includes('idle-connection@gke/triton'));
  assert.ok(!ids(withTgiFixed(profiles)).includes('short-drain@gke/tgi'));
});

/** A server's profile, read from its data file. */
const server = (id: string) => profiles.modelServers.find((m) => m.id === id)!;

const triton: ServerShutdown = {
  mode: 'drain',
  boundSeconds: 45,
  afterBound: 'cut',
  newRequests: 'refuse-connection',
  waitsFor: 'connections',
  healthWhileDraining: 'fails',
  teardownSeconds: 2,
  log: server('triton').shutdownLog,
};

test('Triton held by an idle pooled connection: no loss, and the pod stays up for the whole budget', () => {
  const { setup, prediction } = prepare('idle-connection', profiles, { ...gke, modelServer: 'triton' });
  assert.equal(setup.idleConnections, 1);
  assert.equal(prediction.expect, 'none');
  // SIGTERM at 35 + --exit-timeout-secs=45: up until 80, before SIGKILL at 95.
  assert.equal(prediction.upUntil, 80);
  assert.equal(exitContradicts(prediction, 60), true); // exited when the last request ended: the budget was not held
  assert.equal(exitContradicts(prediction, 79.5), false); // within the 1 s slack
  assert.equal(exitContradicts(prediction, 82), false);
  assert.equal(prepare('recommended', profiles, { ...gke, modelServer: 'triton' }).prediction.upUntil, null);
  assert.throws(() => prepare('idle-connection', profiles, { ...gke, modelServer: 'vllm' }), LabInputError);
});

test("the Triton stand-in logs in r25.05's order, counting down one budget", () => {
  const log = shutdownLog(triton, 1);
  assert.deepEqual(log.sigterm, ['Signal (15) received.']);
  assert.equal(log.progress!(3, 41.8, []), 'Timeout 42: Found 3 HTTP service connections');
  assert.deepEqual(log.drained(37.5), [
    'Waiting for in-flight requests to complete.',
    'Timeout 38: Found 0 model versions that have in-flight inferences',
    'All models are stopped, unloading models',
    'Timeout 38: Found 0 live models and 0 in-flight non-inference requests',
  ]);
  assert.deepEqual(log.bound(2).at(-1), 'failed to stop server: Exit timeout expired. Exiting immediately.');
});

test("the TGI stand-in logs what v3.3.7's launcher logs, killing the web server when the timeout runs out", () => {
  const log = shutdownLog({ ...triton, log: server('tgi').shutdownLog, waitsFor: 'requests' }, 1);
  assert.deepEqual(log.sigterm.slice(0, 2), ['Terminating webserver', 'Waiting for webserver to gracefully shutdown']);
  assert.deepEqual(log.drained(null), ['webserver terminated', 'Shutting down shards']);
  assert.deepEqual(log.bound(3), ['Killing webserver', 'webserver killed', 'Shutting down shards']);
});

test('labels say what stands in for what', () => {
  assert.equal(standInGatewayLabel('epp-only', 'Istio'), "HAProxy with Istio's removal delay");
  assert.equal(
    standInGatewayLabel('endpoint-view', 'GKE Gateway'),
    "HAProxy with GKE Gateway's removal delay and health checks",
  );
  assert.equal(standInGatewayLabel('health-check', 'Your own gateway'), 'HAProxy with health checks only');
  assert.match(
    standInLogLabel(server('tgi').shutdownLog?.follows, 'Hugging Face TGI'),
    /^Stand-in output, shaped like the log of TGI v3\.3\.7/,
  );
  assert.match(standInLogLabel(undefined, 'Other'), /^Stand-in output; it does not follow a Other release/);
  assert.match(standInLogLabel(server('triton').shutdownLog?.follows, 'NVIDIA Triton'), /Triton r25\.05/);
});
