// The gateway's extra objects come out of the same emitter as the Deployment: GKE's HealthCheckPolicy and
// GCPBackendPolicy target the pool, use the model server's readiness path and port, and carry the plan's numbers
// with their arithmetic as comments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extraManifestDocuments } from '../../src/emit/gateway-objects.ts';
import { documentText } from '../../src/emit/files.ts';
import { plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import type { Profiles } from '../../src/facts/profiles.ts';
import { manifestOf, profiles } from '../support/drain.ts';
import { manifestErrors } from '../support/manifest-check.ts';

const kindsOf = (docs: Record<string, any>[]) => docs.map((d) => d.kind);

test('GKE gets a HealthCheckPolicy and a GCPBackendPolicy after the Deployment, all valid, aimed at the installed pool', async () => {
  const { docs, errors } = await manifestErrors(manifestOf({ gateway: 'gke', 'tpot-ms': 10 }));
  assert.deepEqual(errors, []);
  assert.deepEqual(kindsOf(docs), ['Deployment', 'HealthCheckPolicy', 'GCPBackendPolicy', 'PodDisruptionBudget']);
  const [, health, backend] = docs;
  // The pool the header's chart install creates: release vllm-qwen3-32b.
  const target = { group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'vllm-qwen3-32b' };
  assert.equal(health.apiVersion, 'networking.gke.io/v1');
  assert.deepEqual(health.metadata, { name: 'vllm-qwen3-32b', namespace: 'default' });
  assert.deepEqual(health.spec.targetRef, target);
  // GKE's defaults written out (5 s, 5 s, 2); vLLM's readiness path /v1/models on port 8000.
  assert.deepEqual(health.spec.default, {
    checkIntervalSec: 5,
    timeoutSec: 5,
    unhealthyThreshold: 2,
    config: {
      type: 'HTTP',
      httpHealthCheck: { portSpecification: 'USE_FIXED_PORT', port: 8000, requestPath: '/v1/models' },
    },
  });
  assert.deepEqual(backend.spec.targetRef, target);
  // 50 s × 1.5 = 75 s needed, raised to the 300 s floor (GIE's GKE example); 35 s preStop + 75 s drain = 110 s draining.
  assert.deepEqual(backend.spec.default, { timeoutSec: 300, connectionDraining: { drainingTimeoutSec: 110 } });
});

test('the policies carry their arithmetic and reasons as comments', () => {
  // At 10 ms per token, so that the 300 s floor is what the plan keeps.
  const text = manifestOf({ gateway: 'gke', 'tpot-ms': 10 });
  assert.match(
    text,
    /timeoutSec: 300 # 50s longest request \(steady state, not drain p99\) × 1\.5 headroom = 75s, kept at the 300s floor \(GIE's GKE example\)\n/,
  );
  assert.match(text, /drainingTimeoutSec: 110 # 35s preStop \+ 75s drain, above the 0s default\n/);
  assert.match(text, /requestPath: \/v1\/models # vLLM’s readiness path, as the pod’s own readinessProbe\n/);
  assert.match(text, /port: 8000 # the model server’s port, the InferencePool’s target port\n/);
  assert.match(text, /checkIntervalSec: 5 # GKE's default, written out;/);
  assert.match(text, /\n---\n# GKE Gateway: Points the load balancer's health check/);
});

test('names, port, model server and inputs flow into the policies', async () => {
  // SGLang's readiness path is /health. At 10 ms per token: 8192 × 10 ms × 1.2 = 98.304 → 99 s; × 1.5 = 149 s drain, and 149 s
  // needed for the timeout, raised to the 300 s floor; draining 35 + 149 = 184 s.
  const { docs, errors } = await manifestErrors(
    manifestOf({
      gateway: 'gke',
      'model-server': 'sglang',
      name: 'llama',
      namespace: 'serving',
      port: 9000,
      'max-output-tokens': 8192,
      'tpot-ms': 10,
    }),
  );
  assert.deepEqual(errors, []);
  const [, health, backend] = docs;
  assert.deepEqual(health.metadata, { name: 'llama', namespace: 'serving' });
  assert.equal(health.spec.targetRef.name, 'llama');
  assert.deepEqual(health.spec.default.config.httpHealthCheck, {
    portSpecification: 'USE_FIXED_PORT',
    port: 9000,
    requestPath: '/health',
  });
  assert.deepEqual(backend.spec.default, { timeoutSec: 300, connectionDraining: { drainingTimeoutSec: 184 } });
});

test('gateways without extra objects keep the Deployment and the PodDisruptionBudget (the chart makes the pool)', async () => {
  for (const gateway of ['istio', 'agentgateway', 'nginx-gateway-fabric', 'envoy-ai-gateway', 'kgateway', 'custom']) {
    const { docs, errors } = await manifestErrors(manifestOf({ gateway }));
    assert.deepEqual(errors, [], gateway);
    assert.deepEqual(kindsOf(docs), ['Deployment', 'PodDisruptionBudget'], gateway);
  }
});

test('a model server without an HTTP readiness path gets "/" and a comment saying to set one', () => {
  const vllm = profiles.modelServers.find((m) => m.id === 'vllm')!;
  const pathless: Profiles = {
    ...profiles,
    modelServers: profiles.modelServers.map((m) =>
      m.id === 'vllm'
        ? { ...vllm, probes: { ...vllm.probes, readiness: { ...vllm.probes.readiness, path: undefined } } }
        : m,
    ),
  };
  const { inputs } = resolveInputs({ gateway: 'gke' }, pathless);
  const [health] = extraManifestDocuments(plan(inputs, pathless), inputs, pathless);
  assert.match(
    documentText(health.document),
    /requestPath: \/ # vLLM has no HTTP readiness path; set one that answers 200 while it accepts requests\n/,
  );
});
