// hitless generate: YAML or JSON on stdout from the same core; bad flags exit 2 naming the flag.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { manifestOf } from '../support/drain.ts';

const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

test('YAML output is the core\u2019s manifest for the same inputs', () => {
  const r = run('generate', '--gateway', 'istio', '--max-output-tokens=8192', '--unbounded-drain');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, manifestOf({ gateway: 'istio', 'max-output-tokens': '8192', 'unbounded-drain': 'true' }));
});

test('JSON output has inputs, plan (named as in the model) and manifest', () => {
  const r = run('generate', '--gateway', 'custom', '--format', 'json');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(Object.keys(out), ['inputs', 'plan', 'manifest']);
  // custom: 5 × 2 + 5 + 5 = 20 removal → preStop 25, drain 75, grace 115
  assert.equal(out.plan.preStopSeconds, 25);
  assert.equal(out.plan.drainSeconds, 75);
  assert.equal(out.plan.terminationGracePeriodSeconds, 115);
  assert.equal(out.plan.maxRequestSeconds, 50);
  assert.equal(out.inputs.gateway, 'custom');
  assert.equal(out.manifest, manifestOf({ gateway: 'custom' }));
});

test('bad values exit 2 and name each flag with its range', () => {
  const r = run('generate', '--replicas', '0', '--tpot-ms', 'fast');
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /--replicas must be a whole number from 1 to 1,000 \(got "0"\)/);
  assert.match(r.stderr, /--tpot-ms must be a number from 0\.1 to 10,000 \(got "fast"\)/);
});

test('unknown flags, missing values and bad formats exit 2', () => {
  assert.equal(run('generate', '--grace', '5').status, 2);
  assert.match(run('generate', '--replicas').stderr, /--replicas needs a value/);
  assert.match(run('generate', '--format', 'xml').stderr, /--format must be one of yaml, json/);
  assert.equal(run('nonsense').status, 2);
});
