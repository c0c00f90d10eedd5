// hitless generate --output: each form on stdout from the same core, its files in JSON, bad combinations exit 2
// naming the flag; the facts files refuse a bad value naming the file and field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { manifestOf } from '../support/drain.ts';
import { readDataFile } from '../../src/facts/profile-files.ts';
import { chartFactsSchema } from '../../src/facts/schemas/outputs.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { profiles } from '../support/generate.ts';

const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

test('--output bundle is today\u2019s manifest, byte for byte', () => {
  const r = run('generate', '--output', 'bundle');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, manifestOf({}));
});

test('--output patch --format json lists the kustomization and both patches, the YAML has a File line before each', () => {
  const json = run('generate', '--output', 'patch', '--container', 'server', '--format', 'json');
  assert.equal(json.status, 0, json.stderr);
  const out = JSON.parse(json.stdout);
  assert.deepEqual(
    out.files.map((f: { name: string }) => f.name),
    ['kustomization.yaml', 'drain-patch.yaml', 'drain-flag.yaml', 'drain-objects.yaml'],
  );
  assert.equal(parse(out.files[1].text).spec.template.spec.containers[0].name, 'server');
  const yaml = run('generate', '--output=patch', '--container=server');
  assert.equal(yaml.status, 0, yaml.stderr);
  assert.deepEqual(
    [...yaml.stdout.matchAll(/^# File: ([\w.-]+):/gm)].map((m) => m[1]),
    ['kustomization.yaml', 'drain-patch.yaml', 'drain-flag.yaml', 'drain-objects.yaml'],
  );
  assert.equal(yaml.stdout, out.manifest);
});

test('--output helm-values and lws run with the other inputs at their defaults; lws on one node exits 2 naming --nodes-per-replica', () => {
  assert.equal(run('generate', '--output', 'helm-values').status, 0);
  // lws defaults: 2 nodes per replica, one GPU per node (2 per replica).
  assert.equal(run('generate', '--output', 'lws').status, 0);
  assert.equal(run('generate', '--output', 'lws', '--nodes-per-replica', '2', '--gpus-per-replica', '2').status, 0);
  const bad = run('generate', '--output', 'lws', '--nodes-per-replica', '1');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--nodes-per-replica: output lws is for replicas that span nodes/);
  assert.equal(bad.stdout, '');
});

test('bad --output and --container values name the flag and what is allowed', () => {
  const output = run('generate', '--output', 'kustomize');
  assert.equal(output.status, 2);
  assert.match(output.stderr, /--output/);
  assert.match(output.stderr, /bundle, patch, helm-values, lws/);
  const { errors } = resolveInputs({ container: 'Server_1' }, profiles);
  assert.equal(errors.length, 1);
  assert.equal(errors[0].flag, 'container');
  assert.equal(resolveInputs({ 'nodes-per-replica': '0' }, profiles).errors[0].flag, 'nodes-per-replica');
});

test('a chart facts file with a bad value is refused, naming the file and the field', () => {
  const good =
    'id: x\nchart: inferencepool\nrelease: v1.5.0\ncommit: '
    + 'a'.repeat(40)
    + '\nrepository: oci://registry.k8s.io/x/charts/inferencepool\n'
    + 'sources:\n  - {id: s, url: "https://example.com/s"}\npoolNamedAfterRelease: true\neppNameReleaseChars: 40\n'
    + 'values: {selector: a.b, targetPorts: a.c, modelServerType: a.d, failureMode: e.f, extProcPort: e.g, provider: p.n}\n'
    + 'defaults: {failureMode: FailOpen, extProcPort: 9002, targetPort: 8000, modelServerType: vllm, provider: none}\n'
    + 'modelServerTypes: [vllm]\nproviders: [none]\nhardCoded: {gkeBackendTimeoutSeconds: 300, gkeHealthCheckPath: /health, eppTerminationGracePeriodSeconds: 130}\n';
  assert.equal(readDataFile({ path: 'c.yaml', text: good }, chartFactsSchema).hardCoded.gkeBackendTimeoutSeconds, 300);
  assert.throws(
    () =>
      readDataFile(
        { path: 'c.yaml', text: good.replace('eppNameReleaseChars: 40', 'eppNameReleaseChars: forty') },
        chartFactsSchema,
      ),
    /c\.yaml.*eppNameReleaseChars/s,
  );
  assert.throws(
    () => readDataFile({ path: 'c.yaml', text: good.replace('release: v1.5.0', 'release: latest') }, chartFactsSchema),
    /c\.yaml.*release/s,
  );
});
