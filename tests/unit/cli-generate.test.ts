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
  // custom: 5 × 2 + 5 + 5 = 20 removal → preStop 25; 4096 × 100 ms × 1.2 = 491.52 → 492 s; drain ⌈738⌉; grace 25 + 738 + 15 = 778
  assert.equal(out.plan.preStopSeconds, 25);
  assert.equal(out.plan.drainSeconds, 738);
  assert.equal(out.plan.terminationGracePeriodSeconds, 778);
  assert.equal(out.plan.maxRequestSeconds, 492);
  // rollout: 3 steps × (600 s load + 778 s grace) = 4134 s; 2 of 3 serve
  assert.equal(out.plan.rolloutSeconds, 4134);
  assert.equal(out.plan.rolloutServingReplicas, 2);
  assert.ok(out.plan.warnings.some((w: { code: string }) => w.code === 'grace-exceeds-autoscaler'));
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

// Issue 34 item 7 changed the exit code from 0: generate exits 1 when it prints an error, as check does for one.
test('an image older than the drain flag: no --shutdown-timeout, an error on stderr, exit 1 with the manifest', () => {
  const r = run('generate', '--image', 'vllm/vllm-openai:v0.10.1');
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout, /^kind: Deployment$/m);
  assert.doesNotMatch(r.stdout, /--shutdown-timeout=/);
  assert.match(
    r.stderr,
    /^error \[drain-flag-too-old\]: vLLM 0\.10\.1 \(from the image tag\) predates --shutdown-timeout, which vLLM has from 0\.18\.0, .*aborts every in-flight request at SIGTERM/m,
  );
  const json = JSON.parse(run('generate', '--image', 'vllm/vllm-openai:v0.10.1', '--format', 'json').stdout);
  assert.equal(json.plan.drainFlag, null);
  assert.deepEqual(
    json.plan.warnings.filter((w: { severity: string }) => w.severity === 'error').map((w: { code: string }) => w.code),
    ['drain-flag-too-old'],
  );
});

test('--drain-model 1 gives v2\u2019s output and lists every value that changed, old \u2192 new', () => {
  const r = run('generate', '--drain-model', '1');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, manifestOf());
  // v1 default: 4096 × 10 ms × 1.2 = 49.152 → 50; drain 75; grace 35 + 75 + 15 = 125. v2: 492, 738, 788.
  assert.match(
    r.stderr,
    /^notice: these inputs were written for drain model v1; this is v2's output\. What changed:\n {2}Time per output token \(default\): 10 ms → 100 ms\n {2}Longest request: 50 s → 492 s\n {2}Drain budget: 75 s → 738 s\n {2}Grace period \(terminationGracePeriodSeconds\): 125 s → 788 s\n/,
  );
  const json = JSON.parse(run('generate', '--drain-model=1', '--tpot-ms', '40', '--format', 'json').stdout);
  assert.deepEqual(json.migration, {
    fromVersion: 1,
    changes: [{ label: 'PodDisruptionBudget', before: 'none', after: 'maxUnavailable 1' }],
  });
  assert.match(
    run('generate', '--drain-model', '3').stderr,
    /--drain-model must be a drain model version from 1 to 2 \(got "3"\)/,
  );
});
