// hitless check: exit 0 clean, 1 with error findings (printed), 2 for input or settings it cannot use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emitManifest } from '../../src/drain/emit.ts';
import { plan } from '../../src/drain/plan.ts';
import { resolveInputs } from '../../src/drain/resolve.ts';
import { profiles } from '../support/check.ts';

const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const run = (args: string[], input?: string) => spawnSync(process.execPath, [BIN, 'check', ...args], { encoding: 'utf8', input, cwd: FIXTURES });
const tmp = mkdtempSync(join(tmpdir(), 'hitless-check-'));

function generated(raw: Record<string, string>): string {
  const { inputs } = resolveInputs(raw, profiles);
  return emitManifest(plan(inputs, profiles), inputs, profiles);
}

test('a file with findings exits 1 and prints each with its file, line, path, consequence and fix', () => {
  const r = run(['gie-v1.5.0-gpu-deployment.yaml']);
  assert.equal(r.status, 1, r.stderr);
  // Notes: request-placeholder (the 50 s longest request is derived at 10 ms per token), no-pool, readiness-path-differs.
  assert.match(r.stdout, /^gie-v1\.5\.0-gpu-deployment\.yaml: 2 errors, 2 warnings, 3 notes \(1 model-server workload checked\)/);
  assert.match(r.stdout, /info {4}request-placeholder {2}gie-v1\.5\.0-gpu-deployment\.yaml\n/);
  assert.match(r.stdout, /error {3}drain-aborts-in-flight {2}gie-v1\.5\.0-gpu-deployment\.yaml:25 {2}Deployment\/vllm-qwen3-32b {2}spec\.template\.spec\.containers\[0\]\.args\n/);
  assert.match(r.stdout, /vLLM runs without --shutdown-timeout/);
  assert.match(r.stdout, /fix: --shutdown-timeout=75 in the vllm container's args/);
  assert.match(r.stdout, /npx hitless generate --readiness-period-seconds 1 /);
});

test('the generator\u2019s output exits 0, from a file and from stdin', () => {
  const file = join(tmp, 'generated.yaml');
  writeFileSync(file, generated({ gateway: 'istio', 'model-server': 'triton' }));
  const r = run([file, '--gateway', 'istio']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  // Notes only: Istio's removal p99 is an estimate, and the longest request uses the placeholder time per token.
  assert.match(r.stdout, /generated\.yaml: 2 notes \(1 model-server workload checked\)/);
  const s = run(['-'], generated({}));
  assert.equal(s.status, 0, s.stdout + s.stderr);
  assert.match(s.stdout, /^-: 1 note \(1 model-server workload checked\)\n {2}info {4}request-placeholder/);
  // With a measured time per token there is nothing left to note.
  const m = run(['-', '--tpot-ms', '10.5'], generated({ 'tpot-ms': '10.5' }));
  assert.equal(m.status, 0, m.stdout + m.stderr);
  assert.match(m.stdout, /^-: No findings \(1 model-server workload checked\)/);
});

test('the settings change the verdict: the generator\u2019s gke manifest fails for 16384-token requests', () => {
  const r = run(['-', '--max-output-tokens', '16384'], generated({}));
  assert.equal(r.status, 1);
  assert.match(r.stdout, /--shutdown-timeout=296/);
});

test('files are read as one manifest: a pool in one file is checked against the Deployment in another', () => {
  const r = run(['check/split-deployment.yaml', 'check/split-pool.yaml']);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /pool-selector-mismatch {2}check\/split-pool\.yaml:8 {2}InferencePool\/split {2}spec\.selector\.matchLabels/);
  assert.ok(!r.stdout.includes('no-pool') && !r.stdout.includes('no-workload'));
});

test('--format json gives counts, findings with paths and fixes, the found settings and the fixed manifest', () => {
  const r = run(['--format', 'json', 'gie-v1.5.0-gpu-deployment.yaml']);
  assert.equal(r.status, 1);
  const out = JSON.parse(r.stdout);
  assert.equal(out.ok, true);
  assert.equal(out.exitCode, 1);
  assert.deepEqual(out.counts, { error: 2, warning: 2, info: 3 });
  const vllmFinding = out.findings.find((f: { code: string }) => f.code === 'drain-aborts-in-flight');
  assert.equal(vllmFinding.path, 'spec.template.spec.containers[0].args');
  assert.equal(vllmFinding.line, 25);
  assert.match(vllmFinding.fix, /^--shutdown-timeout=75/);
  assert.ok(out.found.some((f: { flag: string; value: string }) => f.flag === 'model-server' && f.value === 'vllm'));
  assert.match(out.fixed, /- --shutdown-timeout=75 # drain/);
});

test('invalid YAML exits 2 with the file, line and column', () => {
  const file = join(tmp, 'bad.yaml');
  writeFileSync(file, 'apiVersion: apps/v1\nkind: Deployment\nspec: [1, 2\nmetadata: {}\n');
  const r = run([file]);
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /bad\.yaml:4:1: Not valid YAML at line 4, column 1: /);
});

test('unusable input exits 2 and says why: missing, binary, too large, not UTF-8', () => {
  assert.match(run(['nope.yaml']).stderr, /nope\.yaml does not exist/);
  const binary = join(tmp, 'binary.yaml');
  writeFileSync(binary, Buffer.from([0x6b, 0x3a, 0x20, 0x00, 0x01, 0x0a]));
  const b = run([binary]);
  assert.equal(b.status, 2);
  assert.match(b.stderr, /binary data/);
  const latin1 = join(tmp, 'latin1.yaml');
  writeFileSync(latin1, Buffer.from([0x6b, 0x3a, 0x20, 0xe9, 0x0a]));
  assert.match(run([latin1]).stderr, /is not UTF-8 text/);
  const big = join(tmp, 'big.yaml');
  writeFileSync(big, `#${'x'.repeat(300 * 1024)}\n`);
  const g = run([big]);
  assert.equal(g.status, 2);
  assert.match(g.stderr, /big\.yaml is 301 KiB; the checker reads at most 256 KiB/);
  assert.match(run(['-'], `#${'x'.repeat(300 * 1024)}\n`).stderr, /- is over 256 KiB; the checker reads at most 256 KiB/);
});

test('bad settings exit 2 naming the flag; no file is a usage error', () => {
  const r = run(['--image', 'x', 'gie-v1.5.0-gpu-deployment.yaml']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--image is read from the manifest, so it is not a check setting/);
  assert.match(run(['--tpot-ms', 'fast', 'x.yaml']).stderr, /--tpot-ms must be a number from 0\.1 to 10,000/);
  assert.match(run([]).stderr, /check needs at least one FILE/);
  assert.equal(run([]).status, 2);
});
