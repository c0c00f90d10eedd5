// hitless check: exit 0 clean, 1 with error findings (printed), 2 for input or settings it cannot use.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emitManifest } from '../../src/emit/bundle.ts';
import { plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { profiles } from '../support/check.ts';
import { chart } from '../support/chart.ts';

const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const run = (args: string[], input?: string) =>
  spawnSync(process.execPath, [BIN, 'check', ...args], { encoding: 'utf8', input, cwd: FIXTURES });
const tmp = mkdtempSync(join(tmpdir(), 'hitless-check-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function generated(raw: Record<string, string>): string {
  const { inputs } = resolveInputs(raw, profiles);
  return emitManifest(plan(inputs, profiles), inputs, profiles, chart);
}

test('a file with findings exits 1 and prints each with its file, line, path, consequence and fix', () => {
  const r = run(['gie-v1.5.0-gpu-deployment.yaml']);
  assert.equal(r.status, 1, r.stderr);
  // At the defaults (492 s longest request, 738 s drain, 788 s grace). The fixture requests no GPU, so a surge needs
  // no spare one. One error: the drain flag (read: vLLM 0.18.1 without --shutdown-timeout). Four warnings: the 130 s
  // grace that leaves 130 - 35 = 95 s after the sleep, less than 492 s, which would be an error but rests on the
  // assumed longest request and removal p99 (issue 30: nothing in the file states the token count, the time per
  // token or the gateway); the preStop margin, the progress deadline, readiness every 1 s with a 1 s timeout. Three
  // notes: no-pool, readiness-path-differs, and the 788 s grace the fix would write, over cluster-autoscaler's 600 s
  // (a note: the manifest's own 130 s is within it).
  assert.match(
    r.stdout,
    /^gie-v1\.5\.0-gpu-deployment\.yaml: 1 error, 4 warnings, 3 notes \(1 model-server workload checked\)/,
  );
  assert.match(
    r.stdout,
    /\n {2}info {4}grace-exceeds-autoscaler {2}gie-v1\.5\.0-gpu-deployment\.yaml\n {10}If you raise terminationGracePeriodSeconds to 788s as the grace fix does: the 788s grace period is longer than the 600s/,
  );
  assert.match(r.stdout, /\n {2}Assumed: 1 warning would be an error on inputs the manifest does not state; /);
  assert.match(
    r.stdout,
    /warning grace-too-short .*\n.*less than the 492s longest request, so long requests are cut mid-stream\. This rests on an assumed longest request and removal p99 \(defaults the manifest does not state\), so it is a warning until you give --max-output-tokens, --tpot-ms and --gateway \(your real values\)\./,
  );
  assert.match(
    r.stdout,
    /error {3}drain-aborts-in-flight {2}gie-v1\.5\.0-gpu-deployment\.yaml:25 {2}Deployment\/vllm-qwen3-32b {2}spec\.template\.spec\.containers\[0\]\.args\n/,
  );
  assert.match(r.stdout, /vLLM runs without --shutdown-timeout/);
  assert.match(r.stdout, /fixable: --shutdown-timeout=738 in the vllm container's args/);
  assert.match(r.stdout, /: hitless generate --readiness-period-seconds 1 /);
});

test('the generator\u2019s output exits 0, from a file and from stdin', () => {
  const file = join(tmp, 'generated.yaml');
  writeFileSync(file, generated({ gateway: 'istio', 'model-server': 'triton' }));
  const r = run([file, '--gateway', 'istio']);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  // Istio's removal p99 is an estimate (a note); the 15 + 738 + 15 = 768 s grace is over cluster-autoscaler's 600 s, and the
  // manifest carries safe-to-evict "false" (a note); the InferencePool comes from the chart install the header states,
  // so its selector and ports are not checked (a note naming the release).
  assert.match(r.stdout, /generated\.yaml: 3 notes \(1 model-server workload checked\)/);
  assert.match(r.stdout, /info {4}no-pool .*\n.*chart install that creates it \(release triton-qwen3-32b\)/);
  assert.match(r.stdout, /\n {2}Checked for: Istio \(your setting\); change it with --gateway ID\n/);
  const s = run(['-'], generated({}));
  assert.equal(s.status, 0, s.stdout + s.stderr);
  // The gateway: not given, so read from the manifest, whose GKE HealthCheckPolicy names it before the header does.
  assert.match(
    s.stdout,
    /^-: 2 notes \(1 model-server workload checked\)\n {2}Checked for: GKE Gateway \(detected from HealthCheckPolicy\/vllm-qwen3-32b\); change it with --gateway ID\n {2}info {4}grace-exceeds-autoscaler/,
  );
  // With a measured 10.5 ms per token: 52 s longest request, 78 s drain, 128 s grace, under 600 s: only the note that
  // the pool (from the stated chart install) was not checked.
  const m = run(['-', '--tpot-ms', '10.5'], generated({ 'tpot-ms': '10.5' }));
  assert.equal(m.status, 0, m.stdout + m.stderr);
  assert.match(m.stdout, /^-: 1 note \(1 model-server workload checked\)\n.*\n {2}info {4}no-pool /);
});

test('without --gateway, the generator\u2019s header names the gateway; without a header, the default is said', () => {
  // Istio's output has no policy or Gateway object: only its header comment, on line 1, names the gateway.
  const istio = run(['-', '--format', 'text'], generated({ gateway: 'istio' }));
  assert.equal(istio.status, 0, istio.stdout + istio.stderr);
  assert.match(
    istio.stdout,
    /\n {2}Checked for: Istio \(detected from the generator\u2019s header comment \(line 1\)\); change it with --gateway ID\n/,
  );
  const bare = generated({ gateway: 'istio' }).replace(/^# Generated by Hitless .*\n/, '');
  const r = run(['-'], bare);
  assert.match(
    r.stdout,
    /\n {2}Checked for: GKE Gateway \(the default: the manifest names no gateway\); change it with --gateway ID\n/,
  );
  // JSON says the same.
  const json = JSON.parse(run(['-', '--format', 'json'], generated({ gateway: 'istio' })).stdout);
  assert.deepEqual(json.checkedFor, {
    gateway: 'istio',
    name: 'Istio',
    source: 'manifest',
    from: 'the generator\u2019s header comment (line 1)',
  });
});

test('the settings change the verdict: the generator\u2019s gke manifest fails for 16384-token requests', () => {
  // 16384 × 100 ms × 1.2 = 1966.08 → 1967 s; × 1.5 = 2950.5 → 2951 s drain, above the manifest's 738.
  const r = run(['-', '--max-output-tokens', '16384'], generated({}));
  assert.equal(r.status, 1);
  assert.match(r.stdout, /--shutdown-timeout=2951/);
});

test('files are read as one manifest: a pool in one file is checked against the Deployment in another', () => {
  const r = run(['check/split-deployment.yaml', 'check/split-pool.yaml']);
  assert.equal(r.status, 1, r.stderr);
  assert.match(
    r.stdout,
    /pool-selector-mismatch {2}check\/split-pool\.yaml:8 {2}InferencePool\/split {2}spec\.selector\.matchLabels/,
  );
  assert.ok(!r.stdout.includes('no-pool') && !r.stdout.includes('no-workload'));
});

test('--format json gives counts, findings with paths and fixes, the found settings and the fixed manifest', () => {
  const r = run(['--format', 'json', 'gie-v1.5.0-gpu-deployment.yaml']);
  assert.equal(r.status, 1);
  const out = JSON.parse(r.stdout);
  // ok means what the exit code means: findings at error severity, so not ok (issue 32).
  assert.equal(out.ok, false);
  assert.equal(out.exitCode, 1);
  assert.deepEqual(out.counts, { error: 1, warning: 4, info: 3 });
  // The grace error that rests on assumed inputs: a warning naming the settings that would make them known.
  const grace = out.findings.find((f: { code: string }) => f.code === 'grace-too-short');
  assert.equal(grace.severity, 'warning');
  assert.deepEqual(grace.assumed, ['max-output-tokens', 'tpot-ms', 'gateway']);
  const vllmFinding = out.findings.find((f: { code: string }) => f.code === 'drain-aborts-in-flight');
  assert.equal(vllmFinding.path, 'spec.template.spec.containers[0].args');
  assert.equal(vllmFinding.line, 25);
  assert.match(vllmFinding.fix, /^--shutdown-timeout=738/);
  assert.ok(out.found.some((f: { flag: string; value: string }) => f.flag === 'model-server' && f.value === 'vllm'));
  assert.match(out.fixed, /- --shutdown-timeout=738 # drain/);
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
  // The CLI reads inputs of any size, but no single YAML document over 256 KiB (the page's limit for a whole input).
  assert.match(
    g.stderr,
    /big\.yaml:1: The YAML document at line 1 is 301 KiB; the checker reads at most 256 KiB per document/,
  );
  assert.match(
    run(['-'], `#${'x'.repeat(300 * 1024)}\n`).stderr,
    /The YAML document at line 1 is 301 KiB; the checker reads at most 256 KiB per document/,
  );
});

test('bad settings exit 2 naming the flag; no file is a usage error', () => {
  const r = run(['--image', 'x', 'gie-v1.5.0-gpu-deployment.yaml']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--image is read from the manifest, so it is not a check setting/);
  const form = run(['--output', 'patch', 'gie-v1.5.0-gpu-deployment.yaml']);
  assert.equal(form.status, 2);
  assert.match(form.stderr, /--output chooses what hitless generate writes, so it is not a check setting/);
  assert.match(run(['--tpot-ms', 'fast', 'x.yaml']).stderr, /--tpot-ms must be a number from 0\.1 to 10,000/);
  assert.match(run([]).stderr, /check needs at least one FILE/);
  assert.equal(run([]).status, 2);
});
