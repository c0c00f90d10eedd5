// Which inputs the generator's and the checker's forms leave out, and the note that stands in their place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldFor, type FieldSpec } from '../../src/model/fields.ts';
import { fieldHidden, hiddenFieldsNote } from '../../src/components/generator/field-visibility.ts';
import { profiles } from '../support/check.ts';

const spec = (flag: string): FieldSpec => {
  const f = fieldFor(flag);
  assert.ok(f, `no field ${flag}`);
  return f;
};
const state = (
  gateway: string,
  output?: string,
  raw: Record<string, string> = {},
  errors = new Map<string, string>(),
) => ({
  gateway,
  output,
  raw,
  errors,
});

test('only "Your own gateway" has health-check data, so only it shows the health-check fields', () => {
  assert.deepEqual(
    profiles.gateways.filter((g) => g.healthCheck).map((g) => g.id),
    ['custom'],
  );
  for (const flag of [
    'health-check-interval-seconds',
    'health-check-unhealthy-threshold',
    'health-check-timeout-seconds',
    'propagation-seconds',
  ]) {
    assert.equal(fieldHidden(profiles, state('gke', 'bundle'), spec(flag)), true, `${flag} for gke`);
    assert.equal(fieldHidden(profiles, state('istio'), spec(flag)), true, `${flag} for istio (the checker)`);
    assert.equal(fieldHidden(profiles, state('custom', 'bundle'), spec(flag)), false, `${flag} for custom`);
  }
  // Fields that apply to every gateway stay.
  assert.equal(fieldHidden(profiles, state('gke', 'bundle'), spec('removal-seconds')), false);
  assert.equal(fieldHidden(profiles, state('gke', 'bundle'), spec('gateway')), false);
});

test('a field the reader typed into, or one with an error, stays so that it can be read and cleared', () => {
  const interval = spec('health-check-interval-seconds');
  assert.equal(
    fieldHidden(profiles, state('gke', 'bundle', { 'health-check-interval-seconds': '5' }), interval),
    false,
  );
  // Only spaces count as empty.
  assert.equal(
    fieldHidden(profiles, state('gke', 'bundle', { 'health-check-interval-seconds': '  ' }), interval),
    true,
  );
  const errors = new Map([['health-check-interval-seconds', 'health-check-interval-seconds is for …']]);
  assert.equal(fieldHidden(profiles, state('gke', 'bundle', {}, errors), interval), false);
  assert.equal(fieldHidden(profiles, state('gke', 'bundle', { container: 'server' }), spec('container')), false);
  assert.equal(
    fieldHidden(profiles, state('gke', 'bundle', {}, new Map([['nodes-per-replica', '…']])), spec('nodes-per-replica')),
    false,
  );
});

test('the container name is only for the patch form, nodes per replica only for the lws form', () => {
  const container = spec('container');
  const nodes = spec('nodes-per-replica');
  for (const [output, containerHidden, nodesHidden] of [
    ['bundle', true, true],
    ['patch', false, true],
    ['helm-values', true, true],
    ['lws', true, false],
    [undefined, true, true], // the checker has no output form
  ] as const) {
    assert.equal(fieldHidden(profiles, state('gke', output), container), containerHidden, `container, ${output}`);
    assert.equal(fieldHidden(profiles, state('gke', output), nodes), nodesHidden, `nodes-per-replica, ${output}`);
  }
  assert.equal(fieldHidden(profiles, state('gke', 'bundle'), spec('output')), false);
});

test('an unknown gateway is an error naming the choices, not a silently shown or hidden field', () => {
  assert.throws(
    () => fieldHidden(profiles, state('nope', 'bundle'), spec('propagation-seconds')),
    /gateway must be one of .*gke.*custom.* \(got "nope"\)/,
  );
});

test('the note names the left-out fields and says when they apply', () => {
  assert.equal(hiddenFieldsNote(profiles, []), undefined);
  assert.equal(
    hiddenFieldsNote(profiles, [
      spec('health-check-interval-seconds'),
      spec('health-check-unhealthy-threshold'),
      spec('health-check-timeout-seconds'),
      spec('propagation-seconds'),
    ]),
    'Health-check interval, Unhealthy threshold, Health-check timeout and Propagation: only for \u201cYour own gateway\u201d; other gateways use their removal p99.',
  );
  assert.equal(
    hiddenFieldsNote(profiles, [spec('propagation-seconds')]),
    'Propagation: only for \u201cYour own gateway\u201d; other gateways use their removal p99.',
  );
  assert.equal(
    hiddenFieldsNote(profiles, [spec('container'), spec('nodes-per-replica')]),
    'Container (patch): with the patch output form. Nodes per replica (lws): with the lws output form.',
  );
  assert.equal(
    hiddenFieldsNote(profiles, [spec('health-check-timeout-seconds'), spec('nodes-per-replica')]),
    'Health-check timeout: only for \u201cYour own gateway\u201d; other gateways use their removal p99. Nodes per replica (lws): with the lws output form.',
  );
});
