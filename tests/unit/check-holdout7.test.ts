// What a seventh hold-out run (10 public manifests: homelab llama.cpp and llama-swap, AIBrix samples, KubeRay, Dynamo,
// scored against an oracle written before the run) found wrong; each case is written by hand in the shape that
// produced it, with what a careful reviewer expects. Numbers are worked out from the test settings: 10 ms per token ×
// 4096 tokens × 1.2 → a 50 s longest request, 75 s drain, 35 s preStop, 125 s grace (tests/support/check.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkManifest } from '../../src/check/check.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { check, fixed, only, profiles, vllm } from '../support/check.ts';

/** Check with the test settings but without the model load time (and spare GPUs unless given): as a reader runs it. */
function unstated(text: string, settings: Record<string, string> = {}) {
  const result = checkManifest(
    text,
    { 'tpot-ms': '10', 'max-output-tokens': '4096', 'kubernetes-version': '1.34', ...settings },
    profiles,
  );
  assert.ok(result.ok);
  return result.report;
}

const startup = (failureThreshold: number) =>
  `startupProbe:\n            httpGet: {path: /v1/models, port: http}\n            periodSeconds: 10\n            failureThreshold: ${failureThreshold}`;

test('a startup probe that allows 1800 s bounds the model load: the deadline finding says so, not the 600 s default', () => {
  // 125 s grace + 10 s × 180 = 1800 s window: a step can take up to 1925 s, past the manifest's 725 s.
  const text = vllm({ startup: startup(180) });
  const f = only(unstated(text, { 'spare-gpus': '0' }), 'progress-deadline-too-short');
  assert.equal(f.severity, 'warning');
  assert.equal(
    f.message,
    'A rollout step can take up to 1925s (125s grace + the startup probe\u2019s 1800s window for the model load), longer than progressDeadlineSeconds (725s): the Deployment reports ProgressDeadlineExceeded and kubectl rollout status fails while the rollout is still going fine.',
  );
  assert.equal(
    f.fix!.text,
    'progressDeadlineSeconds: 1925 # 125s grace + the startup probe\u2019s 1800s window for the model load',
  );
  // A given load time wins over the probe's window: 125 + 600 = 725 s is met.
  assert.ok(!check(text).findings.some((g) => g.code === 'progress-deadline-too-short'));
  // A window shorter than the default load says nothing of it: the default stands, as an assumption (a note).
  const short = unstated(vllm({ startup: startup(15), progressDeadline: 'progressDeadlineSeconds: 700' }), {
    'spare-gpus': '0',
  });
  const note = only(short, 'progress-deadline-too-short');
  assert.equal(note.severity, 'info');
  assert.match(
    note.message,
    /can take 725s \(125s grace \+ 600s model load\).*This rests on an assumed 600s model load/,
  );
});

test('a single replica replaced in place: the outage warning names the spare GPUs and load time it assumed', () => {
  const one = vllm({ replicas: 'replicas: 1' });
  const assumed = only(unstated(one), 'single-replica-outage');
  assert.equal(assumed.severity, 'warning');
  assert.match(
    assumed.message,
    / This rests on an assumed spare GPUs and model load time \(defaults the manifest does not state\): give --spare-gpus and --startup-seconds \(your real values\) to judge it\.$/,
  );
  assert.doesNotMatch(only(check(one), 'single-replica-outage').message, /rests on an assumed/);
});

const withSidecar = (ports: string) =>
  `${vllm({ lifecycle: '' })}        - name: adapters\n          image: example.com/team/adapter-agent:1\n          ports:\n            - containerPort: 8080\n`
  + `---\napiVersion: v1\nkind: Service\nmetadata:\n  name: m\nspec:\n  selector:\n    app: m\n  ports:\n${ports}`;

test('a sidecar on a second port of a Service that reaches the server directly: its missing preStop is a warning', () => {
  const beside = withSidecar('    - name: serve\n      port: 8000\n    - name: admin\n      port: 8080\n');
  const findings = check(beside).findings.filter((f) => f.code === 'prestop-missing');
  assert.deepEqual(
    findings.map((f) => [f.path, f.severity]),
    [
      ['spec.template.spec.containers[0].lifecycle', 'error'],
      ['spec.template.spec.containers[1].lifecycle', 'warning'],
    ],
  );
  assert.match(
    findings[1].message,
    /The same Service reaches the vllm container directly on 8000, so this may be a side port/,
  );
  // The Service reaches the pod only through the sidecar: it is in front of the server, an error.
  const front = check(withSidecar('    - port: 80\n      targetPort: 8080\n')).findings.filter(
    (f) => f.code === 'prestop-missing',
  );
  assert.deepEqual(
    front.map((f) => f.severity),
    ['error', 'error'],
  );
  // The warning's fix is applied as the error's is: after them neither container lacks the hook.
  assert.deepEqual(
    check(fixed(beside)).findings.filter((f) => f.code === 'prestop-missing'),
    [],
  );
});

// Hold-out 8 (OPEA's rendered Helm output, blind at 5a8fa2c): TGI 2.2 and 2.4 got an error that rested on the
// default longest request, and OPEA's CPU build of vLLM (opea/vllm) was skipped.

/** A TGI Deployment as OPEA renders it: the image's entrypoint, settings from a ConfigMap, tcpSocket probes. */
const opeaTgi = (image: string) =>
  'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: tgi\nspec:\n  selector:\n    matchLabels:\n      app: tgi\n'
  + '  template:\n    metadata:\n      labels:\n        app: tgi\n    spec:\n      containers:\n        - name: tgi\n'
  + `          image: ${image}\n          ports:\n            - name: http\n              containerPort: 2080\n`
  + '          readinessProbe:\n            tcpSocket: {port: http}\n            periodSeconds: 5\n'
  + '          resources:\n            limits:\n              nvidia.com/gpu: 1\n';

test('TGI before 3.2.2 with the longest request unstated: its fixed 90 s wait is a warning naming the inputs', () => {
  const image = 'ghcr.io/huggingface/text-generation-inference:2.2.0';
  // No tokens or time per token given: the default longest request is an assumption.
  const result = checkManifest(opeaTgi(image), { 'kubernetes-version': '1.34' }, profiles);
  assert.ok(result.ok);
  const assumed = only(result.report, 'drain-flag-too-old');
  assert.equal(assumed.severity, 'warning');
  assert.match(assumed.message, /a fixed 90s, less than the \d+s longest request: requests still running then are cut/);
  assert.match(assumed.message, /This rests on an assumed longest request .* --max-output-tokens and --tpot-ms/);
  assert.deepEqual(assumed.assumed, ['max-output-tokens', 'tpot-ms']);
  // Given: 8192 tokens × 10 ms × 1.2 = 98.3 → 99 s > 90 s, an error; 4096 → 50 s ≤ 90 s, a note.
  assert.equal(only(check(opeaTgi(image), { 'max-output-tokens': '8192' }), 'drain-flag-too-old').severity, 'error');
  assert.equal(only(check(opeaTgi(image)), 'drain-flag-too-old').severity, 'info');
});

test("OPEA's CPU build of vLLM (opea/vllm, args only) is vLLM's image: checked, not skipped; its tag names no release", () => {
  const text = vllm({
    image: 'image: opea/vllm:latest',
    command: '',
    args: 'args: ["--model", "Intel/neural-chat-7b-v3-3", "--port", "8000"]',
    resources: '',
  });
  const report = check(text);
  assert.ok(!report.findings.some((f) => f.code === 'workload-skipped'));
  const aborts = only(report, 'drain-aborts-in-flight');
  assert.equal(aborts.severity, 'error');
  // The release is unknown, so the flag is advice by hand, not an edit.
  assert.equal(aborts.remedy, 'manual');
});

// Hold-out 9 (LWS, llmaz, NVIDIA NIM operator and KubeRay samples, blind at a2868de): a GPU pod that only runs
// `sleep infinity` (a benchmark client on Triton's SDK image) got a server's errors; an operator CR that names an
// image and GPUs but no containers (NIMService) and a CR whose containers sit eight levels deep (DisaggregatedSet)
// got only "ignored".

test('a GPU pod whose one container only runs sleep infinity, with no port and no pool, serves nothing: skipped', () => {
  const client =
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: perf\nspec:\n  selector:\n    matchLabels:\n      app: perf\n'
    + '  template:\n    metadata:\n      labels:\n        app: perf\n    spec:\n      containers:\n        - name: client\n'
    + '          image: nvcr.io/nvidia/tritonserver:24.12-py3-sdk\n          command: [sleep, infinity]\n'
    + '          resources:\n            limits:\n              nvidia.com/gpu: 1\n';
  const report = check(client);
  assert.deepEqual(
    report.findings.map((f) => f.code),
    ['workload-skipped'],
  );
  assert.match(report.findings[0].message, /^Its container only runs `sleep infinity` and declares no port/);
  // A declared port says something listens: it is checked.
  const listening = client.replace(
    'command: [sleep, infinity]\n',
    'command: [sleep, infinity]\n          ports: [{containerPort: 8000}]\n',
  );
  assert.ok(check(listening).findings.some((f) => f.code === 'prestop-missing'));
});

test('an operator CR with an image and GPUs but no containers, or with containers deep in roles, is named, not ignored', () => {
  const operator = (limits: string) =>
    `apiVersion: apps.example.com/v1\nkind: ModelService\nmetadata:\n  name: chat\nspec:\n  image:\n    repository: registry.example.com/llm/chat\n    tag: '1.0'\n  replicas: 1\n  resources:\n    limits:\n${limits}`;
  const named = only(check(operator('      nvidia.com/gpu: 2\n')), 'serving-kind-unread');
  assert.equal(named.severity, 'warning');
  assert.match(named.message, /^ModelService\/chat holds an image and accelerators for it \(at spec\.image\)/);
  // Without accelerators it is any operator's CR: a note that it was ignored.
  const plain = check(operator('      cpu: 2\n'));
  assert.ok(!plain.findings.some((f) => f.code === 'serving-kind-unread'));
  assert.ok(plain.findings.some((f) => f.code === 'unknown-kind'));
  const roles =
    'apiVersion: sets.example.io/v1\nkind: RoleSet\nmetadata:\n  name: pd\nspec:\n  roles:\n    - name: decode\n      spec:\n'
    + '        template:\n          leader:\n            pod:\n              spec:\n                containers:\n'
    + '                  - name: engine\n                    image: registry.example.com/engine:2\n';
  assert.match(
    only(check(roles), 'serving-kind-unread').message,
    /holds containers \(at spec\.roles\[0\]\.spec\.template\.leader\.pod\.spec\.containers\)/,
  );
});

// Hold-out 10 (GKE samples no hold-out had used, blind at ea9ea6d: 3 files with a false alarm, no miss): a kustomize
// patch (a Deployment without selector or image) got a server's errors, as did a TPU Job converting a checkpoint,
// and an envsubst template's `${REPLICAS:-1}` was an error.

test('a kustomize patch (a container without image) is not a whole object: skipped with the build command', () => {
  const patch =
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: server\nspec:\n  template:\n    spec:\n      containers:\n'
    + '      - name: inference-server\n        args: [--model=$(MODEL_ID), --kv-cache-dtype=fp8_e5m2]\n'
    + '        resources:\n          limits:\n            nvidia.com/gpu: 1\n';
  const report = check(patch);
  assert.deepEqual(
    report.findings.map((f) => f.code),
    ['workload-skipped'],
  );
  assert.match(
    report.findings[0].message,
    /^Deployment\/server is not a whole object \(its inference-server container has no image\).*kubectl kustomize DIR \| hitless check -\.$/,
  );
  // The same with an image is a whole Deployment (a missing selector alone is not taken for a patch): checked.
  const whole = check(patch.replace('args:', 'image: vllm/vllm-openai:v0.18.1\n        args:'));
  assert.ok(whole.findings.some((f) => f.code === 'prestop-missing'));
});

test('a Job with accelerators but no server, port or pool is a batch task; a Job that runs vLLM is checked', () => {
  const job = (container: string) =>
    'apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: convert\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n'
    + `      containers:\n      - name: work\n${container}        resources:\n          limits:\n            google.com/tpu: 8\n`;
  const batch = check(
    job('        image: example.com/tools/checkpoint-converter:0.2\n        args: [-m=google/gemma-7b-it]\n'),
  );
  assert.match(
    only(batch, 'workload-skipped').message,
    /^Job\/convert runs no server the checker knows, declares no port/,
  );
  assert.ok(!batch.findings.some((f) => f.severity === 'error'));
  const serving = check(job('        image: vllm/vllm-openai:v0.18.1\n        args: [--model, m]\n'));
  assert.ok(serving.findings.some((f) => f.code === 'prestop-missing'));
});

test('a template placeholder in a whole-number field is a note to check the rendered output; a wrong value stays an error', () => {
  const templated = vllm({ replicas: 'replicas: ${REPLICAS:-1}' });
  const note = only(check(templated), 'value-rejected');
  assert.equal(note.severity, 'info');
  assert.match(
    note.message,
    /^replicas is a template placeholder \(\$\{REPLICAS:-1\}\), so this file is rendered before it is applied/,
  );
  assert.equal(only(check(vllm({ replicas: 'replicas: 2.5' })), 'value-rejected').severity, 'error');
});

// Hold-out 11 (Hugging Face DLC, AWS, KAITO and NIM samples, blind at 9fe3477: 2 files with a false alarm, no miss):
// Triton's SDK image (`<yy.mm>-py3-sdk`: clients, perf_analyzer, genai-perf; no server) was taken for the server.

test("Triton's -py3-sdk image runs clients, not the server: a benchmark on it is not checked, and the generator refuses it", () => {
  const bench =
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: bench\nspec:\n  selector:\n    matchLabels:\n      app: bench\n'
    + '  template:\n    metadata:\n      labels:\n        app: bench\n    spec:\n      containers:\n      - name: perf\n'
    + '        image: nvcr.io/nvidia/tritonserver:24.06-py3-sdk\n        command: [/bin/sh, -c]\n'
    + '        args: ["genai-perf profile -m m --url server:8000 --streaming"]\n';
  assert.deepEqual(
    check(bench).findings.map((f) => f.code),
    ['workload-skipped'],
  );
  // The server image of the same release is Triton's: checked.
  const server = bench
    .replace('24.06-py3-sdk', '24.06-py3')
    .replace('command: [/bin/sh, -c]\n', 'command: [tritonserver]\n')
    .replace('args: ["genai-perf profile -m m --url server:8000 --streaming"]', 'args: [--model-repository=/models]');
  assert.ok(check(server).findings.some((f) => f.code === 'prestop-missing'));
  const refused = resolveInputs(
    { 'model-server': 'triton', image: 'nvcr.io/nvidia/tritonserver:24.06-py3-sdk' },
    profiles,
  );
  assert.deepEqual(
    refused.errors.map((e) => e.flag),
    ['image'],
  );
  assert.match(refused.errors[0].message, /is NVIDIA Triton's client SDK, which runs no server/);
});

test('a single replica that holds no accelerator surges as Kubernetes does: no outage warning about spare GPUs', () => {
  const cpu = vllm({ replicas: 'replicas: 1', resources: '' });
  assert.ok(!check(cpu).findings.some((f) => f.code === 'single-replica-outage'));
  assert.ok(check(vllm({ replicas: 'replicas: 1' })).findings.some((f) => f.code === 'single-replica-outage'));
});

test('an LWS whose workers hold the TPUs and whose leader only proxies (Pathways) is checked, gated by its own probes', () => {
  // The shape of GKE's JetStream Pathways sample: a CPU leader (proxy, then the JetStream container with a readiness
  // probe, then the HTTP front on 8000) and TPU workers.
  const lws =
    'apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata:\n  name: pw\nspec:\n  replicas: 1\n'
    + '  leaderWorkerTemplate:\n    size: 2\n    leaderTemplate:\n      spec:\n        containers:\n'
    + '        - name: proxy\n          image: example.com/pathways/proxy:1\n          ports: [{containerPort: 38681}]\n'
    + '        - name: engine\n          image: example.com/jetstream/engine:1\n          ports: [{containerPort: 9000}]\n'
    + '          readinessProbe:\n            tcpSocket: {port: 9000}\n'
    + '        - name: http\n          image: example.com/jetstream/http:1\n          ports: [{containerPort: 8000}]\n'
    + '    workerTemplate:\n      spec:\n        containers:\n        - name: worker\n          image: example.com/pathways/server:1\n'
    + '          resources:\n            limits:\n              google.com/tpu: 4\n';
  const report = check(lws);
  assert.ok(!report.findings.some((f) => f.code === 'workload-skipped'));
  assert.ok(report.findings.some((f) => f.code === 'prestop-missing'));
  // The engine's readiness probe gates the leader pod: no readiness-missing on the proxy the checker looked at.
  assert.ok(!report.findings.some((f) => f.code === 'readiness-missing'));
});

test('a grace period left to a template placeholder: no note speaks of a grace fix or of a 30 s grace period', () => {
  // 10 ms × 60,000 tokens × 1.2 = 720 s longest request, 1080 s drain; 35 s preStop + 1080 s + 15 s teardown = 1130 s.
  const text = vllm({
    grace: 'terminationGracePeriodSeconds: ${GRACE}',
    args: 'args: ["--model", "Qwen/Qwen3-32B", "--port", "8000"]',
  });
  const report = check(text, { 'max-output-tokens': '60000' });
  const note = only(report, 'grace-exceeds-autoscaler');
  assert.equal(note.severity, 'info');
  assert.match(
    note.message,
    /^If terminationGracePeriodSeconds, which the checker could not read, is 1130s as the drain needs: the 1130s grace period is longer than the 600s cluster-autoscaler/,
  );
  assert.match(
    only(report, 'drain-aborts-in-flight').message,
    /; the preStop sleep and the grace period do not help\.$/,
  );
  // A grace period the manifest states keeps its number.
  assert.match(
    only(check(vllm({ args: 'args: ["--model", "Qwen/Qwen3-32B"]' })), 'drain-aborts-in-flight').message,
    /; the preStop sleep and the 125s grace period do not help\.$/,
  );
});

test('a warning that rests on a default says so and names the inputs; given, it does not', () => {
  // Defaults: 4096 tokens × 100 ms × 1.2 = 492 s longest request, × 1.5 = 738 s drain budget; 600 s covers the one,
  // not the other.
  const text = vllm({ args: 'args: ["--model", "Qwen/Qwen3-32B", "--shutdown-timeout=600"]' });
  const result = checkManifest(
    text,
    { 'kubernetes-version': '1.34', 'spare-gpus': '0', 'startup-seconds': '600' },
    profiles,
  );
  assert.ok(result.ok);
  const short = only(result.report, 'drain-flag-too-short');
  assert.equal(short.severity, 'warning');
  assert.equal(
    short.message,
    'vLLM drains for at most 600s (--shutdown-timeout=600): that covers the 492s longest request but not the 738s drain budget (492s longest request × 1.5 headroom), so a request slower than the estimate is cut. This rests on an assumed longest request (a default the manifest does not state): give --max-output-tokens and --tpot-ms (your real values) to judge it.',
  );
  // Given: 10 ms × 4096 × 1.2 = 50 s, 75 s budget, covered by 600 s: no finding at all.
  assert.ok(!check(text).findings.some((f) => f.code === 'drain-flag-too-short'));
  // Given at 100 ms: the same 738 s budget, now a plain warning.
  assert.doesNotMatch(only(check(text, { 'tpot-ms': '100' }), 'drain-flag-too-short').message, /rests on an assumed/);
});
