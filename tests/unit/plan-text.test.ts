// The words beside the generator's plan: warnings before notes, flag names picked out of messages, one line per
// invalid input with what the plan uses instead, reader-facing names for every derivation step, and the
// health-check fields that only "Your own gateway" takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import {
  DERIVATION_LABELS,
  describeStep,
  inputErrorLines,
  sortWarnings,
  splitFlags,
} from '../../src/components/generator/plan-text.ts';
import { profiles } from '../support/check.ts';

test('errors come before warnings, warnings before notes, each kind in the plan\u2019s order', () => {
  const sorted = sortWarnings([
    { code: 'removal-estimate', severity: 'info', message: 'a' },
    { code: 'grace-exceeds-autoscaler', severity: 'warning', message: 'b' },
    { code: 'exec-sleep', severity: 'info', message: 'c' },
    { code: 'no-drain', severity: 'warning', message: 'd' },
    { code: 'drain-flag-too-old', severity: 'error', message: 'e' },
  ]);
  assert.deepEqual(
    sorted.map((w) => w.message),
    ['e', 'b', 'd', 'a', 'c'],
  );
});

test('flag names are split out of message text, with dashes, values and bare input names', () => {
  assert.deepEqual(splitFlags('vLLM runs without --shutdown-timeout, so it aborts.'), [
    { text: 'vLLM runs without ', flag: false },
    { text: '--shutdown-timeout', flag: true },
    { text: ', so it aborts.', flag: false },
  ]);
  assert.deepEqual(
    splitFlags('set --shutdown-timeout=75 now').map((p) => p.text),
    ['set ', '--shutdown-timeout=75', ' now'],
  );
  assert.deepEqual(
    splitFlags('Measure it and set removal-seconds.')
      .filter((p) => p.flag)
      .map((p) => p.text),
    ['removal-seconds'],
  );
  assert.deepEqual(
    splitFlags('Set health-check-interval-seconds, health-check-unhealthy-threshold and propagation-seconds')
      .filter((p) => p.flag)
      .map((p) => p.text),
    ['health-check-interval-seconds', 'health-check-unhealthy-threshold', 'propagation-seconds'],
  );
  // Words that only look like flags stay prose: one-word inputs, "model-server", parts of longer words.
  assert.deepEqual(
    splitFlags('the model-server pods, the model, the port, a re-tpot-ms-x').filter((p) => p.flag),
    [],
  );
  assert.deepEqual(splitFlags('no flags here'), [{ text: 'no flags here', flag: false }]);
  // Joined back, the text is unchanged.
  const text = 'With --exit-timeout-secs=30 and tpot-ms 10, set max-request-seconds.';
  assert.equal(
    splitFlags(text)
      .map((p) => p.text)
      .join(''),
    text,
  );
});

test('an invalid input gets a line naming its label, the reason, and the value the plan uses until it is fixed', () => {
  const { inputs, errors } = resolveInputs({ 'removal-seconds': 'abc' }, profiles);
  assert.equal(errors.length, 1);
  const [line] = inputErrorLines(errors, inputs, plan(inputs, profiles));
  // GKE's removal p99 is 30 s (content/gateways/gke.yaml).
  assert.match(
    line,
    /^Removal p99 is not valid: removal-seconds must be .*\(got "abc"\); the plan uses 30 s until it is fixed\.$/,
  );
  const tokens = resolveInputs({ 'max-output-tokens': '0' }, profiles);
  assert.match(
    inputErrorLines(tokens.errors, tokens.inputs, plan(tokens.inputs, profiles))[0],
    /^Max output tokens is not valid: .*; the plan uses 4096 tokens until it is fixed\.$/,
  );
  const overhead = resolveInputs({ 'prefill-overhead-percent': '-1' }, profiles);
  assert.match(
    inputErrorLines(overhead.errors, overhead.inputs, plan(overhead.inputs, profiles))[0],
    /the plan uses 20% until it is fixed\.$/,
  );
  // A bad longest request falls back to the derived one: 4096 × 100 ms × 1.2 = 491.52 → 492 s.
  const longest = resolveInputs({ 'max-request-seconds': 'x' }, profiles);
  assert.match(
    inputErrorLines(longest.errors, longest.inputs, plan(longest.inputs, profiles))[0],
    /^Longest request is not valid: .*; the plan derives 492 s from the tokens until it is fixed\.$/,
  );
});

test('every derivation step of every gateway \u00d7 model server has a reader-facing label', () => {
  const fields = new Set<string>();
  for (const gateway of profiles.gateways) {
    for (const server of profiles.modelServers) {
      const { inputs } = resolveInputs({ gateway: gateway.id, 'model-server': server.id }, profiles);
      for (const step of plan(inputs, profiles).derivation) fields.add(step.field);
    }
  }
  assert.deepEqual(
    [...fields].filter((f) => !(f in DERIVATION_LABELS)),
    [],
  );
  // Words, not keys: each label is a phrase with no dotted path.
  for (const [field, { label }] of Object.entries(DERIVATION_LABELS))
    assert.match(label, /^[^.]+ [^.]+$/, `${field}: "${label}"`);
  assert.deepEqual(describeStep({ field: 'preStopSeconds', value: 35, formula: '', why: '' }), {
    label: 'preStop sleep',
    manifestKey: 'lifecycle.preStop',
    value: '35 s',
  });
  assert.deepEqual(describeStep({ field: 'readinessProbe.window', value: 15, formula: '', why: '' }), {
    label: 'Readiness window',
    manifestKey: undefined,
    value: '15 s',
  });
  assert.deepEqual(describeStep({ field: 'drainFlag', value: '--shutdown-timeout=75', formula: '', why: '' }), {
    label: 'Drain flag',
    manifestKey: undefined,
    value: '--shutdown-timeout=75',
  });
  assert.equal(describeStep({ field: 'somethingNew', value: 1, formula: '', why: '' }).label, 'somethingNew');
});
