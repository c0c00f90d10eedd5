// The generator's URL: v=1 plus non-default values; tampered links fall back with notices.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeQuery, encodeQuery, MAX_QUERY_LENGTH } from '../../src/drain/url-state.ts';
import { resolveInputs } from '../../src/drain/resolve.ts';
import { profiles } from '../support/drain.ts';

const encode = (raw: Record<string, unknown>) => encodeQuery(resolveInputs(raw, profiles).inputs, profiles);

test('only the version and the changed values are written', () => {
  assert.equal(encode({}), 'v=1');
  assert.equal(encode({ gateway: 'istio', 'max-output-tokens': '8192' }), 'v=1&gateway=istio&max-output-tokens=8192');
  assert.equal(encode({ gateway: 'gke', replicas: 3 }), 'v=1', 'values equal to defaults are left out');
  assert.equal(encode({ 'unbounded-drain': true }), 'v=1&unbounded-drain=true');
});

test('a link reproduces its inputs', () => {
  const raw = { gateway: 'custom', 'health-check-interval-seconds': '3', 'model-server': 'triton', 'spare-gpus': '2', 'kubernetes-version': '1.29' };
  const { inputs } = resolveInputs(raw, profiles);
  const back = decodeQuery(`?${encodeQuery(inputs, profiles)}`, profiles);
  assert.deepEqual(back.notices, []);
  assert.deepEqual(back.inputs, inputs);
});

test('tampered values fall back to defaults with a notice each', () => {
  const state = decodeQuery('?v=1&replicas=-4&tpot-ms=NaN&gateway=istio&evil=%3Cscript%3E', profiles);
  assert.equal(state.inputs.replicas, 3);
  assert.equal(state.inputs.tpotMs, 10);
  assert.equal(state.inputs.gateway, 'istio');
  assert.deepEqual(state.raw, { gateway: 'istio' });
  assert.equal(state.notices.length, 3);
  assert.match(state.notices.join('\n'), /replicas must be a whole number from 1 to 1,000 \(got "-4"\); the default was used instead\./);
  assert.match(state.notices.join('\n'), /unknown setting "evil"/);
});

test('other versions, repeated keys and oversized queries get notices', () => {
  assert.match(decodeQuery('v=9&gateway=istio', profiles).notices[0], /format v9; this page reads v1/);
  const twice = decodeQuery('gateway=istio&gateway=gke', profiles);
  assert.equal(twice.inputs.gateway, 'istio');
  assert.match(twice.notices[0], /sets gateway more than once/);
  const huge = decodeQuery(`gateway=istio&x=${'a'.repeat(MAX_QUERY_LENGTH)}`, profiles);
  assert.equal(huge.inputs.gateway, 'gke');
  assert.match(huge.notices[0], /longer than 4000 characters/);
});
