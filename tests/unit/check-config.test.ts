// A repository's .hitless.yaml (issue #30, item 4): found upward from the checked file, --config / --no-config, its
// gateway, inputs (for all workloads and per workload), rule levels and suppressions, and its errors (exit 2, with the
// file, the path and what is allowed). Expected values are worked out by hand from the manifests below.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import { checkManifest } from '../../src/check/index.ts';
import { repoConfigSchema, type RepoConfig } from '../../src/check/config.ts';
import { configSchemaText, CONFIG_SCHEMA_FILE } from '../../scripts/gen-schemas.ts';
import { codes, docs, only, profiles, vllm } from '../support/check.ts';

const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));
const ROOT = mkdtempSync(join(tmpdir(), 'hitless-config-'));
after(() => rmSync(ROOT, { recursive: true, force: true }));

const run = (args: string[], cwd: string) =>
  spawnSync(process.execPath, [BIN, 'check', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });

/** A config as the CLI reads it. */
const config = (raw: unknown): RepoConfig => ({ ...repoConfigSchema.parse(raw), file: '.hitless.yaml' });
const checked = (text: string, c?: RepoConfig) => {
  const result = checkManifest(text, {}, profiles, undefined, undefined, c);
  if (!result.ok) assert.fail(result.problem.message);
  return result.report;
};

// The vLLM Deployment without its drain flag: drain-aborts-in-flight says the flag to add, from the drain budget.
const NO_FLAG = vllm({ args: 'args: ["--model", "Qwen/Qwen3-32B", "--port", "8000"]' });

test('the config is found upward from the checked file; --config names one; --no-config reads none', () => {
  const repo = join(ROOT, 'repo');
  mkdirSync(join(repo, 'deploy', 'prod'), { recursive: true });
  writeFileSync(join(repo, 'deploy', 'prod', 'app.yaml'), NO_FLAG);
  writeFileSync(join(repo, '.hitless.yaml'), 'gateway: istio\n');
  const found = run(['deploy/prod/app.yaml'], repo);
  assert.match(found.stdout, /\n {2}Checked for: Istio/);
  assert.match(found.stdout, /\n {2}Config: \.hitless\.yaml \(--no-config ignores it\)\n/);
  // From inside the folder: the same file, two levels up.
  assert.match(run(['app.yaml'], join(repo, 'deploy', 'prod')).stdout, /\n {2}Config: \.\.\/\.\.\/\.hitless\.yaml /);
  const none = run(['deploy/prod/app.yaml', '--no-config'], repo);
  assert.doesNotMatch(none.stdout, /Config:/);
  assert.match(none.stdout, /\n {2}Checked for: GKE Gateway/);
  writeFileSync(join(ROOT, 'other.yaml'), 'gateway: kgateway\n');
  assert.match(
    run(['deploy/prod/app.yaml', '--config', join(ROOT, 'other.yaml')], repo).stdout,
    /Checked for: kgateway/,
  );
  const missing = run(['deploy/prod/app.yaml', '--config', 'nope.yaml'], repo);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /--config nope\.yaml: no such file/);
  // JSON names the file too.
  assert.equal(JSON.parse(run(['deploy/prod/app.yaml', '--format', 'json'], repo).stdout).config, '.hitless.yaml');
});

test('a config that cannot be used stops the run with the file, the path and what is allowed', () => {
  const dir = join(ROOT, 'bad');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'app.yaml'), NO_FLAG);
  const fails = (text: string, ...expected: RegExp[]) => {
    writeFileSync(join(dir, '.hitless.yaml'), text);
    const r = run(['app.yaml'], dir);
    assert.equal(r.status, 2, r.stdout);
    for (const e of expected) assert.match(r.stderr, e);
  };
  fails(
    'gatway: istio\n',
    /\.hitless\.yaml: \(top level\): unknown key gatway \(allowed: gateway, inputs, workloads, rules, suppress\)/,
  );
  fails('gateway: traefik\n', /gateway: "traefik" is not a gateway \(allowed: .*istio/);
  fails('inputs: {tpot-ms: 0}\n', /inputs\.tpot-ms .*0/);
  fails(
    'workloads: [{match: {name: m}, inputs: {max-output-tokens: -1}}]\n',
    /workloads\[0\]\.inputs\.max-output-tokens/,
  );
  fails(
    'workloads: [{match: {}, inputs: {}}]\n',
    /workloads\[0\]\.match: needs at least one of name, namespace, kind, labels/,
  );
  fails(
    'rules: {readiness-missin: off}\n',
    /rules\.readiness-missin: "readiness-missin" is no rule \(did you mean readiness-missing\?\)/,
  );
  fails(
    'rules: {readiness-missing: loud}\n',
    /rules\.readiness-missing: not a level \(allowed: off, note, warning, error\)/,
  );
  fails('suppress: [{rule: no-pool, reason: "  "}]\n', /suppress\[0\]\.reason: needs a reason/);
});

test('config inputs are given: an error that rests on them stays an error; the flag on the command line wins', () => {
  // Without inputs the grace finding rests on the assumed longest request and is a warning (issue 30, item 3).
  const grace = 'terminationGracePeriodSeconds: 60';
  assert.equal(only(checked(vllm({ grace })), 'grace-too-short').severity, 'warning');
  // Given 4096 tokens at 10 ms (× 1.2 = 50 s longest request), the 60 s grace leaves 25 s after the 35 s sleep: an error.
  const given = config({ inputs: { 'max-output-tokens': 4096, 'tpot-ms': 10 }, gateway: 'gke' });
  const f = only(checked(vllm({ grace }), given), 'grace-too-short');
  assert.equal(f.severity, 'error');
  assert.equal(f.assumed, undefined);
  // The drain budget 50 × 1.5 = 75 s; with --tpot-ms 20 on the command line: 4096 × 20 × 1.2 = 98.3 → 99 s, × 1.5 → 149 s.
  assert.match(only(checked(NO_FLAG, given), 'drain-aborts-in-flight').fix!.text, /^--shutdown-timeout=75 /);
  const result = checkManifest(NO_FLAG, { 'tpot-ms': '20' }, profiles, undefined, undefined, given);
  assert.ok(result.ok);
  assert.match(only(result.report, 'drain-aborts-in-flight').fix!.text, /^--shutdown-timeout=149 /);
});

test('per-workload inputs: the first entry that matches by name, namespace, kind or labels, over the shared inputs', () => {
  const named = (name: string, ns: string, label: string) =>
    NO_FLAG.replace('metadata:\n  name: m\n', `metadata:\n  name: ${name}\n  namespace: ${ns}\n`).replace(
      '      labels:\n        app: m',
      `      labels:\n        app: m\n        tier: ${label}`,
    );
  const text = docs(named('fast', 'prod', 'small'), named('slow', 'prod', 'big'), named('other', 'dev', 'big'));
  const c = config({
    gateway: 'gke',
    inputs: { 'max-output-tokens': 4096, 'tpot-ms': 10 },
    workloads: [
      { match: { name: 'slow', namespace: 'prod' }, inputs: { 'tpot-ms': 20 } },
      { match: { labels: { tier: 'big' } }, inputs: { 'tpot-ms': 40 } },
    ],
  });
  const flags = Object.fromEntries(
    checked(text, c)
      .findings.filter((f) => f.code === 'drain-aborts-in-flight')
      .map((f) => [f.object, /--shutdown-timeout=(\d+)/.exec(f.fix!.text)?.[1]]),
  );
  // fast: 75 s (shared inputs); slow: 149 s (its entry, 20 ms); other: 4096 × 40 × 1.2 = 196.6 → 197 s, × 1.5 → 296 s.
  assert.deepEqual(flags, { 'Deployment/fast': '75', 'Deployment/slow': '149', 'Deployment/other': '296' });
});

test('rule levels and suppressions: off drops the findings, a level replaces the severity, a suppression keeps a note', () => {
  const c = config({
    gateway: 'gke',
    inputs: { 'max-output-tokens': 4096, 'tpot-ms': 10 },
    rules: { 'readiness-path-differs': 'off', 'drain-aborts-in-flight': 'warning' },
    suppress: [{ rule: 'prestop-missing', workload: { kind: 'Deployment' }, reason: 'the mesh holds the pod' }],
  });
  const text = vllm({
    args: 'args: ["--model", "Qwen/Qwen3-32B", "--port", "8000"]',
    lifecycle: '',
    readiness:
      'readinessProbe:\n            httpGet: {path: /health, port: http}\n            periodSeconds: 5\n            failureThreshold: 3',
  });
  const plain = checked(text, config({ gateway: 'gke', inputs: { 'max-output-tokens': 4096, 'tpot-ms': 10 } }));
  assert.ok(codes(plain).includes('readiness-path-differs'));
  assert.equal(only(plain, 'prestop-missing').severity, 'error');
  const report = checked(text, c);
  assert.ok(!codes(report).includes('readiness-path-differs'));
  const drain = only(report, 'drain-aborts-in-flight');
  assert.equal(drain.severity, 'warning');
  assert.match(drain.message, / \(a warning by \.hitless\.yaml\)$/);
  const suppressed = only(report, 'prestop-missing');
  assert.equal(suppressed.severity, 'info');
  assert.equal(suppressed.suppressed, 'the mesh holds the pod');
  assert.match(suppressed.message, /^Suppressed by \.hitless\.yaml \(the mesh holds the pod\): /);
  assert.equal(report.counts.error, 0);
});

test('the JSON Schema for editors is the one gen:schemas writes, and it takes a config and refuses an unknown key', () => {
  const committed = readFileSync(new URL(`../../content/${CONFIG_SCHEMA_FILE}`, import.meta.url), 'utf8');
  assert.equal(committed, configSchemaText(), 'run npm run gen:schemas');
  const validate = new Ajv2020({ strict: false }).compile(JSON.parse(committed));
  assert.ok(validate({ gateway: 'istio', rules: { 'no-pool': 'off' }, suppress: [{ rule: 'no-pool', reason: 'x' }] }));
  assert.ok(!validate({ gatway: 'istio' }));
  assert.ok(!validate({ rules: { 'no-pool': 'quiet' } }));
});
