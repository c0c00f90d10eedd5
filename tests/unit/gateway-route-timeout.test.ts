// The gateway's side of a long request: where a gateway's default route timeout is shorter than the longest request
// (Envoy Gateway's 15 s), the plan warns and the manifest says what the HTTPRoute needs; where the gateway ignores
// timeouts on a route (NGINX Gateway Fabric), it says what bounds a response instead; where there is no default
// timeout (Istio, agentgateway), nothing is asked for. Numbers worked out by hand from the defaults:
// 4096 tokens × 100 ms × 1.2 = 491.52 → 492 s longest request; × 1.5 headroom = 738 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codesOf, manifestOf, planOf, profiles } from '../support/drain.ts';

test('Envoy AI Gateway: a warning and a manifest comment ask for timeouts.request 738s on the HTTPRoute', () => {
  const p = planOf({ gateway: 'envoy-ai-gateway' });
  const warning = p.warnings.find((w) => w.code === 'route-timeout-default')!;
  assert.equal(warning.severity, 'warning');
  assert.match(
    warning.message,
    /^Envoy AI Gateway cuts a request after 15s unless the HTTPRoute that sends it to the pool vllm-qwen3-32b sets spec\.rules\[\]\.timeouts\.request\. Set it there to at least 738s \(the 492s longest request × 1\.5 headroom\)/,
  );
  assert.match(
    manifestOf({ gateway: 'envoy-ai-gateway' }),
    // In the header, after the install that creates the pool the HTTPRoute sends to.
    /\n# {3}helm install vllm-qwen3-32b .*\n# Envoy AI Gateway cuts a request after 15s .* set spec\.rules\[\]\.timeouts\.request: 738s \(492s longest request × 1\.5 headroom\)\.\n\napiVersion: apps\/v1\n/,
  );
});

test('Envoy AI Gateway: no warning when the longest request with headroom fits in 15 s', () => {
  // 10 s longest request × 1.5 = 15 s: not above the 15 s default.
  assert.ok(
    !codesOf(planOf({ gateway: 'envoy-ai-gateway', 'max-request-seconds': 10 })).includes('route-timeout-default'),
  );
  // 11 s × 1.5 = 16.5 → 17 s: above it.
  assert.ok(
    codesOf(planOf({ gateway: 'envoy-ai-gateway', 'max-request-seconds': 11 })).includes('route-timeout-default'),
  );
});

test('kgateway: Envoy\u2019s 15 s route timeout applies unless the HTTPRoute sets timeouts.request', () => {
  const p = planOf({ gateway: 'kgateway' });
  const warning = p.warnings.find((w) => w.code === 'route-timeout-default')!;
  assert.match(warning.message, /^kgateway cuts a request after 15s unless the HTTPRoute .* at least 738s/);
  assert.match(
    manifestOf({ gateway: 'kgateway' }),
    /# kgateway cuts a request after 15s .*spec\.rules\[\]\.timeouts\.request: 738s/,
  );
});

test('NGINX Gateway Fabric: no timeouts on the route, a read timeout of at least 738s instead', () => {
  const p = planOf({ gateway: 'nginx-gateway-fabric' });
  const warning = p.warnings.find((w) => w.code === 'route-timeout-unsupported')!;
  assert.match(
    warning.message,
    /ignores timeouts on an HTTPRoute rule \(it accepts the route and reports them as unsupported\); ProxySettingsPolicy \(gateway\.nginx\.org\/v1alpha1\) spec\.timeout\.read defaults to 60s between two reads.*at least 738s/,
  );
  // 60 s or shorter longest request: the 60 s between reads cannot cut it.
  assert.ok(
    !codesOf(planOf({ gateway: 'nginx-gateway-fabric', 'max-request-seconds': 60 })).includes(
      'route-timeout-unsupported',
    ),
  );
});

test('Istio and agentgateway have no route timeout by default: nothing asked for', () => {
  for (const gateway of ['istio', 'agentgateway']) {
    const codes = codesOf(planOf({ gateway }));
    assert.ok(!codes.includes('route-timeout-default') && !codes.includes('route-timeout-unsupported'), gateway);
    assert.doesNotMatch(manifestOf({ gateway }), /timeouts\.request/, gateway);
    const profile = profiles.gateways.find((g) => g.id === gateway)!;
    assert.equal(profile.routeTimeout?.honored, true);
    assert.equal(profile.routeTimeout?.defaultSeconds, undefined);
  }
});
