// The model server's drain flag. GKE + vLLM defaults: longest request 50 s, drain 75 s (50 × 1.5), preStop 35 s,
// teardown 15 s, grace 125 s. The GIE v1.5.0 reference settings (preStop 30, grace 130, no --shutdown-timeout)
// are written out in tests/fixtures/gie-v1.5.0-gpu-deployment.yaml.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { check, codes, fixed, only, problems, vllm } from '../support/check.ts';

const GIE = readFileSync(new URL('../fixtures/gie-v1.5.0-gpu-deployment.yaml', import.meta.url), 'utf8');
const args = (list: string) => ({ args: `args: [${list}]` });

test('the GIE v1.5.0 reference settings yield the vLLM finding: no --shutdown-timeout aborts in-flight requests', () => {
  const report = check(GIE);
  const f = only(report, 'drain-aborts-in-flight');
  assert.equal(f.severity, 'error');
  assert.equal(f.object, 'Deployment/vllm-qwen3-32b');
  assert.equal(f.path, 'spec.template.spec.containers[0].args');
  assert.match(f.message, /^vLLM runs without --shutdown-timeout, so at SIGTERM it aborts every in-flight request/);
  assert.match(f.fix!.text, /^--shutdown-timeout=75 /);
  // The rest, by hand: the fixture requests no GPU, so the default 25% surge needs no spare one (no finding);
  // the 30 s sleep lacks the 5 s margin (warning); 130 s grace + 600 s load > the 600 s default deadline (warning).
  // The 130 s grace covers 35 + 75 + 15 = 125; the 1 s probes fail readiness (1 s) before liveness (5 s), but a
  // readiness check every 1 s with the 1 s default timeout is too tight for a busy server (warning).
  // Notes: no pool in the file, readiness on /health where the vLLM profile uses /v1/models, and the 50 s longest
  // request derived from the placeholder 10 ms per token.
  assert.deepEqual(codes(report).sort(), [
    'drain-aborts-in-flight',
    'no-pool',
    'prestop-too-short',
    'progress-deadline-too-short',
    'readiness-path-differs',
    'readiness-too-tight',
  ]);
  assert.equal(only(report, 'prestop-too-short').severity, 'warning');
});

test('drain-aborts-in-flight: --shutdown-timeout=0 and --shutdown-timeout 0 abort as well', () => {
  assert.equal(
    only(check(vllm(args('"--model", "x/y", "--shutdown-timeout=0"'))), 'drain-aborts-in-flight').path,
    'spec.template.spec.containers[0].args[2]',
  );
  const text = vllm(args('"--shutdown-timeout", "0", "--model", "x/y"'));
  assert.equal(only(check(text), 'drain-aborts-in-flight').severity, 'error');
  assert.match(fixed(text), /args: \["--shutdown-timeout", "75", "--model", "x\/y"\]/);
});

test('drain-aborts-in-flight: not with --shutdown-timeout=75, or written --shutdown_timeout 75', () => {
  assert.ok(!codes(check(vllm())).includes('drain-aborts-in-flight'));
  assert.deepEqual(problems(check(vllm(args('"--model", "x/y", "--shutdown_timeout", "75"')))), []);
});

test('drain-flag-too-short: 40 s is below the 50 s longest request (error); 60 s only lacks the headroom (warning)', () => {
  const short = only(check(vllm(args('"--shutdown-timeout=40"'))), 'drain-flag-too-short');
  assert.equal(short.severity, 'error');
  assert.match(short.message, /drains for at most 40s/);
  assert.match(short.fix!.text, /^--shutdown-timeout=75/);
  assert.equal(only(check(vllm(args('"--shutdown-timeout=60"'))), 'drain-flag-too-short').severity, 'warning');
});

test('drain-flag-too-short: Triton without --exit-timeout-secs drains its default 30 s, less than 50 s', () => {
  const text = vllm({
    image: 'image: nvcr.io/nvidia/tritonserver:25.05-trtllm-python-py3',
    command: 'command: ["tritonserver", "--model-repository=/models"]',
    args: '',
    readiness:
      'readinessProbe:\n            httpGet: {path: /v2/health/ready, port: http}\n            periodSeconds: 5\n            failureThreshold: 3',
  });
  const f = only(check(text), 'drain-flag-too-short');
  assert.equal(f.severity, 'error');
  assert.match(f.message, /NVIDIA Triton runs without --exit-timeout-secs, so it drains for only its default 30s/);
  assert.match(fixed(text), /command: \["tritonserver", "--model-repository=\/models", --exit-timeout-secs=75\]/);
});

test('drain-flag-exceeds-grace: --shutdown-timeout=300 runs past SIGKILL at 125 s; fixed to 125 - 35 - 15 = 75', () => {
  const f = only(check(vllm(args('"--shutdown-timeout=300"'))), 'drain-flag-exceeds-grace');
  assert.equal(f.severity, 'warning');
  assert.match(f.fix!.text, /^--shutdown-timeout=75 /);
  // With a 400 s grace period the same flag fits: 35 + 300 + 15 = 350.
  assert.ok(
    !codes(
      check(
        vllm({
          ...args('"--shutdown-timeout=300"'),
          grace: 'terminationGracePeriodSeconds: 400',
          progressDeadline: 'progressDeadlineSeconds: 1000',
        }),
      ),
    ).includes('drain-flag-exceeds-grace'),
  );
});

test("the flag is added inside a sh -c script, after the server's own last word", () => {
  const text = vllm({
    image: 'image: vllm/vllm-openai:v0.19.0',
    command: 'command: ["/bin/sh", "-c", "cd /tmp && exec vllm serve Qwen/Qwen3-8B --port 8000 > /dev/stdout"]',
    args: '',
  });
  assert.equal(only(check(text), 'drain-aborts-in-flight').path, 'spec.template.spec.containers[0].command');
  assert.match(
    fixed(text),
    /"cd \/tmp && exec vllm serve Qwen\/Qwen3-8B --port 8000 --shutdown-timeout=75 > \/dev\/stdout"/,
  );
  assert.deepEqual(problems(check(fixed(text))), []);
});

test('a server the checker cannot tell gets no drain-flag finding, only a note', () => {
  const report = check(vllm({ image: 'image: example.com/llm:1', command: '', args: '' }));
  assert.ok(!codes(report).some((c) => c.startsWith('drain-')));
  assert.equal(only(report, 'model-server-unknown').severity, 'info');
  // Given the server, but with no command on an image that is not vLLM's, the flag's place is unknown: manual.
  const given = check(vllm({ image: 'image: example.com/llm:1', command: '', args: '' }), { 'model-server': 'vllm' });
  const f = only(given, 'server-invocation-unknown');
  assert.equal(f.remedy, 'manual');
  assert.match(f.fix!.text, /^Manual: /);
});

test('drain-flag-too-old: an image older than the flag\u2019s first release is an error on its image; v0.18.1 is not', () => {
  // vllm.yaml: --shutdown-timeout from 0.18.0 (documented for v0.18.0); the image says 0.17.1.
  const f = only(check(vllm({ image: 'image: vllm/vllm-openai:v0.17.1' })), 'drain-flag-too-old');
  assert.equal(f.severity, 'error');
  assert.equal(f.path, 'spec.template.spec.containers[0].image');
  assert.match(
    f.message,
    /^vLLM 0\.17\.1 \(from the image tag\) predates --shutdown-timeout, which vLLM has from 0\.18\.0/,
  );
  assert.match(f.message, /aborts every in-flight request at SIGTERM/);
  assert.ok(
    !codes(check(vllm())).some((c) => c.startsWith('drain-flag-too-old') || c === 'drain-flag-release-unknown'),
  );
});

test('every container that runs the server is checked for its drain flag, and each is fixed in its own args', () => {
  // Two vLLM servers in one pod, one GPU each: the first drains for 75 s (clean), the second has no flag.
  const liveness =
    'livenessProbe:\n            httpGet: {path: /health, port: http}\n            periodSeconds: 10\n            failureThreshold: 3';
  const text = vllm({
    liveness: `${liveness}\n        - name: vllm-b\n          image: vllm/vllm-openai:v0.18.1\n          args: ["--model", "Qwen/Qwen3-32B", "--port", "8001"]\n          lifecycle:\n            preStop:\n              sleep:\n                seconds: 35\n          resources:\n            limits:\n              nvidia.com/gpu: 1`,
  });
  const f = only(check(text), 'drain-aborts-in-flight');
  assert.equal(f.path, 'spec.template.spec.containers[1].args');
  assert.match(f.message, /^In the vllm-b container: vLLM runs without --shutdown-timeout/);
  // The fixer appends to a flow sequence as a plain scalar (valid YAML; the items already there keep their quotes).
  assert.match(fixed(text), /args: \["--model", "Qwen\/Qwen3-32B", "--port", "8001", --shutdown-timeout=75\]/);
  // Too short on the second: the same, as drain-flag-too-short.
  const short = text.replace('"--port", "8001"]', '"--port", "8001", "--shutdown-timeout=40"]');
  assert.match(
    only(check(short), 'drain-flag-too-short').message,
    /^In the vllm-b container: vLLM drains for at most 40s/,
  );
});
