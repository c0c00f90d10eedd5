// The drain timeline, worked by hand from the race on the drain model page (content/docs/drain-model.mdx):
//   a request that reaches the pod at or after SIGTERM is refused (front window);
//   one still running when the server stops serving (drain bound or SIGKILL, whichever first) is cut (back).
// Every expected value below is computed in the comment beside it, never by the code under test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readProfiles } from '../../src/facts/read-files.ts';
import { plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import {
  buildTimeline,
  fateOf,
  frontZoomSeconds,
  settingsFor,
  type ExampleRequest,
  type TimelineOverrides,
  type TimelineSettings,
} from '../../src/model/timeline.ts';

const profiles = readProfiles();

/** Settings with one picker path at 0 s and a gateway path at `removal`, from deletion. */
function settings(over: Partial<TimelineSettings> & { removal?: number } = {}): TimelineSettings {
  const { removal = 30, ...rest } = over;
  return {
    paths: [
      { id: 'epp', label: 'Endpoint Picker', from: 'deletion', seconds: 0, basis: 'watch' },
      { id: 'gateway', label: 'Gateway', from: 'deletion', seconds: removal, basis: 'observed' },
    ],
    preStopSeconds: 35,
    drain: { kind: 'seconds', seconds: 75 },
    drainSetting: '--shutdown-timeout=75',
    teardownSeconds: 15,
    terminationGracePeriodSeconds: 125,
    maxRequestSeconds: 50,
    ...rest,
  };
}

const req = (arrivalSeconds: number, durationSeconds: number): ExampleRequest => ({
  id: 'r',
  label: 'r',
  arrivalSeconds,
  durationSeconds,
});

/**
 * The timeline of a plan. Plans here run at 10 ms per output token unless the test says otherwise (4096 × 10 ms ×
 * 1.2 = 49.152 → 50 s longest request, 75 s drain, 125 s grace at GKE), which keeps the race short enough to work
 * out by hand; the drain model's default rate does not change how the race is decided.
 */
function timelineFor(raw: Record<string, unknown>, overrides: TimelineOverrides = {}) {
  const { inputs, errors } = resolveInputs({ 'tpot-ms': 10, ...raw }, profiles);
  assert.deepEqual(errors, []);
  return buildTimeline(settingsFor(plan(inputs, profiles), profiles, overrides));
}

const fates = (t: ReturnType<typeof buildTimeline>) =>
  t.requests.map((r) => [r.request.arrivalSeconds, r.request.durationSeconds, r.fate]);
const codes = (t: ReturnType<typeof buildTimeline>) => t.problems.map((p) => p.code);

test('removal 30, preStop 20: requests reaching the pod from 20 s to 30 s are refused', () => {
  const s = settings({ preStopSeconds: 20, terminationGracePeriodSeconds: 110 });
  assert.equal(fateOf(req(19.9, 1), s).fate, 'ok'); // before SIGTERM at 20, ends 20.9 < 95
  assert.equal(fateOf(req(20, 1), s).fate, 'refused'); // at SIGTERM: no longer accepted
  assert.equal(fateOf(req(25, 10), s).fate, 'refused');
  assert.equal(fateOf(req(29.9, 10), s).fate, 'refused');
  const t = buildTimeline(s);
  assert.equal(t.sigtermSeconds, 20);
  assert.equal(t.lastRemovalSeconds, 30);
  assert.deepEqual(
    t.windows.find((w) => w.id === 'front'),
    { id: 'front', startSeconds: 20, endSeconds: 30, label: 'Refused window: routed here after SIGTERM, 10s' },
  );
  // longest at 0 ends 50; last accepted = min(20, 30) - 1 = 19, ends 69 <= 20 + 75 = 95;
  // short = ceil(50 / 5) = 10 s, routed late at (20 + 30) / 2 = 25: refused.
  assert.deepEqual(fates(t), [
    [0, 50, 'ok'],
    [19, 50, 'ok'],
    [25, 10, 'refused'],
  ]);
  assert.deepEqual(codes(t), ['front-window']);
  assert.equal(
    t.problems[0].message,
    'Requests routed here between 20s (SIGTERM) and 30s (the last removal) are refused: the sleep ends 10s too early.',
  );
});

test('grace 60 with preStop 35 + drain 75: a 50 s request starting at 30 s is cut by SIGKILL', () => {
  const s = settings({ terminationGracePeriodSeconds: 60 });
  const cut = fateOf(req(30, 50), s); // accepted (30 < 35), needs until 80 > 60
  assert.equal(cut.fate, 'cut');
  assert.equal(cut.endSeconds, 60);
  assert.equal(cut.wouldEndSeconds, 80);
  assert.equal(cut.reason, 'needs until 80s, but SIGKILL comes at 60s');
  const t = buildTimeline(s);
  assert.equal(t.stopServingSeconds, 60); // min(35 + 75, 60)
  // at deletion: ends 50 <= 60; last accepted at min(35, 30) - 1 = 29 ends 79 > 60; short 10 s at 29 ends 39.
  assert.deepEqual(fates(t), [
    [0, 50, 'ok'],
    [29, 50, 'cut'],
    [29, 10, 'ok'],
  ]);
  assert.deepEqual(codes(t), ['drain-past-sigkill']);
  // raise by 110 drain end + 15 teardown - 60 = 65
  assert.equal(
    t.problems[0].message,
    'The drain may run until 110s, but SIGKILL comes at 60s: raise the grace period by 65s.',
  );
});

test('a request ending exactly when the drain ends finishes; one a second longer is cut by the drain deadline', () => {
  const s = settings({ drain: { kind: 'seconds', seconds: 20 }, drainSetting: '--shutdown-timeout=20' });
  assert.equal(fateOf(req(10, 45), s).fate, 'ok'); // ends 55 = 35 + 20
  const cut = fateOf(req(10, 46), s); // ends 56 > 55
  assert.equal(cut.fate, 'cut');
  assert.equal(cut.endSeconds, 55);
  assert.equal(cut.reason, 'needs until 56s, but the drain ends at 55s');
});

test('GKE + vLLM at 10 ms per token drops nothing: 35 s sleep, 75 s drain, 15 s teardown, SIGKILL at 125 s', () => {
  const t = timelineFor({});
  assert.equal(t.sigtermSeconds, 35); // 30 removal + 5 margin
  assert.equal(t.lastRemovalSeconds, 30);
  assert.equal(t.sigkillSeconds, 125); // 35 + 75 + 15
  assert.deepEqual(
    t.windows.map((w) => [w.id, w.startSeconds, w.endSeconds]),
    [
      ['prestop', 0, 35],
      ['drain', 35, 110],
      ['teardown', 110, 125], // 35 + 75 = 110, 110 + 15 = 125
    ],
  );
  assert.deepEqual(
    t.events.map((e) => [e.id, e.atSeconds]),
    [
      ['deletion', 0],
      ['removal', 0],
      ['removal', 30],
      ['sigterm', 35],
      ['drain-deadline', 110],
      ['sigkill', 125],
    ],
  );
  assert.deepEqual(fates(t), [
    [0, 50, 'ok'],
    [29, 50, 'ok'],
    [29, 10, 'ok'],
  ]);
  assert.deepEqual(codes(t), []);
  assert.equal(t.settings.drainSetting, '--shutdown-timeout=75');
});

test('vLLM with its default --shutdown-timeout=0 aborts every request still running at SIGTERM', () => {
  const t = timelineFor({}, { drainSeconds: 0 });
  // SIGTERM at 35: 0 + 50 = 50 > 35 cut; 29 + 50 = 79 cut; 29 + 10 = 39 cut.
  assert.deepEqual(fates(t), [
    [0, 50, 'cut'],
    [29, 50, 'cut'],
    [29, 10, 'cut'],
  ]);
  assert.ok(t.requests.every((r) => r.endSeconds === 35));
  assert.deepEqual(codes(t), ['server-aborts']);
  assert.match(t.problems[0].message, /--shutdown-timeout=0/);
});

test('a load balancer that only health-checks keeps routing after SIGTERM, however long the sleep', () => {
  // custom gateway: 5 s interval × 2 + 5 s timeout + 5 s propagation = 20 s; preStop 20 + 5 = 25.
  const t = timelineFor({ gateway: 'custom' });
  assert.equal(t.sigtermSeconds, 25);
  assert.equal(t.lastRemovalSeconds, 45); // checks start failing at SIGTERM: 25 + 20
  assert.deepEqual(t.windows.find((w) => w.id === 'front')?.startSeconds, 25);
  assert.equal(fates(t)[2][2], 'refused'); // short request at (25 + 45) / 2 = 35
  assert.equal(fates(t)[2][0], 35);
  assert.match(t.problems[0].message, /a longer sleep moves this window without closing it/);
  const longer = timelineFor({ gateway: 'custom' }, { preStopSeconds: 60, terminationGracePeriodSeconds: 200 });
  assert.equal(longer.lastRemovalSeconds, 80); // 60 + 20
  assert.deepEqual(codes(longer), ['front-window']);
});

test('SGLang drains until the last request ends; a short grace cuts it', () => {
  // preStop 35; drain budget 75; grace 125. Last accepted: 29 + 50 = 79; teardown 79 + 15 = 94.
  const t = timelineFor({ 'model-server': 'sglang' });
  assert.deepEqual(
    t.windows.map((w) => [w.id, w.startSeconds, w.endSeconds]),
    [
      ['prestop', 0, 35],
      ['drain', 35, 79],
      ['teardown', 79, 94],
    ],
  );
  assert.deepEqual(codes(t), []);
  const short = timelineFor({ 'model-server': 'sglang' }, { terminationGracePeriodSeconds: 70 });
  assert.deepEqual(fates(short), [
    [0, 50, 'ok'],
    [29, 50, 'cut'],
    [29, 10, 'ok'],
  ]); // 79 > 70
  // raise by 79 + 15 - 70 = 24
  assert.equal(
    short.problems[0].message,
    'The drain may run until 79s, but SIGKILL comes at 70s: raise the grace period by 24s.',
  );
});

test('TGI (3.2.2 and later) drains for its flag: the 75 s budget fits the 125 s grace', () => {
  // Fact check #36: --graceful-termination-timeout, so Hitless sets it to the drain budget.
  const t = timelineFor({ 'model-server': 'tgi' });
  assert.equal(t.settings.drainSetting, '--graceful-termination-timeout=75');
  assert.deepEqual(
    t.windows.map((w) => [w.id, w.startSeconds, w.endSeconds]),
    [
      ['prestop', 0, 35],
      ['drain', 35, 110],
      ['teardown', 110, 125],
    ],
  );
  assert.deepEqual(codes(t), []);
});

test('a fixed drain (TGI before 3.2.2 gave its web server 90 s): with the 125 s grace the teardown has no room', () => {
  // A copy of the TGI profile as it was before 3.2.2; no current profile has a fixed drain.
  const tgi = profiles.modelServers.find((m) => m.id === 'tgi')!;
  const { flag: _flag, defaultSeconds: _default, minVersion: _since, ...rest } = tgi.drain;
  const old = {
    ...tgi,
    drain: { ...rest, kind: 'fixed' as const, fixedSeconds: 90, fixedScope: 'launcher gives the web server' },
  };
  const oldProfiles = { ...profiles, modelServers: profiles.modelServers.map((m) => (m.id === 'tgi' ? old : m)) };
  const { inputs } = resolveInputs({ 'model-server': 'tgi', 'tpot-ms': 10 }, oldProfiles); // 50 s longest, 75 s drain, 125 s grace
  const t = buildTimeline(settingsFor(plan(inputs, oldProfiles), oldProfiles));
  assert.equal(t.settings.drainSetting, 'Hugging Face TGI: fixed 90s');
  assert.deepEqual(
    t.windows.map((w) => [w.id, w.startSeconds, w.endSeconds]),
    [
      ['prestop', 0, 35],
      ['drain', 35, 125],
      ['teardown', 125, 125],
    ],
  );
  assert.deepEqual(codes(t), ['teardown-past-sigkill']); // 35 + 90 + 15 = 140 > 125
  assert.match(t.problems[0].message, /until 140s, after SIGKILL at 125s/);
});

test('llama.cpp does not drain: every request running at SIGTERM is cut', () => {
  const t = timelineFor({ 'model-server': 'llamacpp' });
  assert.deepEqual(fates(t), [
    [0, 50, 'cut'],
    [29, 50, 'cut'],
    [29, 10, 'cut'],
  ]); // all end after 35
  assert.deepEqual(codes(t), ['server-aborts']);
});

test('a preStop sleep longer than the grace period is rejected, and SIGTERM comes at the grace deadline', () => {
  const t = buildTimeline(settings({ preStopSeconds: 40, terminationGracePeriodSeconds: 30 }));
  assert.equal(t.sigtermSeconds, 30);
  assert.equal(codes(t)[0], 'prestop-exceeds-grace');
  assert.equal(
    t.problems[0].message,
    'Kubernetes rejects this pod: the 40s preStop sleep is longer than the 30s grace period.',
  );
});

test('the time axis covers SIGKILL and every request\u2019s would-be end', () => {
  const t = buildTimeline(settings({ terminationGracePeriodSeconds: 60 }));
  assert.equal(t.spanSeconds, 79); // the cut request would end at 29 + 50 = 79 > 60
  assert.equal(buildTimeline(settings()).spanSeconds, 125); // SIGKILL at 125 is the latest
});

test('a server that does not drain cuts at SIGTERM, and says so', () => {
  const s = settings({ drain: { kind: 'seconds', seconds: 0 }, drainSetting: '--shutdown-timeout=0' });
  const cut = fateOf(req(10, 30), s); // accepted (10 < 35), needs until 40 > 35 + 0
  assert.equal(cut.fate, 'cut');
  assert.equal(cut.endSeconds, 35);
  assert.equal(cut.reason, 'needs until 40s, but the server does not drain and aborts it at SIGTERM (35s)');
});

test('a long drain gets an enlarged view of the front race; a short one does not need it', () => {
  // Defaults (100 ms per token): SIGTERM at 35 s, last removal at 30 s → zoom 2 × 35 = 70 s; SIGKILL at 788 s > 3 × 70.
  const { inputs } = resolveInputs({}, profiles);
  const long = buildTimeline(settingsFor(plan(inputs, profiles), profiles));
  assert.equal(long.sigkillSeconds, 788);
  assert.equal(frontZoomSeconds(long), 70);
  // 10 ms per token: SIGKILL at 125 s, the span ends before 3 × 70 = 210 s: no zoom.
  assert.equal(frontZoomSeconds(timelineFor({})), undefined);
});
