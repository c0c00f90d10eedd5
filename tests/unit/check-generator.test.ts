// The generator's own output checks clean: for every gateway × model server, and for inputs that change the
// shape of the manifest (Kubernetes 1.29 exec sleep, a spare GPU, unbounded drain, one replica, long requests,
// a model load that is not a multiple of the probe period). Clean means: no error, no warning the plan itself
// does not give, and nothing to fix. The bundle writes no InferencePool: the chart install at its top creates it, so
// the manifest is checked with that pool beside it, as the cluster holds them (tests/support/helm-install.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emitManifest } from '../../src/emit/bundle.ts';
import { plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { check, fixed, profiles } from '../support/check.ts';
import { withInstalledPool } from '../support/helm-install.ts';
import { chart } from '../support/chart.ts';

const VARIANTS: Record<string, string>[] = [
  {},
  { 'kubernetes-version': '1.29' },
  { 'spare-gpus': '1' },
  { 'unbounded-drain': 'true' },
  { replicas: '1' },
  { 'max-output-tokens': '16384', 'tpot-ms': '25' },
  { 'startup-seconds': '605' },
  { 'removal-seconds': '0', 'removal-margin-seconds': '0' },
  { 'failure-mode': 'FailOpen', 'gpus-per-replica': '4', 'spare-gpus': '4' },
];

function assertClean(raw: Record<string, string>): void {
  const { inputs, errors } = resolveInputs(raw, profiles);
  assert.deepEqual(errors, []);
  const planned = plan(inputs, profiles);
  const manifest = withInstalledPool(emitManifest(planned, inputs, profiles, chart));
  const report = check(manifest, raw);
  const label = JSON.stringify(raw);
  assert.deepEqual(
    report.findings.filter((f) => f.severity === 'error').map((f) => `${f.code}: ${f.message}`),
    [],
    `errors for ${label}`,
  );
  const planCodes = new Set<string>(planned.warnings.map((w) => w.code));
  assert.deepEqual(
    report.findings
      .filter((f) => f.severity === 'warning' && !planCodes.has(f.code))
      .map((f) => `${f.code}: ${f.message}`),
    [],
    `warnings for ${label}`,
  );
  assert.ok(
    !report.findings.some(
      (f) => f.code === 'no-pool' || f.code === 'model-server-unknown' || f.code === 'pool-selector-mismatch',
    ),
    label,
  );
  assert.equal(fixed(manifest, raw), manifest, `nothing to fix for ${label}`);
}

for (const gateway of profiles.gateways) {
  for (const server of profiles.modelServers) {
    test(`the generator's manifest checks clean: ${gateway.id} + ${server.id}`, () => {
      assertClean({ gateway: gateway.id, 'model-server': server.id });
    });
  }
}

for (const variant of VARIANTS) {
  test(`the generator's manifest checks clean for ${JSON.stringify(variant)}, on every gateway`, () => {
    for (const gateway of profiles.gateways) assertClean({ gateway: gateway.id, ...variant });
  });
}

test('the checker tells the model server from the generator\u2019s manifest, without being told', () => {
  for (const server of profiles.modelServers) {
    const { inputs } = resolveInputs({ 'model-server': server.id }, profiles);
    const report = check(emitManifest(plan(inputs, profiles), inputs, profiles, chart));
    assert.equal(report.inputs.modelServer, server.id);
  }
});

test('the bundle alone, as pasted into the checker, adds only the note that its pool was not checked', () => {
  for (const gateway of profiles.gateways) {
    const raw = { gateway: gateway.id };
    const { inputs } = resolveInputs(raw, profiles);
    const manifest = emitManifest(plan(inputs, profiles), inputs, profiles, chart);
    const alone = check(manifest, raw).findings.map((f) => `${f.severity} ${f.code}`);
    const installed = check(withInstalledPool(manifest), raw).findings.map((f) => `${f.severity} ${f.code}`);
    assert.deepEqual(
      alone.filter((f) => !installed.includes(f)),
      ['info no-pool'],
      gateway.id,
    );
  }
});
