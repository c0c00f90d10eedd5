// Read, given or assumed (issue 30 item 3): an error that rests on an input the manifest does not state and the
// reader did not give is a warning naming the settings to give; --strict fails the run on it. A generator header
// that lists its inputs states them all. Numbers worked out by hand in tests/support/check.ts (GKE + vLLM at 10 ms
// per token: 30 s removal p99, 35 s preStop, 50 s longest request, 125 s grace).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkManifest } from '../../src/check/index.ts';
import { emitManifest } from '../../src/emit/bundle.ts';
import { plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { only, profiles, vllm } from '../support/check.ts';
import { chart } from '../support/chart.ts';

const SLEEP_20 = { lifecycle: 'lifecycle:\n            preStop:\n              sleep:\n                seconds: 20' };
const GRACE_60 = { grace: 'terminationGracePeriodSeconds: 60' };

function findings(text: string, settings: Record<string, string>) {
  const result = checkManifest(text, settings, profiles);
  assert.ok(result.ok);
  return result.report;
}

test('below the removal p99 of the default gateway: a warning naming --gateway; with the gateway given, an error', () => {
  const assumed = only(findings(vllm(SLEEP_20), {}), 'prestop-too-short');
  assert.equal(assumed.severity, 'warning');
  assert.deepEqual(assumed.assumed, ['gateway']);
  assert.match(
    assumed.message,
    /for up to 30s \(the removal p99\).* This rests on an assumed removal p99 \(a default the manifest does not state\), so it is a warning until you give --gateway \(your real value\)\.$/s,
  );
  const given = only(findings(vllm(SLEEP_20), { gateway: 'gke' }), 'prestop-too-short');
  assert.equal(given.severity, 'error');
  assert.equal(given.assumed, undefined);
  // A removal p99 given outright is known too, whatever the gateway.
  assert.equal(only(findings(vllm(SLEEP_20), { 'removal-seconds': '30' }), 'prestop-too-short').severity, 'error');
});

test('a grace period below the longest request: known only from max-request-seconds, or tokens and time per token', () => {
  const gke = { gateway: 'gke' };
  // 60 s leaves 25 s after the 35 s sleep; at 10 ms per token the longest request is 50 s.
  const tpotOnly = only(findings(vllm(GRACE_60), { ...gke, 'tpot-ms': '10' }), 'grace-too-short');
  assert.equal(tpotOnly.severity, 'warning');
  assert.deepEqual(tpotOnly.assumed, ['max-output-tokens', 'tpot-ms']);
  assert.match(tpotOnly.message, /assumed longest request \(a default/);
  const both = { ...gke, 'tpot-ms': '10', 'max-output-tokens': '4096' };
  assert.equal(only(findings(vllm(GRACE_60), both), 'grace-too-short').severity, 'error');
  // 50 s given as the longest request: 60 - 35 = 25 < 50.
  assert.equal(
    only(findings(vllm(GRACE_60), { ...gke, 'max-request-seconds': '50' }), 'grace-too-short').severity,
    'error',
  );
});

test('tokens read from the manifest (--max-model-len) and the time per token given: the longest request is known', () => {
  // 2048 × 10 ms × 1.2 = 24.576 → 25 s longest request; a 50 s grace leaves 50 - 35 = 15 s after the sleep.
  const args = 'args: ["--model", "Qwen/Qwen3-32B", "--max-model-len", "2048", "--shutdown-timeout=75"]';
  const text = vllm({ grace: 'terminationGracePeriodSeconds: 50', args });
  const report = findings(text, { gateway: 'gke', 'tpot-ms': '10' });
  assert.equal(report.found.find((f) => f.flag === 'max-output-tokens')?.value, '2048');
  const grace = only(report, 'grace-too-short');
  assert.equal(grace.severity, 'error');
  assert.match(grace.message, /leaves 15s to drain, less than the 25s longest request/);
});

test('warnings and notes are left as they are: only errors rest on what was assumed', () => {
  // 32 s covers the 30 s removal p99 but not the 5 s margin: a warning with or without the gateway.
  const sleep32 = { lifecycle: 'lifecycle:\n            preStop:\n              sleep:\n                seconds: 32' };
  const f = only(findings(vllm(sleep32), {}), 'prestop-too-short');
  assert.equal(f.severity, 'warning');
  assert.equal(f.assumed, undefined);
});

function generated(raw: Record<string, string>): string {
  const { inputs } = resolveInputs(raw, profiles);
  return emitManifest(plan(inputs, profiles), inputs, profiles, chart);
}

test('the generator’s output carries its inputs: an 8192-token Istio manifest checks clean without flags', () => {
  const text = generated({ gateway: 'istio', 'max-output-tokens': '8192' });
  assert.match(text, /^# Inputs changed from defaults: --gateway istio --max-output-tokens 8192$/m);
  const report = findings(text, {});
  assert.equal(report.found.find((f) => f.flag === 'max-output-tokens')?.value, '8192');
  assert.match(report.found.find((f) => f.flag === 'max-output-tokens')!.from, /generator’s header comment \(line 2\)/);
  assert.deepEqual(
    report.findings.filter((f) => f.severity !== 'info').map((f) => f.code),
    [],
  );
  // The same manifest with the header's inputs line removed: the 8192 is no longer stated, the default 4096 is
  // assumed, and the manifest's longer drain is only more than needed (no error, nothing assumed).
  const bare = text.replace(/^# Inputs changed from defaults: .*\n/m, '');
  const bareReport = findings(bare, {});
  assert.equal(
    bareReport.found.find((f) => f.flag === 'max-output-tokens'),
    undefined,
  );
  assert.equal(bareReport.counts.error, 0);
  assert.ok(bareReport.findings.every((f) => f.assumed === undefined));
});

test('a header at its defaults states every input: an error on a given setting stands', () => {
  const text = generated({});
  assert.match(text, /^# All inputs at their defaults\.$/m);
  // 16384 × 100 ms × 1.2 = 1966.08 → 1967 s longest request; the manifest's 738 s drain is below it.
  const report = findings(text, { 'max-output-tokens': '16384' });
  const drain = report.findings.find((f) => f.code === 'drain-flag-too-short');
  assert.equal(drain?.severity, 'error');
  assert.equal(drain?.assumed, undefined);
});

const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'hitless-assumed-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

test('the CLI: an assumed error exits 0 and says so; --strict exits 1 on it', () => {
  const file = join(tmp, 'sleep-20.yaml');
  writeFileSync(file, vllm(SLEEP_20));
  // Every input the other rules rest on given, so that the only would-be error is the assumed gateway's.
  const given = ['--tpot-ms', '10', '--max-output-tokens', '4096', '--startup-seconds', '600', '--spare-gpus', '0'];
  const run = (extra: string[]) =>
    spawnSync(process.execPath, [BIN, 'check', file, ...given, ...extra], { encoding: 'utf8' });
  const plain = run([]);
  assert.equal(plain.status, 0, plain.stdout + plain.stderr);
  assert.match(plain.stdout, /: 1 warning, 1 note \(1 model-server workload checked\)\n/);
  assert.match(
    plain.stdout,
    /\n {2}Assumed: 1 warning would be an error on inputs the manifest does not state; each names the settings to give, or --strict fails the run on them\n/,
  );
  const strict = run(['--strict']);
  assert.equal(strict.status, 1, strict.stdout + strict.stderr);
  assert.match(strict.stdout, /\(--strict fails the run on them\)/);
  const known = run(['--gateway', 'gke']);
  assert.equal(known.status, 1);
  assert.match(known.stdout, /: 1 error, 1 note \(1 model-server workload checked\)\n/);
  const json = JSON.parse(run(['--format', 'json']).stdout);
  assert.equal(json.ok, true);
  // The note (no-pool) rests on nothing; the warning on the gateway.
  assert.deepEqual(
    json.findings.map((f: { code: string; assumed?: string[] }) => [f.code, f.assumed]),
    [
      ['prestop-too-short', ['gateway']],
      ['no-pool', undefined],
    ],
  );
});
