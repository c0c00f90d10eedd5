// Every deployment-shaped fixture (tests/fixtures/deployments, written for these tests in the shapes people run):
// no crash, the fix converges, the fixed manifest has none of the findings it fixed, and no line outside the
// edited nodes changes. What each fixture must yield was worked out by reading it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { checkManifest, fixManifest } from '../../src/check/index.ts';
import { assertFixSound, check, fixed, profiles } from '../support/check.ts';

const DIR = new URL('../fixtures/deployments/', import.meta.url);
const names = readdirSync(DIR)
  .filter((n) => n.endsWith('.yaml'))
  .sort();
const read = (name: string) => readFileSync(new URL(name, DIR), 'utf8');

/** Lines of `a` that are not in `b` in order (by a longest common subsequence). */
function removedLines(a: string, b: string): string[] {
  const x = a.split('\n');
  const y = b.split('\n');
  const table: number[][] = Array.from({ length: x.length + 1 }, () => new Array(y.length + 1).fill(0));
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--)
      table[i][j] = x[i] === y[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
  const removed: string[] = [];
  let i = 0;
  let j = 0;
  while (i < x.length) {
    if (j < y.length && x[i] === y[j]) {
      i++;
      j++;
    } else if (j < y.length && table[i][j + 1] >= table[i + 1][j]) j++;
    else removed.push(x[i++]);
  }
  return removed;
}

test('there are at least 30 deployment fixtures', () => {
  assert.ok(names.length >= 30, `${names.length} fixtures`);
});

for (const name of names) {
  test(`${name}: checks, fixes soundly, and keeps every line it does not edit`, () => {
    const text = read(name);
    const result = checkManifest(text, {}, profiles);
    assert.ok(result.ok, result.ok ? '' : result.problem.message);
    const out = fixManifest(result.manifest, result.report.findings);
    assertFixSound(text);
    // Each edit rewrites at most the one line its node is on; whole nodes replaced (a preStop hook) are the exception.
    const replaced = result.report.findings
      .flatMap((f) => f.fix?.edits ?? [])
      .filter((e) => e.op === 'set' && e.value !== null && typeof e.value === 'object').length;
    const removed = removedLines(text, out.text);
    assert.ok(
      removed.length <= out.edits + replaced * 3,
      `${removed.length} lines changed for ${out.edits} edits:\n${removed.join('\n')}`,
    );
    for (const f of result.report.findings) assert.ok(f.remedy === 'applied' || f.remedy === 'manual');
  });
}

/** What a fixture must yield: codes applied, codes manual, codes absent. */
const EXPECT: Record<string, { applied?: string[]; manual?: string[]; absent?: string[] }> = {
  'arith-dp-size.yaml': { applied: ['drain-aborts-in-flight'], absent: ['shell-swallows-sigterm'] },
  'bash-exc-pip-install.yaml': { applied: ['drain-aborts-in-flight'], absent: ['shell-swallows-sigterm'] },
  'sh-c-ray-lws-leader.yaml': {
    applied: ['drain-aborts-in-flight', 'shell-swallows-sigterm', 'lws-worker-grace-shorter'],
  },
  'vllm-serve-no-exec.yaml': { applied: ['drain-aborts-in-flight', 'shell-swallows-sigterm'] },
  'vllm-background-wait.yaml': { applied: ['drain-aborts-in-flight'], manual: ['shell-swallows-sigterm'] },
  // A vLLM image older than --shutdown-timeout: one error, the plan's drain-flag-too-old (move the image first), not a
  // second drain-aborts-in-flight for the same cause (issue 34 item 7: the generator prints only the first).
  'vllm-old-release.yaml': { manual: ['drain-flag-too-old'], absent: ['drain-aborts-in-flight'] },
  'vllm-v010-sh.yaml': { manual: ['drain-flag-too-old'], absent: ['drain-aborts-in-flight'] },
  'vllm-latest.yaml': { manual: ['drain-aborts-in-flight'] },
  'vllm-args-entrypoint.yaml': { applied: ['drain-aborts-in-flight'] },
  'python-m-flow.yaml': { applied: ['drain-aborts-in-flight'] },
  'native-sidecar-proxy.yaml': { manual: ['drain-aborts-in-flight'], absent: ['pool-port-not-exposed'] },
  'multi-container.yaml': { applied: ['drain-aborts-in-flight'] },
  'server-in-cmd-subst.yaml': { manual: ['server-invocation-unknown'], absent: ['drain-aborts-in-flight'] },
  'two-servers-if.yaml': { manual: ['server-invocation-unknown'] },
  'triton-port-9000.yaml': { applied: ['drain-flag-too-short'] },
  'gpu-less-cpu.yaml': { absent: ['surge-without-spare-gpus'] },
  'simulator.yaml': { absent: ['drain-aborts-in-flight', 'server-invocation-unknown'] },
  'vllm-mock.yaml': { absent: ['drain-aborts-in-flight', 'server-invocation-unknown'] },
  'prestop-polling.yaml': { manual: ['prestop-unreadable'], absent: ['prestop-too-short'] },
  'rejected-values.yaml': { applied: ['value-rejected'] },
  'generator-clean.yaml': {
    absent: ['prestop-missing', 'grace-too-short', 'drain-aborts-in-flight', 'shell-swallows-sigterm'],
  },
};

for (const [name, expect] of Object.entries(EXPECT)) {
  test(`${name}: the findings worked out by hand`, () => {
    const report = check(read(name));
    for (const code of expect.applied ?? [])
      assert.ok(
        report.findings.some((f) => f.code === code && f.remedy === 'applied'),
        `${code} applied`,
      );
    for (const code of expect.manual ?? [])
      assert.ok(
        report.findings.some((f) => f.code === code && f.remedy === 'manual'),
        `${code} manual`,
      );
    for (const code of expect.absent ?? []) assert.ok(!report.findings.some((f) => f.code === code), `${code} absent`);
  });
}

test('YAML 1.1 literals: 0130 is 88 s of grace, 1_0 is ten replicas, 0043 a 35 s sleep; 0700 is kept as written', () => {
  const text = read('yaml11-literals.yaml');
  const report = check(text);
  // 88 s of grace after a 35 s sleep leaves 53 s: more than the 50 s longest request, less than 35 + 75 + 15 = 125.
  const grace = report.findings.find((f) => f.code === 'grace-too-short');
  assert.equal(grace?.severity, 'warning');
  assert.match(grace!.message, /SIGKILL comes 88s after deletion/);
  assert.ok(!report.findings.some((f) => f.code === 'single-replica-outage'), 'ten replicas, not one');
  assert.ok(!report.findings.some((f) => f.code === 'prestop-too-short'), '0043 is 35');
  const out = fixed(text);
  assert.match(out, /defaultMode: 0700\n/);
  assert.match(out, /replicas: 1_0\n/);
});

test('the drain flag lands after the server\u2019s last word, never in $((…)), a Ray line or a pip line', () => {
  const arith = fixed(read('arith-dp-size.yaml'));
  assert.match(arith, /--data-parallel-size-local \$DP_SIZE_LOCAL --shutdown-timeout=75\n/);
  assert.match(arith, /\$\(\(LWS_GROUP_SIZE \* DP_SIZE_LOCAL\)\)\n/);
  const ray = fixed(read('sh-c-ray-lws-leader.yaml'));
  assert.match(ray, /--ray_cluster_size=\$\(LWS_GROUP_SIZE\);/);
  assert.match(
    ray,
    /exec python3 -m vllm\.entrypoints\.openai\.api_server .*--pipeline_parallel_size 2 --shutdown-timeout=75"/,
  );
  const pip = fixed(read('bash-exc-pip-install.yaml'));
  assert.match(pip, /python -m pip install --upgrade pip\n/);
  assert.match(pip, / {12}--max-model-len 8192 --shutdown-timeout=75\n/);
});

test('CR-only and CRLF line endings are read like LF', () => {
  const lf = read('crlf-deployment.yaml');
  const codes = (t: string) =>
    check(t)
      .findings.map((f) => f.code)
      .sort();
  assert.deepEqual(codes(lf.replaceAll('\n', '\r\n')), codes(lf));
});

test('a server spread over two pods (--nnodes 2) is one replica holding 16 GPUs, not two replicas', () => {
  const report = check(read('statefulset-two-nodes.yaml'));
  assert.equal(report.found.find((f) => f.flag === 'replicas')?.value, '1');
  assert.equal(report.found.find((f) => f.flag === 'gpus-per-replica')?.value, '16');
});

test('--max-model-len 2048 bounds the longest request; readiness failureThreshold 600 is read as written (Kubernetes takes it); 1 s / 1 s readiness is flagged', () => {
  // Without the tests' given max-output-tokens, which would replace the manifest's.
  const result = checkManifest(read('probe-fast.yaml'), { 'tpot-ms': '10' }, profiles);
  assert.ok(result.ok);
  const { report } = result;
  assert.equal(report.found.find((f) => f.flag === 'max-output-tokens')?.value, '2048');
  assert.equal(report.inputs.maxOutputTokens, 2048);
  // A hold-out manifest (accelerated-platforms' vLLM base) sets 6000 so that readiness never fails: a value the
  // API server accepts is read, not replaced by the profile's 3 with a warning.
  assert.equal(report.found.find((f) => f.flag === 'readiness-failure-threshold')?.value, '600');
  assert.equal(report.inputs.readinessFailureThreshold, 600);
  assert.ok(!report.findings.some((f) => f.code === 'value-out-of-range'));
  assert.ok(report.findings.some((f) => f.code === 'readiness-too-tight' && f.remedy === 'applied'));
});
