// The gateway's own settings the plan sizes: GKE's GCPBackendPolicy timeoutSec and connection draining.
// Expected values are worked out by hand from the data files and the drain model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import type { Profiles } from '../../src/facts/profiles.ts';
import { planOf, profiles } from '../support/drain.ts';

const stepOf = (p: ReturnType<typeof planOf>, field: string) => p.derivation.find((s) => s.field === field);

test('GKE with the default inputs: the timeout and connection draining follow the 492 s longest request', () => {
  // 4096 tokens × 100 ms × 1.2 = 491.52 s → 492 s; × 1.5 = 738 s needed, above the 300 s floor, so 738.
  // Draining: 35 s preStop + 738 s drain = 773 s, below the 3600 s maximum.
  const d = planOf({ gateway: 'gke' });
  assert.equal(d.gatewayRequestTimeoutSeconds, 738);
  assert.equal(d.gatewayDrainingSeconds, 773);
  assert.equal(stepOf(d, 'gatewayDrainingSeconds')?.formula, '35s preStop + 738s drain, above the 0s default');
});

test('GKE at 10 ms per token: timeoutSec 300 (the floor), drainingTimeoutSec 110', () => {
  // 4096 tokens × 10 ms × 1.2 = 49.152 s → 50 s longest request; × 1.5 headroom = 75 s needed, at or below the
  // 300 s floor from GIE's GKE example (content/gateways/gke.yaml floorSeconds), so 300.
  // Draining: 35 s preStop (30 + 5) + 75 s drain = 110 s, above the 0 s default and below the 3600 s maximum.
  const p = planOf({ gateway: 'gke', 'tpot-ms': 10 });
  assert.equal(p.gatewayRequestTimeoutSeconds, 300);
  assert.equal(p.gatewayRequestTimeoutNeededSeconds, 75);
  assert.equal(p.gatewayDrainingSeconds, 110);
  assert.equal(
    stepOf(p, 'gatewayRequestTimeoutSeconds')?.formula,
    "50s longest request (steady state, not drain p99) × 1.5 headroom = 75s, kept at the 300s floor (GIE's GKE example)",
  );
  assert.match(
    stepOf(p, 'gatewayRequestTimeoutSeconds')!.why,
    /never sets it below the value of GIE's GKE example policy/,
  );
  assert.equal(stepOf(p, 'gatewayDrainingSeconds')?.formula, '35s preStop + 75s drain, above the 0s default');
});

test('the timeout floor: a needed 300 s is kept at the floor; a needed 302 s goes above it', () => {
  // max-request-seconds 200: ⌈200 × 1.5⌉ = 300 s, equal to the 300 s floor → 300, "kept at the floor".
  const at = planOf({ gateway: 'gke', 'max-request-seconds': 200 });
  assert.equal(at.gatewayRequestTimeoutSeconds, 300);
  assert.equal(
    stepOf(at, 'gatewayRequestTimeoutSeconds')?.formula,
    "200s longest request (steady state, not drain p99) × 1.5 headroom = 300s, kept at the 300s floor (GIE's GKE example)",
  );
  // max-request-seconds 201: ⌈201 × 1.5⌉ = ⌈301.5⌉ = 302 s, above the floor → 302.
  const above = planOf({ gateway: 'gke', 'max-request-seconds': 201 });
  assert.equal(above.gatewayRequestTimeoutSeconds, 302);
  assert.equal(
    stepOf(above, 'gatewayRequestTimeoutSeconds')?.formula,
    "201s longest request (steady state, not drain p99) × 1.5 headroom, above the 300s floor (GIE's GKE example)",
  );
});

test('a short longest request keeps the floor; without a floor, the gateway default', () => {
  // 100 tokens × 10 ms × 1.2 = 1.2 s → 2 s; × 1.5 = 3 s, below the 300 s floor, so 300.
  // Draining: 35 s preStop + 3 s drain = 38 s.
  const p = planOf({ gateway: 'gke', 'max-output-tokens': 100, 'tpot-ms': 10 });
  assert.equal(p.gatewayRequestTimeoutSeconds, 300);
  assert.equal(p.gatewayDrainingSeconds, 38);
  // The same GKE profile without its floor: 3 s is within the 30 s default, so 30 stays.
  const gke = profiles.gateways.find((g) => g.id === 'gke')!;
  const { floorSeconds: _f, floorReason: _r, floorExplanation: _e, ...noFloor } = gke.requestTimeout!;
  const floorless: Profiles = {
    ...profiles,
    gateways: profiles.gateways.map((g) => (g.id === 'gke' ? { ...gke, requestTimeout: noFloor } : g)),
  };
  const { inputs } = resolveInputs({ gateway: 'gke', 'max-output-tokens': 100, 'tpot-ms': 10 }, floorless);
  const q = plan(inputs, floorless);
  assert.equal(q.gatewayRequestTimeoutSeconds, 30);
  assert.equal(
    stepOf(q, 'gatewayRequestTimeoutSeconds')?.formula,
    '2s longest request (steady state, not drain p99) × 1.5 headroom = 3s, within the 30s default, kept',
  );
});

test('a long request raises the timeout past GIE\u2019s 300 s example', () => {
  // 16384 tokens × 20 ms × 1.2 = 393.216 s → 394 s; × 1.5 = 591 s, above the 300 s floor. Draining: 35 + 591 = 626 s.
  const p = planOf({ gateway: 'gke', 'max-output-tokens': 16384, 'tpot-ms': 20 });
  assert.equal(p.gatewayRequestTimeoutSeconds, 591);
  assert.equal(p.gatewayDrainingSeconds, 626);
});

test('an unbounded drain caps connection draining at GKE\u2019s 3600 s maximum; the timeout still follows the request', () => {
  // Drain = the 3600 s cap; 35 + 3600 = 3635 s > 3600 s maximum → 3600. Timeout at 10 ms per token: 50 s × 1.5 = 75 s, raised to the
  // 300 s floor.
  const p = planOf({ gateway: 'gke', 'unbounded-drain': true, 'tpot-ms': 10 });
  assert.equal(p.gatewayDrainingSeconds, 3600);
  assert.equal(
    stepOf(p, 'gatewayDrainingSeconds')?.formula,
    '35s preStop + 3600s drain = 3635s, capped at the 3600s maximum',
  );
  assert.equal(p.gatewayRequestTimeoutSeconds, 300);
});

test('a given removal and headroom flow into both settings', () => {
  // removal 12 + 5 = 17 s preStop; 50 s × 2 (100% headroom) = 100 s drain, and 100 s needed for the timeout,
  // which the 300 s floor raises to 300; draining 17 + 100 = 117 s.
  const p = planOf({ gateway: 'gke', 'removal-seconds': 12, 'drain-headroom-percent': 100, 'tpot-ms': 10 });
  assert.equal(p.gatewayRequestTimeoutSeconds, 300);
  assert.equal(p.gatewayRequestTimeoutNeededSeconds, 100);
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
  assert.deepEqual(
    p.cappedGatewaySettings.map((c) => [c.wantedSeconds, c.maxSeconds]),
    [[3635, 3600]],
  );
  const w = p.warnings.find((x) => x.code === 'gateway-setting-capped');
  assert.ok(w, 'warns');
  assert.match(w!.message, /goes up to 3600s, less than the 3635s this plan wants/);
  assert.equal(
    planOf({}).warnings.some((x) => x.code === 'gateway-setting-capped'),
    false,
  );
});
