// What hold-outs 17 and 18 (ten public manifests each, scored against an oracle written before the run) found wrong; each case is
// written by hand in the shape that produced it, with what a careful reviewer expects.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkManifest, explainManifest } from '../../src/check/check.ts';
import { explanationText } from '../../src/check/explain.ts';
import { fixManifest } from '../../src/check/fix/fix.ts';
import { fixed, profiles } from '../support/check.ts';

const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'hitless-h17-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** An LLMInferenceService with its own readiness probe and no grace period, hook or drain flag (no config in the input). */
const LLMISVC = `apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceService
metadata:
  name: coder
spec:
  model:
    uri: hf://Qwen/Qwen3-8B
  replicas: 1
  template:
    containers:
      - name: main
        resources:
          limits: {nvidia.com/gpu: "1"}
        readinessProbe:
          httpGet: {path: /health, port: 8000}
          periodSeconds: 15
`;

test('a finding KServe’s config may answer is a note, not also a warning that would be an error on assumed inputs', () => {
  // No inputs given: the grace period's error rests on the assumed longest request and removal p99, and KServe's
  // well-known config (not in the input) may set the grace period. It is a note, so it counts as no assumed error.
  const result = checkManifest(LLMISVC, {}, profiles);
  assert.ok(result.ok);
  const grace = result.report.findings.find((f) => f.code === 'grace-too-short');
  assert.equal(grace?.severity, 'info');
  assert.equal(grace?.assumed, undefined);
  assert.doesNotMatch(grace?.message ?? '', /so it is a warning until/);
  assert.match(grace?.message ?? '', /may set this/);
  assert.ok(result.report.findings.every((f) => f.severity === 'info' || f.assumed === undefined));

  const file = join(tmp, 'llmisvc.yaml');
  writeFileSync(file, LLMISVC);
  const run = spawnSync(process.execPath, [BIN, 'check', file, '--no-config', '--strict'], { encoding: 'utf8' });
  // Notes only: --strict has nothing to fail on, and the headline names no assumed warning.
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /: \d+ notes \(1 model-server workload checked\)\n/);
  assert.doesNotMatch(run.stdout, /Assumed:/);
});

/** A LeaderWorkerSet running vLLM on its leader, with a worker template that has no preStop hook. */
const lws = (size: string) => `apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata:
  name: vllm
spec:
  replicas: 2
  leaderWorkerTemplate:
${size}    leaderTemplate:
      spec:
        terminationGracePeriodSeconds: 800
        containers:
          - name: leader
            image: vllm/vllm-openai:v0.23.0
            command: ["vllm", "serve", "m", "--shutdown-timeout", "738"]
            lifecycle: {preStop: {sleep: {seconds: 35}}}
            resources: {limits: {nvidia.com/gpu: 1}}
    workerTemplate:
      spec:
        containers:
          - name: worker
            image: vllm/vllm-openai:v0.23.0
            command: ["ray", "start", "--block", "--address=$(LWS_LEADER_ADDRESS):6379"]
            resources: {limits: {nvidia.com/gpu: 1}}
`;

test('a LeaderWorkerSet of size 1 (or unset, its default) makes no worker pod: its worker template is not checked', () => {
  for (const size of ['    size: 1\n', '']) {
    const report = checkManifest(lws(size), {}, profiles);
    assert.ok(report.ok);
    const found = report.report.findings.map((f) => f.code);
    assert.ok(!found.includes('lws-worker-prestop-missing'), `${JSON.stringify(size)}: ${found.join(', ')}`);
    assert.ok(
      report.report.findings.every((f) => !f.path.includes('workerTemplate')),
      JSON.stringify(size),
    );
    const explained = explainManifest(lws(size), {}, profiles);
    assert.ok(explained.ok);
    const text = explanationText(explained.explanation);
    assert.match(
      text,
      /\n {2}worker template spec\.leaderWorkerTemplate\.workerTemplate: makes no pod \(a size of 1, the default, is the leader alone\), so it is not checked\n/,
    );
    assert.doesNotMatch(text, /\n {2}worker template spec\.leaderWorkerTemplate\.workerTemplate\n/);
  }
  // Two pods a group, or a size only the rendering decides: the workers run, and their missing hook is found.
  for (const size of ['    size: 2\n', '    size: "${LWS_SIZE}"\n']) {
    const report = checkManifest(lws(size), {}, profiles);
    assert.ok(report.ok);
    assert.ok(
      report.report.findings.some((f) => f.code === 'lws-worker-prestop-missing'),
      report.report.findings.map((f) => f.code).join(', '),
    );
  }
});

/** A Deployment an envsubst step renders: its image, replicas and GPU count are placeholders; its hook is not. */
const ENVSUBST = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  replicas: \${VLLM_REPLICAS}
  selector:
    matchLabels: {app: vllm}
  template:
    metadata:
      labels: {app: vllm}
    spec:
      containers:
        - name: vllm
          image: \${VLLM_IMAGE}
          ports: [{containerPort: 8000}]
          lifecycle:
            preStop:
              exec: {command: ["sh", "-c", "sleep 5"]}
          resources:
            limits: {nvidia.com/gpu: "\${VLLM_GPU_COUNT}"}
`;

test('an accelerator count a template fills in still holds accelerators: the pod is checked, the count stays assumed', () => {
  const result = checkManifest(ENVSUBST, {}, profiles);
  assert.ok(result.ok);
  const found = result.report.findings;
  assert.ok(!found.some((f) => f.code === 'workload-skipped'), found.map((f) => f.code).join(', '));
  assert.equal(result.report.workloads, 1);
  // The 5 s hook ends before the assumed 30 s removal p99: a warning that names the assumption.
  const short = found.find((f) => f.code === 'prestop-too-short');
  assert.equal(short?.severity, 'warning');
  assert.match(short?.message ?? '', /The preStop sleep ends 5s after deletion/);
  const gpus = result.report.found.find((f) => f.flag === 'gpus-per-replica');
  assert.equal(gpus, undefined, 'the GPU count is not read from a placeholder');
  const surge = found.find((f) => f.code === 'surge-without-spare-gpus');
  assert.match(surge?.message ?? '', /default 25% of the replicas, rounded up: at least 1\)/);
  const explained = explainManifest(ENVSUBST, {}, profiles);
  assert.ok(explained.ok);
  const text = explanationText(explained.explanation);
  assert.match(text, /: replicas "\$\{VLLM_REPLICAS\}" not read \(a count a template fills in\?\); checked with/);
  assert.match(text, /\n {6}evidence: requests GPUs \(a count of "\$\{VLLM_GPU_COUNT\}", not read\)\n/);
  // A count of "0" or an empty one is no accelerator: nothing to check on a CPU pod that names no server.
  for (const none of ['"0"', '""']) {
    const cpu = checkManifest(ENVSUBST.replace('"${VLLM_GPU_COUNT}"', none), {}, profiles);
    assert.ok(cpu.ok);
    assert.equal(cpu.report.workloads, 0, none);
  }
});

test('a patch over a file with a document refused unread says so on stderr and atop the kustomization', () => {
  const dir = mkdtempSync(join(tmp, 'refused-'));
  // A Deployment the checker fixes, then a Service whose flow sequence is never closed (not valid YAML).
  const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: m
spec:
  replicas: 2
  selector:
    matchLabels: {app: m}
  template:
    metadata:
      labels: {app: m}
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.23.0
          command: ["vllm", "serve", "m"]
          resources: {limits: {nvidia.com/gpu: 1}}
`;
  const service = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: m\nspec:\n  ports: [{port: 8000}\n';
  writeFileSync(join(dir, 'app.yaml'), `${deployment}---\n${service}`);
  const r = spawnSync(
    process.execPath,
    [BIN, 'check', 'app.yaml', '--no-config', '--format', 'patch', '--out-dir', '.'],
    {
      cwd: dir,
      encoding: 'utf8',
    },
  );
  assert.equal(r.status, 1, r.stderr);
  // 17 lines of the Deployment, the '---' on 18, the Service on 19 to 24: the parser finds the `]` missing at the end,
  // line 25, column 1.
  const said =
    /document 2 of app\.yaml \(line 25\) was refused unread, so it was neither checked nor fixed, and kustomize builds the whole file: Not valid YAML at line 25, column 1: .* Correct it first, then check the file again\./;
  assert.match(r.stderr, new RegExp(`^hitless check: ${said.source}\\n$`));
  const kustomization = readFileSync(join(dir, 'kustomization.yaml'), 'utf8');
  assert.match(
    kustomization,
    new RegExp(`^# Made by hitless check --format patch from app\\.yaml\\.\\n# ${said.source}\\n`),
  );
});

/** A Deployment of one GPU whose container runs `run` on `image`. */
const served = (image: string, run: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: m
spec:
  replicas: 2
  selector:
    matchLabels: {app: m}
  template:
    metadata:
      labels: {app: m}
    spec:
      containers:
        - name: server
          image: ${image}
          ${run}
          resources: {limits: {nvidia.com/gpu: 1}}
`;

test('the default time per output token is compared with the model the manifest serves, never with a stand-in', () => {
  const note = (image: string, run: string) => {
    const result = checkManifest(served(image, run), {}, profiles);
    assert.ok(result.ok);
    return result.report.findings.find((f) => f.code === 'tpot-default-other-model');
  };
  // A model it names: the note says the default's figure (Qwen/Qwen3-32B, content/model-servers) is not for it.
  const named = note('vllm/vllm-openai:v0.23.0', 'command: ["vllm", "serve", "meta-llama/Llama-3.1-8B-Instruct"]');
  assert.match(named?.message ?? '', /a figure for Qwen\/Qwen3-32B, not for meta-llama\/Llama-3\.1-8B-Instruct\./);
  // llama.cpp loading a file names no model: no note naming the profile's stand-in (a GGUF of Qwen3-32B) instead.
  const path = note(
    'ghcr.io/ggml-org/llama.cpp:server',
    'args: ["-m", "/models/phi-3.5-mini-Q4_K_M.gguf", "--port", "8080"]',
  );
  assert.equal(path, undefined, path?.message);
});

test('--explain names a server without a drain profile on its workload line, and lists a document refused unread', () => {
  const ollama = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ollama
spec:
  replicas: 1
  selector:
    matchLabels: {app: ollama}
  template:
    metadata:
      labels: {app: ollama}
    spec:
      containers:
        - name: ollama
          image: ollama/ollama:0.20.2
          ports: [{containerPort: 11434}]
---
apiVersion: v1
kind: Service
metadata:
  name: ollama
spec:
  ports: [{port: 11434}
`;
  const explained = explainManifest(ollama, {}, profiles);
  assert.ok(explained.ok);
  const text = explanationText(explained.explanation);
  assert.match(
    text,
    /^Deployment\/ollama \(document 1\): 1 replica; checked as Ollama, which has no drain profile, with the rules that hold for any server$/m,
  );
  // The Service document (lines 18 to 23) never closes its `[`: the parser says so at the end, line 24.
  assert.match(
    text,
    /\nRefused unread, so neither checked nor fixed: document 2 \(line 24\): Not valid YAML at line 24, column 1: .+\n$/,
  );
});

test('the progress deadline message says when the grace period it counts is the one the grace fix writes', () => {
  // vLLM 0.23.0 with --shutdown-timeout 738, a 35 s hook and no grace period (30 s): the grace fix writes 788 s
  // (35 + 738 + 15, the teardown); the startup probe allows 180 × 10 s = 1800 s, so a step takes up to 2588 s.
  const text = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: m
spec:
  replicas: 2
  selector:
    matchLabels: {app: m}
  template:
    metadata:
      labels: {app: m}
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.23.0
          command: ["vllm", "serve", "Qwen/Qwen3-32B", "--shutdown-timeout", "738"]
          lifecycle: {preStop: {sleep: {seconds: 35}}}
          startupProbe: {httpGet: {path: /health, port: 8000}, periodSeconds: 10, failureThreshold: 180}
          resources: {limits: {nvidia.com/gpu: 1}}
`;
  const result = checkManifest(text, {}, profiles);
  assert.ok(result.ok);
  const deadline = result.report.findings.find((f) => f.code === 'progress-deadline-too-short');
  assert.match(
    deadline?.message ?? '',
    /^A rollout step can take up to 2588s \(the grace fix’s 788s grace \+ the startup probe’s 1800s window for the model load\), longer than progressDeadlineSeconds \(600s, the default\)/,
  );
  // The comment the fix writes describes the fixed manifest, whose grace period is 788 s.
  assert.equal(
    deadline?.fix?.text,
    'progressDeadlineSeconds: 2588 # 788s grace + the startup probe’s 1800s window for the model load',
  );
});

/** SGLang told to listen on 30000, its readiness probe on `probePort`; `extra` goes after the containers list. */
const sglang = (probePort: string, extra = '', more = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: s
spec:
  replicas: 2
  selector:
    matchLabels: {app: s}
  template:
    metadata:
      labels: {app: s}
    spec:
      containers:
        - name: server
          image: lmsysorg/sglang:v0.5.2
          command: ["python3", "-m", "sglang.launch_server"]
          args: ["--model-path", "Qwen/Qwen3-8B", "--host", "0.0.0.0", "--port", "30000"]
          ports:
            - {containerPort: 8000, name: metrics}
            - {containerPort: 30000, name: api}
          readinessProbe:
            httpGet: {path: /health, port: ${probePort}}
            periodSeconds: 10
          resources: {limits: {nvidia.com/gpu: "1"}}
${extra}${more}`;

test('a probe of the server’s health path on a port its command does not make it listen on never passes', () => {
  const finding = (text: string) => {
    const result = checkManifest(text, {}, profiles);
    assert.ok(result.ok);
    return result.report.findings.find((f) => f.code === 'probe-port-not-served');
  };
  // The shape of hold-out 17's file 03: /health asked on 8000 (a port named metrics), SGLang on --port 30000.
  for (const port of ['8000', 'metrics']) {
    const f = finding(sglang(port));
    assert.equal(f?.severity, 'error', port);
    assert.equal(
      f?.message,
      "The readinessProbe asks /health on port 8000, but the server container's command makes SGLang listen on 30000 (--port 30000): the probe never passes, so the pod never becomes ready: no endpoint lists it and a rollout stalls on it.",
    );
    // The fix names the port the server listens on, by its name.
    assert.equal(f?.fix?.text, 'readinessProbe: port: api (the port --port 30000 makes the server listen on)');
    assert.match(fixed(sglang(port)), /\n {12}httpGet: \{path: \/health, port: api\}\n/);
  }
  // On the port it listens on, by number or name: nothing.
  assert.equal(finding(sglang('30000')), undefined);
  assert.equal(finding(sglang('api')), undefined);
  // A sidecar that declares no port may listen on 8000 undeclared: a warning that says so.
  const beside = '        - {name: proxy, image: "envoyproxy/envoy:v1.31.0"}\n';
  const hedged = finding(sglang('8000', beside));
  assert.equal(hedged?.severity, 'warning');
  assert.match(
    hedged?.message ?? '',
    /, and no other container of the pod declares port 8000: .*, unless another container listens on 8000 without declaring it\.$/,
  );
  // A sidecar that declares 8000 answers the probe itself.
  assert.equal(
    finding(
      sglang('8000', '        - {name: proxy, image: "envoyproxy/envoy:v1.31.0", ports: [{containerPort: 8000}]}\n'),
    ),
    undefined,
  );
  // A Service that sends to 8000 too: which side is wrong is the reader's call, so the fix is by hand.
  const service =
    '---\napiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  selector: {app: s}\n  ports: [{port: 80, targetPort: metrics}]\n';
  const sent = finding(sglang('8000', '', service));
  assert.equal(sent?.remedy, 'manual');
  assert.match(
    sent?.fix?.text ?? '',
    /Service\/s also sends to port 8000: make the server, the probe and Service\/s agree\. Either set --port 8000 in the server's command, or point the readinessProbe and Service\/s at 30000\./,
  );
  // A path the server's profile does not probe (a metrics scrape) is not judged.
  assert.equal(finding(sglang('8000').replace('path: /health', 'path: /metrics')), undefined);
});

/** A one-replica vLLM Deployment on Recreate whose rollingUpdate is written as `bounds` (hold-out 18, file 03). */
const recreate = (bounds: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: m
spec:
  replicas: 1
  strategy:
    type: Recreate
    rollingUpdate:${bounds}
  selector:
    matchLabels: {app: m}
  template:
    metadata:
      labels: {app: m}
    spec:
      terminationGracePeriodSeconds: 788
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.23.0
          command: ["vllm", "serve", "m", "--shutdown-timeout", "738"]
          lifecycle: {preStop: {sleep: {seconds: 35}}}
          resources: {limits: {nvidia.com/gpu: 1}}
`;

test('a fix writes its values over a key left null, and is never written in part', () => {
  // rollingUpdate left null, ~ or empty is unset to Kubernetes (maxSurge 25% of 1 = 1): the fix must write both bounds
  // there, or the rollout it starts waits for a spare GPU. It used to change only `type`.
  for (const bounds of [' null', ' ~', '']) {
    const text = fixed(recreate(bounds));
    assert.match(text, /\n {4}type: RollingUpdate\n {4}rollingUpdate: \{maxSurge: 0, maxUnavailable: 1\}\n/, bounds);
    const again = checkManifest(text, {}, profiles);
    assert.ok(again.ok);
    const codes = again.report.findings.map((f) => f.code);
    assert.ok(!codes.includes('strategy-recreate') && !codes.includes('surge-without-spare-gpus'), codes.join(', '));
  }
  // A preStop hook written over `lifecycle:` left empty.
  const hookless = recreate(' null').replace('lifecycle: {preStop: {sleep: {seconds: 35}}}', 'lifecycle:');
  assert.match(fixed(hookless), /\n {10}lifecycle: \{preStop: \{sleep: \{seconds: 35\}\}\}\n/);
  // Bounds written as a string cannot hold maxSurge: the fix is by hand, and nothing of it is written.
  const stringBounds = recreate(' "none"');
  const result = checkManifest(stringBounds, {}, profiles);
  assert.ok(result.ok);
  const f = result.report.findings.find((x) => x.code === 'strategy-recreate');
  assert.equal(f?.remedy, 'manual');
  assert.match(f?.fix?.text ?? '', /^Manual: type: RollingUpdate, rollingUpdate: \{ maxSurge: 0, maxUnavailable: 1 \}/);
  assert.match(fixed(stringBounds), /\n {4}type: Recreate\n {4}rollingUpdate: "none"\n/);
});

/** A StatefulSet of `replicas` Ollama pods on CPU (hold-out 18, file 07). */
const ollamaSet = (replicas: number) => `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: ollama
spec:
  replicas: ${replicas}
  serviceName: ollama
  selector:
    matchLabels: {app: ollama}
  template:
    metadata:
      labels: {app: ollama}
    spec:
      containers:
        - name: ollama
          image: ollama/ollama:0.20.2
          ports: [{containerPort: 11434}]
`;

test('a one-replica StatefulSet leaves a gap at every rollout, with or without accelerators: it never surges', () => {
  const result = checkManifest(ollamaSet(1), {}, profiles);
  assert.ok(result.ok);
  const f = result.report.findings.find((x) => x.code === 'single-replica-outage');
  assert.equal(f?.severity, 'warning');
  // Grace: 35 s preStop + 15 s teardown (Ollama does not drain: no drain budget) = 50 s; the default 600 s load.
  assert.equal(
    f?.message,
    "A StatefulSet replaces its one pod by deleting it before it creates the new one: no pod takes new requests from the old pod's deletion (its endpoints are removed at once) until the new pod has started and loaded the model: up to 650s. Add a replica. This rests on an assumed model load time (a default the manifest does not state): give --startup-seconds (your real value) to judge it.",
  );
  const two = checkManifest(ollamaSet(2), {}, profiles);
  assert.ok(two.ok);
  assert.ok(!two.report.findings.some((x) => x.code === 'single-replica-outage'));
});

/** Triton on a team's own image, started by `args` alone (hold-out 18, file 04). */
const tritonArgs = (args: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: triton
spec:
  replicas: 2
  selector:
    matchLabels: {app: triton}
  template:
    metadata:
      labels: {app: triton}
    spec:
      containers:
        - name: triton
          image: registry.example/team/triton-llm:dev
          args: ${args}
          ports: [{containerPort: 8000}]
          resources: {limits: {nvidia.com/gpu: 1}}
`;

test('args alone that start a server on an image whose entrypoint is unknown are taken as its invocation, and say so', () => {
  const text = tritonArgs('["tritonserver", "--model-repository=/models"]');
  const result = checkManifest(text, {}, profiles);
  assert.ok(result.ok);
  const codes = result.report.findings.map((f) => f.code);
  // Triton's default --exit-timeout-secs (30 s) is below the drain; before, only "model server unknown" was said.
  assert.ok(codes.includes('drain-flag-too-short'), codes.join(', '));
  assert.ok(!codes.includes('model-server-unknown'), codes.join(', '));
  const explained = explainManifest(text, {}, profiles);
  assert.ok(explained.ok);
  assert.match(
    explanationText(explained.explanation),
    /\n {6}evidence: args tritonserver \(the image's entrypoint, not known, taken to run them\); requests 1 GPU\n/,
  );
  // Args that are only flags, or another program, say nothing of the server on such an image.
  for (const args of ['["--model-repository=/models"]', '["python3", "serve.py"]']) {
    const other = checkManifest(tritonArgs(args), {}, profiles);
    assert.ok(other.ok);
    assert.ok(
      other.report.findings.some((f) => f.code === 'model-server-unknown'),
      args,
    );
  }
});

test('--explain gives a skipped workload its own reason, and says a count of 0 replicas is not the one checked', () => {
  // A kustomize patch of a StatefulSet that adds a GPU but no image (hold-out 18, file 08).
  const patch = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: ollama
spec:
  template:
    spec:
      containers:
        - name: ollama
          resources: {limits: {nvidia.com/gpu: 1}}
`;
  const explained = explainManifest(patch, {}, profiles);
  assert.ok(explained.ok);
  assert.match(
    explanationText(explained.explanation),
    /\): replicas unset \(1 unless an autoscaler sets more\); not checked: StatefulSet\/ollama is not a whole object \(its ollama container has no image\)/,
  );
  const zero = explainManifest(
    served('vllm/vllm-openai:v0.23.0', 'command: ["vllm", "serve", "m"]').replace('replicas: 2', 'replicas: 0'),
    {},
    profiles,
  );
  assert.ok(zero.ok);
  const text = explanationText(zero.explanation);
  assert.match(
    text,
    /\(document 1\): replicas 0 \(scaled down, or an autoscaler or a Rollout sets the count: the replicas input below is assumed\); checked as vllm\n/,
  );
  assert.match(text, /\n {4}replicas 3: assumed \(the default\)\n/);
});

test('the progress deadline fix counts the startup window as the startup fix leaves it, so the fixed manifest passes', () => {
  // vLLM 0.23.0, 35 s hook, --shutdown-timeout 70 and 120 s grace (35 + 70 + 15); the startup probe waits 60 s, then
  // 10 s × 24 = 300 s: below the assumed 600 s load, so the startup fix makes it 60 + 10 × 60 = 660 s (hold-out 19,
  // file 02). A step then takes up to 120 + 660 = 780 s, not the 720 s the deadline fix wrote before.
  const text = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: m
spec:
  replicas: 2
  selector:
    matchLabels: {app: m}
  template:
    metadata:
      labels: {app: m}
    spec:
      terminationGracePeriodSeconds: 120
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.23.0
          command: ["vllm", "serve", "m", "--shutdown-timeout", "70"]
          lifecycle: {preStop: {sleep: {seconds: 35}}}
          startupProbe:
            httpGet: {path: /v1/models, port: 8000}
            initialDelaySeconds: 60
            periodSeconds: 10
            failureThreshold: 24
          resources: {limits: {nvidia.com/gpu: 1}}
`;
  // 300 tokens × 100 ms × 1.2 (prefill) = 36 s longest request, × 1.5 headroom = 54 s drain: the 70 s flag and the
  // 120 s grace (35 + 54 + 15 = 104 needed) stand.
  const settings = { 'max-output-tokens': '300', 'tpot-ms': '100', 'spare-gpus': '1' };
  const result = checkManifest(text, settings, profiles);
  assert.ok(result.ok);
  const deadline = result.report.findings.find((f) => f.code === 'progress-deadline-too-short');
  assert.match(
    deadline?.message ?? '',
    /^A rollout step can take up to 780s \(120s grace \+ the startup fix’s 660s window for the model load\)/,
  );
  assert.equal(
    deadline?.fix?.text,
    'progressDeadlineSeconds: 780 # 120s grace + the startup probe’s 660s window for the model load',
  );
  // Fixed with the same settings (the load time left assumed, as the reader left it).
  const again = checkManifest(fixManifest(result.manifest, result.report.findings).text, settings, profiles);
  assert.ok(again.ok);
  const left = again.report.findings.filter((f) => f.fix && f.fix.edits.length > 0).map((f) => f.code);
  assert.deepEqual(left, []);
});

/** A one-replica vLLM Deployment on CPU, Recreate (hold-out 20, file 09); `volumes` goes at the end of its pod spec. */
const cpuRecreate = (volumes = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: cpu
spec:
  replicas: 1
  strategy:
    type: Recreate
  selector:
    matchLabels: {app: cpu}
  template:
    metadata:
      labels: {app: cpu}
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai-cpu:v0.23.0
          command: ["vllm", "serve", "m"]
          ports: [{containerPort: 8000}]
          resources: {limits: {cpu: "8", memory: 32Gi}}
${volumes}`;

test('a pod without accelerators leaves Recreate for a rollout that starts the new pod first, unless it holds a claim', () => {
  const fix = (text: string) => {
    const result = checkManifest(text, {}, profiles);
    assert.ok(result.ok);
    return result.report.findings.find((f) => f.code === 'strategy-recreate')?.fix?.text;
  };
  // In place (maxSurge 0, maxUnavailable 1) would keep the one pod's gap that Recreate has; no GPU is waited for.
  assert.equal(
    fix(cpuRecreate()),
    'type: RollingUpdate, rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } (no accelerator to wait for: a new pod starts before an old one stops)',
  );
  // A PersistentVolumeClaim may be ReadWriteOnce: a surge pod could not attach it, so the plan's in-place values stay.
  const claim = '      volumes:\n        - name: models\n          persistentVolumeClaim: {claimName: models}\n';
  assert.match(
    fix(cpuRecreate(claim)) ?? '',
    /^type: RollingUpdate, rollingUpdate: \{ maxSurge: 0, maxUnavailable: 1 \}/,
  );
});

test('no generator settings are offered where no workload was checked (they would be the defaults alone)', () => {
  const ui = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ui
spec:
  replicas: 1
  selector:
    matchLabels: {app: ui}
  template:
    metadata:
      labels: {app: ui}
    spec:
      containers:
        - name: web
          image: ghcr.io/open-webui/open-webui:main
          ports: [{containerPort: 8080}]
`;
  const result = checkManifest(ui, {}, profiles);
  assert.ok(result.ok);
  assert.equal(result.report.workloads, 0);
  assert.equal(result.report.generator, undefined);
  const file = join(tmp, 'ui.yaml');
  writeFileSync(file, ui);
  const run = spawnSync(process.execPath, [BIN, 'check', file, '--no-config'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.doesNotMatch(run.stdout, /The generator's manifest for these settings/);
  // A checked vLLM workload still gets its generator command.
  const vllmFile = join(tmp, 'vllm.yaml');
  writeFileSync(vllmFile, served('vllm/vllm-openai:v0.23.0', 'command: ["vllm", "serve", "Qwen/Qwen3-8B"]'));
  const checked = spawnSync(process.execPath, [BIN, 'check', vllmFile, '--no-config'], { encoding: 'utf8' });
  assert.match(checked.stdout, /\n {2}The generator's manifest for these settings: hitless generate --[a-z]/);
});

test('a probe for one server over --nnodes pods of one template is by hand, and claims no rank’s behaviour', () => {
  // SGLang over two pods of a StatefulSet (hold-out 20, file 02): recent releases answer /health on every rank from a
  // stand-in server, other servers' ranks run no HTTP server; the advice says it depends.
  const text = `apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: sg
spec:
  replicas: 2
  serviceName: sg
  selector:
    matchLabels: {app: sg}
  template:
    metadata:
      labels: {app: sg}
    spec:
      containers:
        - name: sglang
          image: lmsysorg/sglang:v0.5.2
          command: ["python3", "-m", "sglang.launch_server", "--model-path", "m", "--nnodes", "2", "--port", "30000"]
          resources: {limits: {nvidia.com/gpu: 8}}
`;
  const result = checkManifest(text, {}, profiles);
  assert.ok(result.ok);
  const readiness = result.report.findings.find((f) => f.code === 'readiness-missing');
  assert.match(
    readiness?.fix?.text ?? '',
    /^Manual: the sglang container runs one server over --nnodes 2 pods of this template, and a rank above 0 may not answer on the server's port \(whether it does depends on the server and its release/,
  );
  assert.doesNotMatch(readiness?.fix?.text ?? '', /never answer/);
});

test('with an API key vLLM answers 401 under /v1 (a probe sends none): probes are written on /health, and /health is not second-guessed', () => {
  const keyed = (how: string, readiness = '') =>
    served(
      'vllm/vllm-openai:v0.23.0',
      `command: ["vllm", "serve", "m"${how === 'flag' ? ', "--api-key", "$(KEY)"' : ''}]`,
    ).replace(
      '          resources:',
      `          ports: [{containerPort: 8000}]\n${how === 'env' ? '          env: [{name: VLLM_API_KEY, valueFrom: {secretKeyRef: {name: k, key: k}}}]\n' : ''}${how === 'envFrom' ? '          envFrom: [{secretRef: {name: k}}]\n' : ''}${readiness}          resources:`,
    );
  const probePaths = (text: string) => {
    const out = fixed(text);
    return [...out.matchAll(/(startupProbe|readinessProbe):\n\s+httpGet:\n\s+path: (\S+)/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
  };
  for (const how of ['env', 'flag', 'envFrom'])
    assert.deepEqual(probePaths(keyed(how)), ['readinessProbe /health'], how);
  // No key: the profile's /v1/models, as before.
  assert.deepEqual(probePaths(keyed('none')), ['readinessProbe /v1/models']);
  // A readiness probe on /health beside a key is what it should be; without a key it gets the profile's note.
  const onHealth = '          readinessProbe: {httpGet: {path: /health, port: 8000}}\n';
  const note = (text: string) => {
    const result = checkManifest(text, {}, profiles);
    assert.ok(result.ok);
    return result.report.findings.find((f) => f.code === 'readiness-path-differs');
  };
  assert.equal(note(keyed('env', onHealth)), undefined);
  assert.equal(note(keyed('none', onHealth))?.severity, 'info');
});

test('--explain calls an output length read from a request limit an upper bound', () => {
  const text = served('vllm/vllm-openai:v0.23.0', 'command: ["vllm", "serve", "m", "--max-model-len", "2048"]');
  const explained = explainManifest(text, {}, profiles);
  assert.ok(explained.ok);
  assert.match(
    explanationText(explained.explanation),
    /\n {4}max-output-tokens 2048: read \(Deployment\/m spec\.template\.spec\.containers\[0\]\.args --max-model-len, a limit on the request's tokens: an upper bound on the output\)\n/,
  );
});

test('Recreate names the pool only when one selects the pods; the vLLM probe note ends in what it says (hold-out 22)', () => {
  const result = checkManifest(recreate(' null'), {}, profiles);
  assert.ok(result.ok);
  const f = result.report.findings.find((x) => x.code === 'strategy-recreate');
  assert.match(f?.message ?? '', /before it starts new ones: there is no pod to serve from the first deletion/);
  const pooled = checkManifest(
    `${recreate(' null')}---\napiVersion: inference.networking.k8s.io/v1\nkind: InferencePool\nmetadata: {name: m}\nspec:\n  selector: {matchLabels: {app: m}}\n  targetPorts: [{number: 8000}]\n  endpointPickerRef: {name: m-epp, port: {number: 9002}}\n`,
    {},
    profiles,
  );
  assert.ok(pooled.ok);
  assert.match(
    pooled.report.findings.find((x) => x.code === 'strategy-recreate')?.message ?? '',
    /: the pool has no pod to serve from the first deletion/,
  );
  // The profile's explanation, quoted whole by readiness-path-differs, refers to nothing that is not there.
  const vllmProfile = profiles.modelServers.find((p) => p.id === 'vllm');
  assert.doesNotMatch(vllmProfile?.probes.explanation ?? '', /\(below\)/);
});
