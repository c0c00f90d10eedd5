// False alarms found by a hold-out run on public manifests nobody here had written (issue 30, "Done when"): each case
// is written by hand in the shape that produced it, with what a careful reviewer expects.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { checkManifest, explainManifest } from '../../src/check/index.ts';
import { CHECK_TEST_SETTINGS, check, codes, docs, fixed, only, pool, profiles, vllm } from '../support/check.ts';

const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));

test('a model loaded from a path is not read as a model id, and not reported as out of range', () => {
  const text = vllm({ args: 'args: ["--model", "/models/llama-3-8b", "--port", "8000", "--shutdown-timeout=75"]' });
  const report = check(text);
  assert.ok(!codes(report).includes('value-out-of-range'), codes(report).join(', '));
  const explained = explainManifest(text, {}, profiles);
  assert.ok(explained.ok);
  const model = explained.explanation.workloads[0].inputs.find((i) => i.flag === 'model');
  // Not read (the plan takes no model, or the profile's default): never shown as read from the path.
  assert.notEqual(model?.source, 'read');
});

test('a value the manifest states but the drain model cannot take is shown as assumed in --explain, with the value', () => {
  // 70000 replicas is past the replicas field's range: value-out-of-range reports it, and the default stands.
  const text = vllm({ replicas: 'replicas: 70000' });
  assert.ok(codes(check(text)).includes('value-out-of-range'));
  const explained = explainManifest(text, {}, profiles);
  assert.ok(explained.ok);
  const replicas = explained.explanation.workloads[0].inputs.find((i) => i.flag === 'replicas');
  assert.equal(replicas?.source, 'assumed');
  assert.match(replicas!.from, /^the default, in place of "70000" at Deployment\/m spec\.replicas$/);
});

test('the autoscaler note: a warning when the manifest holds a grace over 600 s, a note when only the fix would', () => {
  // The test settings' plan: 35 s preStop + 75 s drain + 15 s = 125 s, within 600 s: nothing at all.
  assert.ok(!codes(check(vllm())).includes('grace-exceeds-autoscaler'));
  // 8192 tokens × 100 ms × 1.2 = 983.04 → 984 s; drain ×1.5 = 1476 s; the fix's grace 35 + 1476 + 15 = 1526 s.
  const long = { 'max-output-tokens': '8192', 'tpot-ms': '100' };
  const planned = only(check(vllm(), long), 'grace-exceeds-autoscaler');
  assert.equal(planned.severity, 'info');
  assert.match(planned.message, /^If you raise terminationGracePeriodSeconds to 1526s as the grace fix does: /);
  // 900 s written in the manifest, over 600 s already: the warning is about the manifest.
  const held = only(check(vllm({ grace: 'terminationGracePeriodSeconds: 900' }), long), 'grace-exceeds-autoscaler');
  assert.equal(held.severity, 'warning');
});

test('an image tag with no release: a note, not a warning, when the manifest does not pass the drain flag', () => {
  const text = vllm({
    image: 'image: vllm/vllm-openai:latest',
    args: 'args: ["--model", "Qwen/Qwen3-32B", "--port", "8000"]',
  });
  const f = only(check(text), 'drain-flag-release-unknown');
  assert.equal(f.severity, 'info');
  assert.match(f.message, /The manifest does not pass it, so nothing breaks at start/);
  assert.doesNotMatch(f.message, /The manifest passes it/);
  // With the flag written, the warning stands: a release without it refuses to start.
  const passed = only(check(vllm({ image: 'image: vllm/vllm-openai:latest' })), 'drain-flag-release-unknown');
  assert.equal(passed.severity, 'warning');
  assert.match(passed.message, /The manifest passes it: a release without it refuses to start/);
});

test('vLLM tags with a post release or a fourth part are read as their release', () => {
  // v0.6.3.post1 is 0.6.3, before --shutdown-timeout (0.18.0): the flag is not written, the image must move first.
  const old = vllm({ image: 'image: vllm/vllm-openai:v0.6.3.post1', args: 'args: ["--model", "Qwen/Qwen3-32B"]' });
  const report = check(old);
  assert.ok(codes(report).includes('drain-flag-too-old'), codes(report).join(', '));
  assert.ok(!codes(report).includes('drain-flag-release-unknown'));
  const explained = explainManifest(old, {}, profiles);
  assert.ok(explained.ok);
  assert.equal(explained.explanation.workloads[0].templates[0].containers[0].release, '0.6.3');
  const patch = explainManifest(vllm({ image: 'image: vllm/vllm-openai:v0.10.1.1' }), {}, profiles);
  assert.ok(patch.ok);
  assert.equal(patch.explanation.workloads[0].templates[0].containers[0].release, '0.10.1');
});

test('SGLang started with the sglang serve command is read as SGLang, flags and all', () => {
  const text = vllm({
    image: 'image: lmsysorg/sglang:v0.5.4',
    command: 'command: ["sglang", "serve"]',
    args: 'args: ["--model-path", "Qwen/Qwen3-8B", "--port", "8000"]',
  });
  const explained = explainManifest(text, {}, profiles);
  assert.ok(explained.ok);
  const c = explained.explanation.workloads[0].templates[0].containers[0];
  assert.equal(c.server, 'sglang');
  assert.equal(c.confidence, 'high');
  assert.ok(c.evidence.includes('command sglang serve'), c.evidence.join('; '));
  assert.equal(explained.explanation.workloads[0].inputs.find((i) => i.flag === 'model')?.value, 'Qwen/Qwen3-8B');
});

test('a container on the port a Service sends requests to serves too: it gets the preStop and --explain says so', () => {
  // Engine and HTTP front in one pod, the Service on the front's port (by name): no InferencePool in the input.
  const pod = {
    metadata: { labels: { app: 'tpu' } },
    spec: {
      containers: [
        { name: 'engine', image: 'example.com/engine:1', resources: { limits: { 'google.com/tpu': 8 } } },
        { name: 'front', image: 'example.com/front:1', ports: [{ name: 'http', containerPort: 8000 }] },
      ],
    },
  };
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'tpu' } };
  const spec = { replicas: 2, selector: { matchLabels: { app: 'tpu' } }, template: pod };
  const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'tpu' } };
  const servicePorts = { selector: { app: 'tpu' }, ports: [{ port: 80, targetPort: 'http' }] };
  // JSON is YAML: the two objects as flow mappings, one per document.
  const text = `${JSON.stringify({ ...deployment, spec })}\n---\n${JSON.stringify({ ...service, spec: servicePorts })}\n`;
  const paths = check(text)
    .findings.filter((f) => f.code === 'prestop-missing')
    .map((f) => f.path);
  assert.deepEqual(paths, ['spec.template.spec.containers[0].lifecycle', 'spec.template.spec.containers[1].lifecycle']);
  const explained = explainManifest(text, {}, profiles);
  assert.ok(explained.ok);
  const front = explained.explanation.workloads[0].templates[0].containers[1];
  assert.equal(front.role, 'serving');
  assert.deepEqual(front.evidence, ['listens on http, which Service/tpu targets']);
  // A Service that selects other pods does not count.
  const elsewhere = text.replace('"selector":{"app":"tpu"},"ports"', '"selector":{"app":"other"},"ports"');
  assert.equal(check(elsewhere).findings.filter((f) => f.code === 'prestop-missing').length, 1);
});

test('the manual drain-flag fix says set, not add, for a flag the manifest already writes', () => {
  // The tag names no release, so the flag's value is not rewritten: the fix says what to do by hand.
  const text = vllm({
    image: 'image: vllm/vllm-openai:latest',
    args: 'args: ["--model", "Qwen/Qwen3-32B", "--shutdown-timeout=40"]',
  });
  const f = only(check(text), 'drain-flag-too-short');
  assert.match(f.fix!.text, /On such a release, set --shutdown-timeout=75 in the vllm container's args/);
});

test('a document whose mapping has a mapping as a key prints nothing on stderr (no Node warning)', () => {
  const secret = 'apiVersion: v1\nkind: Secret\nmetadata: {name: hf}\nstringData:\n  {{HF_TOKEN}}: x\n';
  const r = spawnSync(process.execPath, [BIN, 'check', '-'], { input: `${vllm()}---\n${secret}`, encoding: 'utf8' });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  assert.equal(r.stderr, '');
});

test('bash -c runs its last simple command in place of itself: no shell-swallows-sigterm there; sh and other shapes still get it', () => {
  const script = (shell: string, text: string) =>
    vllm({ command: `command: ["${shell}", "-c", ${JSON.stringify(text)}]`, args: '' });
  const swallows = (shell: string, text: string) =>
    codes(check(script(shell, text))).includes('shell-swallows-sigterm');
  const serve = 'vllm serve Qwen/Qwen3-32B --shutdown-timeout=75';
  // bash's should_suppress_fork (builtins/evalstring.c): the last command, simple, no redirection, no trap.
  assert.equal(swallows('/bin/bash', serve), false);
  assert.equal(swallows('bash', `pip install x\n${serve}`), false);
  assert.equal(swallows('/bin/bash', `${serve} > /tmp/log 2>&1`), true);
  assert.equal(swallows('/bin/bash', `trap 'echo bye' TERM\n${serve}`), true);
  assert.equal(swallows('/bin/bash', `${serve}\necho done`), true);
  assert.equal(swallows('/bin/bash', `${serve} | tee /tmp/log`), true);
  // sh is dash on Debian and Ubuntu images, which forks, and bash on RHEL and UBI ones, which does not: the finding
  // stands as a warning where only the shell decides, with exec as the fix; an error where any shell forks.
  const severity = (shell: string, text: string) => only(check(script(shell, text)), 'shell-swallows-sigterm').severity;
  assert.equal(severity('/bin/sh', serve), 'warning');
  assert.equal(severity('sh', `pip install x\n${serve}`), 'warning');
  assert.equal(severity('/bin/sh', `${serve}\necho done`), 'error');
  assert.equal(severity('/bin/sh', `${serve} > /tmp/log 2>&1`), 'error');
  const f = only(check(script('/bin/sh', serve)), 'shell-swallows-sigterm');
  assert.equal(f.remedy, 'applied');
  assert.match(f.message, /Where \/bin\/sh is dash \(Debian and Ubuntu images\) it forks/);
  assert.match(fixed(script('/bin/sh', serve)), /"exec vllm serve Qwen\/Qwen3-32B --shutdown-timeout=75"/);
});

test('progress deadline: a warning on the grace as written, a note when only the grace fix would pass it', () => {
  // 4096 tokens × 100 ms × 1.2 → 492 s; drain 738 s; the fix's grace 35 + 738 + 15 = 788 s; step 788 + 600 = 1388 s.
  const long = { 'tpot-ms': '100' };
  const deadline = (grace: number) =>
    only(
      check(
        vllm({ grace: `terminationGracePeriodSeconds: ${grace}`, progressDeadline: 'progressDeadlineSeconds: 900' }),
        long,
      ),
      'progress-deadline-too-short',
    );
  // Grace 180 s as written: 180 + 600 = 780 ≤ 900, so only the fix's 788 s grace passes the deadline: a note.
  const after = deadline(180);
  assert.equal(after.severity, 'info');
  assert.match(
    after.message,
    /^If you raise terminationGracePeriodSeconds to 788s as the grace fix does, raise progressDeadlineSeconds with it: /,
  );
  // Grace 400 s as written: 400 + 600 = 1000 > 900 already: a warning.
  assert.equal(deadline(400).severity, 'warning');
});

test('--explain: the one container of a checked pod is serving, even when no server is recognised', () => {
  // No GPU and no known server, but an InferencePool selects the pods: checked, and its container serves.
  const text = docs(
    vllm({ image: 'image: example.com/mock-llm:1', command: 'command: ["/app/serve"]', resources: '', ports: '' }),
    pool(),
  );
  const explained = explainManifest(text, {}, profiles);
  assert.ok(explained.ok);
  assert.equal(explained.explanation.workloads[0].templates[0].containers[0].role, 'serving');
});

// A LeaderWorkerSet in the shape of GKE's multi-host vLLM samples: vLLM 0.8.5 (no --shutdown-timeout, so SIGTERM
// aborts in-flight requests), no preStop, both grace periods unset (30 s).
const OLD_LWS = `apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata:
  name: old
spec:
  replicas: 2
  leaderWorkerTemplate:
    size: 2
    leaderTemplate:
      metadata:
        labels: {app: old}
      spec:
        containers:
        - name: leader
          image: vllm/vllm-openai:v0.8.5
          args: ["--model", "x/y", "--port", "8080"]
          readinessProbe: {tcpSocket: {port: 8080}}
          resources: {limits: {nvidia.com/gpu: 8}}
    workerTemplate:
      spec:
        containers:
        - name: worker
          image: vllm/vllm-openai:v0.8.5
          resources: {limits: {nvidia.com/gpu: 8}}
`;

test('a vLLM release that cannot drain: grace is sized for the preStop and teardown, and the workers get a note', () => {
  // The gateway given, so that the removal p99 the preStop rests on is not an assumption.
  const report = check(OLD_LWS, { gateway: 'gke' });
  // 35 s preStop + 0 s drain + 15 s teardown = 50 s; the 30 s default ends before the 35 s sleep does.
  const grace = only(report, 'grace-too-short');
  assert.equal(grace.severity, 'error');
  assert.match(grace.message, /before a 35s preStop sleep ends/);
  assert.match(
    grace.message,
    /vLLM does not drain at 0\.8\.5, so the grace period needs the sleep and 15s teardown: 50s\./,
  );
  assert.doesNotMatch(grace.message, /longest request/);
  // The workers' 30 s equals the leader's grace as written: only the leader's fix (50 s) would outlast them.
  const workers = only(report, 'lws-worker-grace-shorter');
  assert.equal(workers.severity, 'info');
  assert.match(
    workers.message,
    /^If you raise the leader’s terminationGracePeriodSeconds to 50s as the grace fix does, /,
  );
  // The worker's preStop covers the leader's sleep and a drain of 0 s.
  assert.match(only(report, 'lws-worker-prestop-missing').fix!.text, /sleep 35 on the worker/);
  assert.ok(!codes(report).includes('drain-aborts-in-flight'), codes(report).join(', '));
  // The fixes converge: the fixed set has nothing left to fix.
  assert.deepEqual(
    check(fixed(OLD_LWS, { gateway: 'gke' }), { gateway: 'gke' })
      .findings.filter((f) => f.remedy === 'applied')
      .map((f) => f.code),
    [],
  );
});

/** A llama.cpp server Deployment with a 35 s preStop sleep: its grace line (indented, or '') and readiness probe. */
const llamaDeployment = (grace: string, readiness = '{httpGet: {path: /health, port: 8080}}') => `apiVersion: apps/v1
kind: Deployment
metadata: {name: llama}
spec:
  replicas: 2
  selector: {matchLabels: {app: llama}}
  template:
    metadata: {labels: {app: llama}}
    spec:
${grace}      containers:
      - name: server
        image: ghcr.io/ggml-org/llama.cpp:server-cuda-b6000
        args: ["--port", "8080", "-m", "/models/m.gguf"]
        readinessProbe: ${readiness}
        lifecycle: {preStop: {sleep: {seconds: 35}}}
        resources: {limits: {nvidia.com/gpu: 1}}
`;

test('a server that does not drain (llama.cpp): a grace period past the preStop sleep is judged on the teardown only', () => {
  const llama = (grace: string) => llamaDeployment(grace);
  // 40 s: 5 s after the 35 s sleep, short of the 15 s teardown (50 s): a warning about the teardown, not the request.
  const short = only(check(llama('      terminationGracePeriodSeconds: 40\n')), 'grace-too-short');
  assert.equal(short.severity, 'warning');
  assert.equal(
    short.message,
    'SIGKILL comes 40s after deletion, but the 35s preStop sleep and 15s teardown need 50s (llama.cpp server does not drain): the teardown is cut short.',
  );
  assert.ok(!codes(check(llama('      terminationGracePeriodSeconds: 50\n'))).includes('grace-too-short'));
});

// KServe's LLMInferenceService in the shape of its llm-d samples: the object names an LLMInferenceServiceConfig in
// baseRefs, and the config holds the container's image, command and probes.
const LLMISVC = (config: boolean) => `apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceService
metadata:
  name: chat
spec:
  model: {uri: "hf://x/y", name: x/y}
  replicas: 2
  baseRefs:
  - name: chat-base
  template:
    containers:
    - name: main
      resources: {limits: {nvidia.com/gpu: 1}}
${
  config
    ? `---
apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceServiceConfig
metadata:
  name: chat-base
spec:
  template:
    terminationGracePeriodSeconds: 30
    containers:
    - name: main
      image: vllm/vllm-openai:v0.18.1
      command: [vllm, serve, /mnt/models, --port, "8000"]
      readinessProbe: {httpGet: {path: /v1/models, port: 8000}, periodSeconds: 5, failureThreshold: 3}
`
    : ''
}`;

test('an LLMInferenceService is read with the LLMInferenceServiceConfig its baseRefs name, and its fixes say where', () => {
  const report = check(LLMISVC(true));
  // The config's readiness probe and vLLM command are the pod's: no readiness-missing, and the flag is checked.
  assert.ok(!codes(report).includes('readiness-missing'), codes(report).join(', '));
  assert.ok(!codes(report).includes('unknown-kind'), codes(report).join(', '));
  // The config sets the grace period (30 s): a finding on it stands. No layer in the input sets a preStop hook, which
  // KServe's own well-known config may (v0.19.0's does): a note.
  assert.equal(only(check(LLMISVC(true), { gateway: 'gke' }), 'grace-too-short').severity, 'error');
  const preStop = only(report, 'prestop-missing');
  assert.equal(preStop.severity, 'info');
  assert.equal(preStop.path, 'spec.template.containers[0].lifecycle');
  // An edit to the object alone could meet what the config sets: every fix is a manual one naming both.
  for (const f of report.findings) assert.notEqual(f.remedy, 'applied', `${f.code} is applied`);
  assert.match(
    preStop.fix!.text,
    /^Manual: KServe makes this pod from its well-known config, then LLMInferenceServiceConfig\/chat-base, then LLMInferenceService\/chat's spec, which wins, .*then check the rendered pod/,
  );
  assert.equal(fixed(LLMISVC(true)), LLMISVC(true));
  const explained = explainManifest(LLMISVC(true), {}, profiles);
  assert.ok(explained.ok);
  assert.deepEqual(explained.explanation.workloads[0].bases, {
    merged: ['LLMInferenceServiceConfig/chat-base'],
    missing: [],
  });
  assert.deepEqual(explained.explanation.ignored, []);
});

test('an LLMInferenceService whose baseRefs config is not in the input: its findings are notes naming the config', () => {
  const report = check(LLMISVC(false));
  assert.deepEqual(
    report.findings.filter((f) => f.object === 'LLMInferenceService/chat' && f.severity !== 'info').map((f) => f.code),
    [],
  );
  const preStop = only(report, 'prestop-missing');
  assert.match(
    preStop.message,
    /LLMInferenceServiceConfig\/chat-base, which baseRefs names, is not in the input and may set this/,
  );
});

test('a finding records each input it rests on: read, given or assumed, with the settings', () => {
  // The test settings give max-output-tokens and tpot-ms; the gateway is neither given nor named by the manifest, and
  // without a preStop hook the sleep the grace period must hold is the plan's, from the removal p99.
  const f = only(check(vllm({ grace: 'terminationGracePeriodSeconds: 60', lifecycle: '' })), 'grace-too-short');
  assert.deepEqual(f.rests, [
    { basis: 'longest request', source: 'given', settings: ['max-output-tokens', 'tpot-ms'] },
    { basis: 'removal p99', source: 'assumed', settings: ['gateway'] },
  ]);
  // With the manifest's own 35 s sleep, 60 s leaves 25 s, short of the 50 s longest request, whatever the removal p99.
  const stated = only(check(vllm({ grace: 'terminationGracePeriodSeconds: 60' })), 'grace-too-short');
  assert.equal(stated.severity, 'error');
  assert.deepEqual(stated.rests, [
    { basis: 'longest request', source: 'given', settings: ['max-output-tokens', 'tpot-ms'] },
  ]);
  // A rule that rests on nothing the reader sets records nothing.
  assert.equal(only(check(vllm({ lifecycle: '' })), 'prestop-missing').rests, undefined);
});

test('progress deadline on a model load nobody stated: a note naming --startup-seconds; a startup probe states one', () => {
  // Grace 125 s as written (the test deployment) + the default 600 s load = 725 s, past a 700 s deadline.
  const settings = { ...CHECK_TEST_SETTINGS } as Record<string, string>;
  delete settings['startup-seconds'];
  const run = (text: string) => {
    const result = checkManifest(text, settings, profiles);
    assert.ok(result.ok);
    return only(result.report, 'progress-deadline-too-short');
  };
  const unstated = run(vllm({ progressDeadline: 'progressDeadlineSeconds: 700', startup: '' }));
  assert.equal(unstated.severity, 'info');
  assert.match(unstated.message, /This rests on an assumed 600s model load .*give --startup-seconds/);
  // The startup probe bounds the load (60 checks × 10 s): the finding stands as a warning.
  assert.equal(run(vllm({ progressDeadline: 'progressDeadlineSeconds: 700' })).severity, 'warning');
});

test('a probe to add by hand for a server on an unknown port takes the PORT its env sets, and says so', () => {
  // The shape of Hugging Face's GKE TGI samples: a vendor image, no ports, no args; the port comes from env PORT.
  const text = `apiVersion: apps/v1
kind: Deployment
metadata: {name: tgi}
spec:
  replicas: 2
  selector: {matchLabels: {app: tgi}}
  template:
    metadata: {labels: {app: tgi}}
    spec:
      containers:
      - name: tgi
        image: registry.example/vendor/text-generation-inference:2.2
        env:
        - {name: MODEL_ID, value: /data/model}
        - {name: PORT, value: "8080"}
        resources: {limits: {nvidia.com/gpu: 1}}
`;
  const f = only(check(text), 'readiness-missing');
  assert.equal(f.remedy, 'manual');
  assert.match(f.fix!.text, /its env sets PORT=8080, which the probe below uses: check that the server listens on it/);
  assert.match(f.fix!.text, /port: 8080/);
  assert.doesNotMatch(f.fix!.text, /port: 8000/);
});

test('a port-only readiness probe: a warning on llama.cpp, which listens before its model loads; none on vLLM', () => {
  // llama.cpp's README: /health answers 503 "Loading model" while the model loads, so the port is open before then.
  const llama = llamaDeployment('      terminationGracePeriodSeconds: 50\n', '{tcpSocket: {port: 8080}}');
  const f = only(check(llama), 'readiness-path-differs');
  assert.equal(f.severity, 'warning');
  assert.equal(f.path, 'spec.template.spec.containers[0].readinessProbe.tcpSocket');
  assert.match(
    f.message,
    /llama\.cpp server does before its model has loaded \(\/health answers an error until then\)/,
  );
  assert.equal(f.remedy, 'manual');
  // vLLM serves no route before the engine is up (its profile): a port check there is not flagged.
  const vllmTcp = vllm().replace(/readinessProbe:\n(?: {12}.*\n)+/, 'readinessProbe: {tcpSocket: {port: http}}\n');
  assert.match(vllmTcp, /readinessProbe: \{tcpSocket/);
  assert.ok(!codes(check(vllmTcp)).includes('readiness-path-differs'), codes(check(vllmTcp)).join(', '));
});
