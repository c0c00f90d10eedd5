// Adding a gateway is adding one data file: the repository's content plus tests/fixtures/gateways/example-gw.yaml
// loads, and the inputs, plan and manifest accept --gateway example-gw with its own numbers and extra object.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emitManifest } from '../../src/emit/bundle.ts';
import { plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { CONTENT_DIR, readProfiles } from '../../src/facts/read-files.ts';
import { manifestErrors } from '../support/manifest-check.ts';
import { chart } from '../support/chart.ts';

const FIXTURE = fileURLToPath(new URL('../fixtures/gateways/example-gw.yaml', import.meta.url));

/** The repository's content folder with the fixture gateway added, in a temporary folder. */
function contentWithFixture(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'hitless-gw-content-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(CONTENT_DIR, dir, { recursive: true, filter: (src) => !src.includes(`${join(CONTENT_DIR, 'docs')}`) });
  cpSync(FIXTURE, join(dir, 'gateways', 'example-gw.yaml'));
  return dir;
}

test('readProfiles accepts the content folder with the fixture gateway, in its order', (t) => {
  const profiles = readProfiles(contentWithFixture(t));
  const ids = profiles.gateways.map((g) => g.id);
  // order 90 puts it after kgateway (60) and before custom (100).
  assert.deepEqual(ids.slice(-3), ['kgateway', 'example-gw', 'custom']);
  assert.equal(profiles.gateways.find((g) => g.id === 'example-gw')!.name, 'Example Gateway');
});

test('--gateway example-gw resolves, plans and emits with the fixture\u2019s numbers', async (t) => {
  const profiles = readProfiles(contentWithFixture(t));
  const { inputs, errors } = resolveInputs({ gateway: 'example-gw' }, profiles);
  assert.deepEqual(errors, []);
  const p = plan(inputs, profiles);
  // removal 8 (estimate) + 5 margin = 13; 4096 × 100 ms × 1.2 = 491.52 → 492 s; × 1.5 = 738 s drain; 13 + 738 + 15 = 766.
  // Request timeout: 738 s, above the fixture's 60 s default.
  assert.equal(p.removalSeconds, 8);
  assert.equal(p.removalBasis, 'estimate');
  assert.equal(p.preStopSeconds, 13);
  assert.equal(p.terminationGracePeriodSeconds, 766);
  assert.equal(p.gatewayRequestTimeoutSeconds, 738);
  assert.equal(p.gatewayDrainingSeconds, null);
  assert.ok(p.warnings.some((w) => w.code === 'removal-estimate'));
  const text = emitManifest(p, inputs, profiles, chart);
  const { docs } = await manifestErrors(text);
  assert.deepEqual(
    docs.map((d) => d.kind),
    ['Deployment', 'ExampleTimeoutPolicy', 'PodDisruptionBudget'],
  );
  // The InferencePool the policy targets comes from the chart install the header states; example-gw is no provider
  // the chart knows (gke, istio, none), so none.
  assert.match(text, /^# {3}helm install vllm-qwen3-32b .* --set-string provider\.name=none$/m);
  assert.equal(docs[0].spec.template.spec.containers[0].lifecycle.preStop.sleep.seconds, 13);
  assert.deepEqual(docs[1].spec, {
    targetRef: { group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'vllm-qwen3-32b' },
    requestTimeoutSeconds: 738,
  });
  assert.match(
    text,
    /requestTimeoutSeconds: 738 # 492s longest request \(steady state, not drain p99\) × 1\.5 headroom, above the 60s default\n/,
  );
  assert.match(text, /# the pool this policy applies to\n\s+targetRef:/);
});

test('without the fixture file, example-gw is not a gateway', () => {
  const { errors } = resolveInputs({ gateway: 'example-gw' }, readProfiles());
  assert.equal(errors.length, 1);
  assert.match(errors[0].message, /^gateway must be one of gke, istio, .*custom \(got "example-gw"\)$/);
});
