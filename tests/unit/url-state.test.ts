// The generator's URL: v=2 (the drain model's version) plus non-default values; tampered links fall back with
// notices; links saved under drain model v1 open v2 with every value that changed, old → new.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { decodeQuery, encodeQuery, MAX_QUERY_LENGTH } from '../../src/model/url-state.ts';
import { describeChange } from '../../src/model/migrate.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { profiles } from '../support/drain.ts';

const encode = (raw: Record<string, unknown>) => encodeQuery(resolveInputs(raw, profiles).inputs, profiles);

test('only the version and the changed values are written', () => {
  assert.equal(encode({}), 'v=2');
  assert.equal(encode({ gateway: 'istio', 'max-output-tokens': '8192' }), 'v=2&gateway=istio&max-output-tokens=8192');
  assert.equal(encode({ gateway: 'gke', replicas: 3 }), 'v=2', 'values equal to defaults are left out');
  assert.equal(encode({ 'unbounded-drain': true }), 'v=2&unbounded-drain=true');
  assert.equal(encode({ 'pod-disruption-budget': false }), 'v=2&pod-disruption-budget=false');
  assert.equal(
    encode({ image: 'vllm/vllm-openai:latest', 'model-server-version': 'v0.19.0' }),
    'v=2&image=vllm%2Fvllm-openai%3Alatest&model-server-version=0.19.0',
  );
});

test('a link reproduces its inputs', () => {
  const raw = {
    gateway: 'custom',
    'health-check-interval-seconds': '3',
    'model-server': 'triton',
    'spare-gpus': '2',
    'kubernetes-version': '1.29',
  };
  const { inputs } = resolveInputs(raw, profiles);
  const back = decodeQuery(`?${encodeQuery(inputs, profiles)}`, profiles);
  assert.deepEqual(back.notices, []);
  assert.equal(back.migration, undefined);
  assert.deepEqual(back.inputs, inputs);
});

test('tampered values fall back to defaults with a notice each', () => {
  const state = decodeQuery('?v=2&replicas=-4&tpot-ms=NaN&gateway=istio&evil=%3Cscript%3E', profiles);
  assert.equal(state.inputs.replicas, 3);
  assert.equal(state.inputs.tpotMs, 100);
  assert.equal(state.inputs.gateway, 'istio');
  assert.deepEqual(state.raw, { gateway: 'istio' });
  assert.equal(state.notices.length, 3);
  assert.match(
    state.notices.join('\n'),
    /replicas must be a whole number from 1 to 1,000 \(got "-4"\); the default was used instead\./,
  );
  assert.match(state.notices.join('\n'), /unknown setting "evil"/);
});

test('other versions, repeated keys and oversized queries get notices', () => {
  assert.match(decodeQuery('v=9&gateway=istio', profiles).notices[0], /format v9; this page reads v2/);
  assert.match(decodeQuery('v=0&gateway=istio', profiles).notices[0], /format v0; this page reads v2/);
  const twice = decodeQuery('gateway=istio&gateway=gke', profiles);
  assert.equal(twice.inputs.gateway, 'istio');
  assert.match(twice.notices[0], /sets gateway more than once/);
  const huge = decodeQuery(`gateway=istio&x=${'a'.repeat(MAX_QUERY_LENGTH)}`, profiles);
  assert.equal(huge.inputs.gateway, 'gke');
  assert.match(huge.notices[0], /longer than 4000 characters/);
});

// Links saved from the site before drain model v2: `v=1` plus the non-default values, as v1's encodeQuery wrote them.
test('the v1 default link opens v2 and lists every value that changed, old \u2192 new', () => {
  // v1: 4096 × 10 ms × 1.2 = 49.152 → 50 s; drain ⌈50 × 1.5⌉ = 75; grace 35 + 75 + 15 = 125; progress 125 + 600 = 725;
  //     GKE request timeout: 50 × 1.5 = 75, kept at the 300 s floor; connection draining 35 + 75 = 110.
  // v2: 4096 × 100 ms × 1.2 = 491.52 → 492 s; drain 738; grace 35 + 738 + 15 = 788; progress 1388; timeout 738;
  //     draining 35 + 738 = 773; and a PodDisruptionBudget.
  const state = decodeQuery('?v=1', profiles);
  assert.deepEqual(state.notices, []);
  assert.equal(state.migration?.fromVersion, 1);
  assert.deepEqual(state.migration?.changes.map(describeChange), [
    'Time per output token (default): 10 ms \u2192 100 ms',
    'Longest request: 50 s \u2192 492 s',
    'Drain budget: 75 s \u2192 738 s',
    'Grace period (terminationGracePeriodSeconds): 125 s \u2192 788 s',
    'Progress deadline (progressDeadlineSeconds): 725 s \u2192 1388 s',
    'Drain flag: --shutdown-timeout=75 \u2192 --shutdown-timeout=738',
    'Gateway request timeout: 300 s \u2192 738 s',
    'Gateway connection draining: 110 s \u2192 773 s',
    'PodDisruptionBudget: none \u2192 maxUnavailable 1',
  ]);
  assert.equal(state.inputs.tpotMs, 100, 'the link opens the current model');
});

test('a v1 link with its own values: istio, 8192 tokens', () => {
  // Istio (removal 10 + 5 = 15 preStop). v1: 8192 × 10 ms × 1.2 = 98.304 → 99; drain ⌈148.5⌉ = 149; grace 15 + 149 + 15 = 179;
  // progress 779. v2: 8192 × 100 ms × 1.2 = 983.04 → 984; drain 1476; grace 1506; progress 2106.
  const state = decodeQuery('?v=1&gateway=istio&max-output-tokens=8192', profiles);
  assert.deepEqual(state.raw, { gateway: 'istio', 'max-output-tokens': '8192' });
  assert.deepEqual(state.migration?.changes.map(describeChange), [
    'Time per output token (default): 10 ms \u2192 100 ms',
    'Longest request: 99 s \u2192 984 s',
    'Drain budget: 149 s \u2192 1476 s',
    'Grace period (terminationGracePeriodSeconds): 179 s \u2192 1506 s',
    'Progress deadline (progressDeadlineSeconds): 779 s \u2192 2106 s',
    'Drain flag: --shutdown-timeout=149 \u2192 --shutdown-timeout=1476',
    'PodDisruptionBudget: none \u2192 maxUnavailable 1',
  ]);
});

test('a v1 link that gave its own time per token keeps its numbers; only what v2 adds or gates is listed', () => {
  // 4096 × 40 ms × 1.2 = 196.608 → 197 s under both models.
  assert.deepEqual(decodeQuery('?v=1&tpot-ms=40', profiles).migration?.changes.map(describeChange), [
    'PodDisruptionBudget: none \u2192 maxUnavailable 1',
  ]);
  // An old image: v1 passed the flag anyway, v2 leaves it out, and since vLLM 0.10.1 aborts at SIGTERM, plans no drain.
  // v1: 4096 × 40 × 1.2 → 197; drain ⌈295.5⌉ = 296; grace 35 preStop + 296 + 15 = 346; progress 346 + 600 = 946;
  // gateway draining 35 + 296 = 331. v2: drain 0; grace 35 + 0 + 15 = 50; progress 650; gateway draining 35.
  assert.deepEqual(
    decodeQuery('?v=1&tpot-ms=40&image=vllm%2Fvllm-openai%3Av0.10.1', profiles).migration?.changes.map(describeChange),
    [
      'Drain budget: 296 s \u2192 0 s',
      'Grace period (terminationGracePeriodSeconds): 346 s \u2192 50 s',
      'Progress deadline (progressDeadlineSeconds): 946 s \u2192 650 s',
      'Drain flag: --shutdown-timeout=296 \u2192 none',
      'Gateway connection draining: 331 s \u2192 35 s',
      'PodDisruptionBudget: none \u2192 maxUnavailable 1',
    ],
  );
});

test('a v1 link with a bad value gets the notice and the migration', () => {
  const state = decodeQuery('?v=1&replicas=0&max-request-seconds=50', profiles);
  assert.match(state.notices[0], /replicas must be a whole number/);
  // 50 s given under both; grace 125 under both: only the budget is new.
  assert.deepEqual(state.migration?.changes.map(describeChange), ['PodDisruptionBudget: none \u2192 maxUnavailable 1']);
});

test('the head script drops from the address exactly the queries decodeQuery ignores (search includes its "?")', () => {
  const script = readFileSync(new URL('../../src/site/long-link.mjs', import.meta.url), 'utf8');
  const limit = /location\.search\.length>(\d+)/.exec(script);
  assert.ok(limit, 'the inline script compares the query length');
  // 4000 characters of settings plus the "?": 4001 is read, 4002 dropped.
  assert.equal(Number(limit[1]), 4001);
  assert.equal(MAX_QUERY_LENGTH, 4000);
});
