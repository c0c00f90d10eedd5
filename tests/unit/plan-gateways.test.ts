// Removal by gateway: profile numbers, given numbers, and the health-check formula.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveInputs } from '../../src/model/resolve.ts';
import { codesOf, planOf, profiles } from '../support/drain.ts';

test('each gateway profile gives its removal p99 plus the 5 s margin', () => {
  // From the data files: gke 30 (observed); the picker-only gateways 10 (estimate).
  const expected: Record<string, number> = {
    gke: 35,
    istio: 15,
    agentgateway: 15,
    'nginx-gateway-fabric': 15,
    'envoy-ai-gateway': 15,
    kgateway: 15,
  };
  for (const [gateway, preStop] of Object.entries(expected)) {
    assert.equal(planOf({ gateway }).preStopSeconds, preStop, gateway);
  }
});

test('estimated removals say so and how to measure', () => {
  const p = planOf({ gateway: 'istio' });
  assert.equal(p.removalBasis, 'estimate');
  assert.ok(codesOf(p).includes('removal-estimate'));
  assert.ok(!codesOf(planOf({ gateway: 'gke' })).includes('removal-estimate'));
});

test('the custom gateway without values uses the example health checks, with a warning', () => {
  // 5 s × 2 + 5 s + 5 s = 20 s removal; preStop 25; grace 25 + 738 + 15 = 778
  const p = planOf({ gateway: 'custom' });
  assert.equal(p.removalSeconds, 20);
  assert.equal(p.removalSource, 'health-check');
  assert.equal(p.preStopSeconds, 25);
  assert.equal(p.terminationGracePeriodSeconds, 778);
  assert.ok(codesOf(p).includes('removal-example'));
  assert.ok(codesOf(p).includes('health-check-only'));
});

test('the custom gateway with its own health checks', () => {
  // 3 s × 3 + 1 s + 2 s = 12 s; preStop 17
  const p = planOf({
    gateway: 'custom',
    'health-check-interval-seconds': 3,
    'health-check-unhealthy-threshold': 3,
    'health-check-timeout-seconds': 1,
    'propagation-seconds': 2,
  });
  assert.equal(p.removalSeconds, 12);
  assert.equal(p.preStopSeconds, 17);
  assert.equal(p.derivation[0].formula, '3s interval × 3 + 1s timeout + 2s propagation = 12s');
});

test('a given removal wins over the profile and the health checks', () => {
  assert.equal(planOf({ gateway: 'istio', 'removal-seconds': 12 }).preStopSeconds, 17);
  assert.equal(planOf({ gateway: 'custom', 'removal-seconds': 8 }).preStopSeconds, 13);
  assert.equal(planOf({ gateway: 'custom', 'removal-seconds': 8 }).removalSource, 'given');
});

test('health-check inputs apply only to a gateway that detects by health checks', () => {
  const { errors, inputs } = resolveInputs(
    { gateway: 'gke', 'health-check-interval-seconds': 5, 'propagation-seconds': 2 },
    profiles,
  );
  assert.equal(errors.length, 1);
  assert.equal(errors[0].flag, 'health-check-interval-seconds');
  assert.equal(
    errors[0].message,
    'health-check-interval-seconds, propagation-seconds only apply to a gateway that detects gone pods '
      + 'by health checks (custom); for gke, give removal-seconds instead',
  );
  // the fallback keeps gke's own removal: 30 + 5 = 35
  assert.equal(inputs.healthCheckIntervalSeconds, undefined);
  assert.equal(inputs.removalSeconds, 30);
});

test('FailOpen adds the gateway\u2019s note about its own endpoint view', () => {
  assert.ok(codesOf(planOf({ gateway: 'istio', 'failure-mode': 'FailOpen' })).includes('fail-open-endpoint-view'));
  assert.ok(!codesOf(planOf({ gateway: 'istio' })).includes('fail-open-endpoint-view'));
});
