// The gateway's own settings the plan sizes: GKE's GCPBackendPolicy timeoutSec and connection draining.
// Expected values are worked out by hand from the data files and the drain model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planOf } from '../support/drain.ts';

const stepOf = (p: ReturnType<typeof planOf>, field: string) => p.derivation.find((s) => s.field === field);

test('GKE with the default inputs: timeoutSec 75, drainingTimeoutSec 110', () => {
  // 4096 tokens × 10 ms × 1.2 = 49.152 s → 50 s longest request; × 1.5 headroom = 75 s, above the 30 s default.
  // Draining: 35 s preStop (30 + 5) + 75 s drain = 110 s, above the 0 s default and below the 3600 s maximum.
  const p = planOf({ gateway: 'gke' });
  assert.equal(p.gatewayRequestTimeoutSeconds, 75);
  assert.equal(p.gatewayDrainingSeconds, 110);
  assert.equal(stepOf(p, 'gatewayRequestTimeoutSeconds')?.formula,
    '50s longest request (steady state, not drain p99) × 1.5 headroom, above the 30s default');
  assert.equal(stepOf(p, 'gatewayDrainingSeconds')?.formula, '35s preStop + 75s drain, above the 0s default');
});

test('a short longest request keeps the gateway default timeout', () => {
  // 100 tokens × 10 ms × 1.2 = 1.2 s → 2 s; × 1.5 = 3 s, within the 30 s default, so 30 stays.
  // Draining: 35 s preStop + 3 s drain = 38 s.
  const p = planOf({ gateway: 'gke', 'max-output-tokens': 100 });
  assert.equal(p.gatewayRequestTimeoutSeconds, 30);
  assert.equal(stepOf(p, 'gatewayRequestTimeoutSeconds')?.formula,
    '2s longest request (steady state, not drain p99) × 1.5 headroom = 3s, within the 30s default, kept');
  assert.equal(p.gatewayDrainingSeconds, 38);
});

test('a long request raises the timeout past GIE\u2019s 300 s example', () => {
  // 16384 tokens × 20 ms × 1.2 = 393.216 s → 394 s; × 1.5 = 591 s. Draining: 35 + 591 = 626 s.
  const p = planOf({ gateway: 'gke', 'max-output-tokens': 16384, 'tpot-ms': 20 });
  assert.equal(p.gatewayRequestTimeoutSeconds, 591);
  assert.equal(p.gatewayDrainingSeconds, 626);
});

test('an unbounded drain caps connection draining at GKE\u2019s 3600 s maximum; the timeout still follows the request', () => {
  // Drain = the 3600 s cap; 35 + 3600 = 3635 s > 3600 s maximum → 3600. Timeout: 50 s × 1.5 = 75 s.
  const p = planOf({ gateway: 'gke', 'unbounded-drain': true });
  assert.equal(p.gatewayDrainingSeconds, 3600);
  assert.equal(stepOf(p, 'gatewayDrainingSeconds')?.formula, '35s preStop + 3600s drain = 3635s, capped at the 3600s maximum');
  assert.equal(p.gatewayRequestTimeoutSeconds, 75);
});

test('a given removal and headroom flow into both settings', () => {
  // removal 12 + 5 = 17 s preStop; 50 s × 2 (100% headroom) = 100 s drain and timeout; draining 17 + 100 = 117 s.
  const p = planOf({ gateway: 'gke', 'removal-seconds': 12, 'drain-headroom-percent': 100 });
  assert.equal(p.gatewayRequestTimeoutSeconds, 100);
  assert.equal(p.gatewayDrainingSeconds, 117);
});

test('gateways whose profiles have no such settings get none, and no derivation step', () => {
  for (const gateway of ['istio', 'agentgateway', 'nginx-gateway-fabric', 'envoy-ai-gateway', 'kgateway', 'custom']) {
    const p = planOf({ gateway });
    assert.equal(p.gatewayRequestTimeoutSeconds, null, gateway);
    assert.equal(p.gatewayDrainingSeconds, null, gateway);
    assert.equal(stepOf(p, 'gatewayRequestTimeoutSeconds'), undefined, gateway);
  }
});

test('a gateway setting held at its maximum is a warning', () => {
  // gke, unbounded drain: timeout wants ⌈50 × 1.5⌉ = 75 s (fine); draining wants 35 + 3600 = 3635 s > the 3600 s maximum
  const p = planOf({ 'unbounded-drain': true });
  assert.deepEqual(p.cappedGatewaySettings.map((c) => [c.wantedSeconds, c.maxSeconds]), [[3635, 3600]]);
  const w = p.warnings.find((x) => x.code === 'gateway-setting-capped');
  assert.ok(w, 'warns');
  assert.match(w!.message, /goes up to 3600s, less than the 3635s this plan wants/);
  assert.equal(planOf({}).warnings.some((x) => x.code === 'gateway-setting-capped'), false);
});
