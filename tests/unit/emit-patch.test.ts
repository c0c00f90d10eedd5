// The patch output form merged, by the documented strategic-merge rules (tests/support/strategic-merge.ts), onto
// hand-written Deployments: the plan's drain settings land and nothing else changes. Expected numbers, worked out
// by hand for GKE + vLLM at the defaults: 4096 tokens × 100 ms × 1.2 = 491.52 → 492 s longest request;
// drain 492 × 1.5 = 738; preStop 30 s removal + 5 s margin = 35; grace 35 + 738 + 15 = 788;
// progress deadline 788 + 600 = 1388; startup probe 600 s / 10 s = 60 checks; no spare GPU → maxSurge 0, maxUnavailable 1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { emitOutput } from '../../src/emit/output.ts';
import { checkManifest } from '../../src/check/index.ts';
import { readOutputFacts } from '../../src/facts/read-output-files.ts';
import { applyJsonPatch, strategicMerge, type JsonPatchOp } from '../support/strategic-merge.ts';
import { manifestErrors } from '../support/manifest-check.ts';
import { profiles } from '../support/generate.ts';
import { installedPool } from '../support/helm-install.ts';

type Obj = Record<string, any>;
const facts = readOutputFacts();

function patchFor(raw: Record<string, string>) {
  const { inputs, errors } = resolveInputs({ output: 'patch', ...raw }, profiles);
  assert.deepEqual(errors, []);
  const planned = plan(inputs, profiles);
  const out = emitOutput(planned, inputs, profiles, facts);
  const file = (name: string) => out.files.find((f) => f.name === name)?.text;
  return { planned, inputs, out, file };
}

/** Apply the kustomization's patches in its order, as kustomize does. */
function kustomize(base: Obj, files: (name: string) => string | undefined): Obj {
  const kustomization = parse(files('kustomization.yaml')!);
  assert.equal(kustomization.resources[0], 'deployment.yaml');
  for (const resource of kustomization.resources.slice(1))
    assert.ok(files(resource), `the kustomization lists ${resource}, which the output has`);
  let result = base;
  for (const p of kustomization.patches) {
    assert.equal(p.target.kind, 'Deployment');
    assert.equal(p.target.name, base.metadata.name, 'the patch targets the Deployment by name');
    const text = files(p.path);
    assert.ok(text, `the kustomization lists ${p.path}, which the output has`);
    const body = parse(text);
    result = Array.isArray(body) ? applyJsonPatch(result, body as JsonPatchOp[]) : strategicMerge(result, body);
  }
  return result;
}

const STARTUP = {
  httpGet: { path: '/v1/models', port: 8000 },
  periodSeconds: 10,
  timeoutSeconds: 5,
  failureThreshold: 60,
};
const READINESS = {
  httpGet: { path: '/v1/models', port: 8000 },
  periodSeconds: 5,
  timeoutSeconds: 2,
  failureThreshold: 3,
};

/** The drain settings a merge must set, by container name. */
function assertDrainSettings(merged: Obj, container: string, baseArgs: string[]): void {
  assert.equal(merged.spec.progressDeadlineSeconds, 1388);
  assert.deepEqual(merged.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } });
  assert.equal(merged.spec.template.spec.terminationGracePeriodSeconds, 788);
  const c = merged.spec.template.spec.containers.find((x: Obj) => x.name === container);
  assert.deepEqual(c.lifecycle.preStop, { sleep: { seconds: 35 } });
  assert.deepEqual(c.startupProbe, STARTUP);
  assert.deepEqual(c.readinessProbe, READINESS);
  assert.deepEqual(c.args, [...baseArgs, '--shutdown-timeout=738']);
}

/** Both objects with the drain settings taken out, as JSON text: what must be identical. */
function withoutDrainSettings(o: Obj, container: string): string {
  const copy = structuredClone(o);
  delete copy.spec.progressDeadlineSeconds;
  delete copy.spec.strategy;
  delete copy.spec.template.spec.terminationGracePeriodSeconds;
  // The 788 s grace is over the autoscaler's 600 s: the patch adds safe-to-evict "false" to the pod annotations.
  const meta = copy.spec.template.metadata;
  if (meta.annotations) {
    delete meta.annotations['cluster-autoscaler.kubernetes.io/safe-to-evict'];
    if (Object.keys(meta.annotations).length === 0) delete meta.annotations;
  }
  const c = copy.spec.template.spec.containers.find((x: Obj) => x.name === container);
  if (c.lifecycle) {
    delete c.lifecycle.preStop;
    if (Object.keys(c.lifecycle).length === 0) delete c.lifecycle;
  }
  delete c.startupProbe;
  delete c.readinessProbe;
  delete c.args;
  return JSON.stringify(copy);
}

const PLAIN = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm-qwen3-32b
  namespace: default
  labels: {app: vllm-qwen3-32b, team: search}
spec:
  replicas: 3
  strategy: {type: Recreate}
  selector:
    matchLabels: {app: vllm-qwen3-32b}
  template:
    metadata:
      labels: {app: vllm-qwen3-32b}
      annotations: {prometheus.io/scrape: "true"}
    spec:
      serviceAccountName: inference
      containers:
        - name: server
          image: vllm/vllm-openai:v0.18.1
          command: [python3, -m, vllm.entrypoints.openai.api_server]
          args: [--model, Qwen/Qwen3-32B, --port, "8000", --max-model-len, "32768"]
          env:
            - {name: HF_TOKEN, valueFrom: {secretKeyRef: {name: hf, key: token}}}
            - {name: VLLM_LOGGING_LEVEL, value: INFO}
          ports:
            - {name: web, containerPort: 8000}
          resources:
            limits: {nvidia.com/gpu: 1}
`;

const EXISTING_PROBES = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: vllm-qwen3-32b}
spec:
  replicas: 3
  progressDeadlineSeconds: 600
  strategy:
    type: RollingUpdate
    rollingUpdate: {maxSurge: 25%, maxUnavailable: 25%}
  selector:
    matchLabels: {app: vllm-qwen3-32b}
  template:
    metadata:
      labels: {app: vllm-qwen3-32b}
    spec:
      terminationGracePeriodSeconds: 30
      containers:
        - name: server
          image: vllm/vllm-openai:v0.18.1
          args: [--model, Qwen/Qwen3-32B]
          ports: [{containerPort: 8000}]
          lifecycle:
            postStart:
              exec: {command: [/bin/sh, -c, echo started]}
            preStop:
              exec: {command: [/bin/sh, -c, sleep 5]}
          startupProbe:
            exec: {command: [/bin/true]}
            periodSeconds: 30
          readinessProbe:
            tcpSocket: {port: 8000}
            initialDelaySeconds: 20
          livenessProbe:
            httpGet: {path: /health, port: 8000}
            periodSeconds: 10
            failureThreshold: 3
`;

const SIDECARS = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: vllm-qwen3-32b, namespace: default}
spec:
  replicas: 2
  selector:
    matchLabels: {app: vllm-qwen3-32b}
  template:
    metadata:
      labels: {app: vllm-qwen3-32b}
    spec:
      initContainers:
        - name: fetch-weights
          image: busybox:1.36
          args: [sh, -c, "echo fetch"]
      containers:
        - name: server
          image: vllm/vllm-openai:v0.18.1
          args: [--model, Qwen/Qwen3-32B, --port, "8000"]
          volumeMounts:
            - {name: shm, mountPath: /dev/shm}
        - name: log-shipper
          image: fluent/fluent-bit:3.0
          args: [-c, /conf/fluent.conf]
          readinessProbe:
            httpGet: {path: /, port: 2020}
      volumes:
        - name: shm
          emptyDir: {medium: Memory}
`;

const SIDECAR_FIRST = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: vllm-qwen3-32b}
spec:
  selector:
    matchLabels: {app: vllm-qwen3-32b}
  template:
    metadata:
      labels: {app: vllm-qwen3-32b}
    spec:
      containers:
        - name: proxy
          image: envoyproxy/envoy:v1.31.0
          args: [--config-path, /etc/envoy.yaml]
        - name: server
          image: vllm/vllm-openai:v0.18.1
          args: [--model, Qwen/Qwen3-32B]
`;

for (const [label, text, args] of [
  [
    'a plain Deployment with env and a Recreate strategy',
    PLAIN,
    ['--model', 'Qwen/Qwen3-32B', '--port', '8000', '--max-model-len', '32768'],
  ],
  ['a Deployment with its own probes and hooks', EXISTING_PROBES, ['--model', 'Qwen/Qwen3-32B']],
  [
    'a Deployment with an init container, a sidecar and volumes',
    SIDECARS,
    ['--model', 'Qwen/Qwen3-32B', '--port', '8000'],
  ],
] as const) {
  test(`the patch lands the drain settings on ${label} and leaves the rest as it was`, () => {
    const { file } = patchFor({ container: 'server' });
    const base = parse(text);
    const merged = kustomize(base, file);
    assertDrainSettings(merged, 'server', [...args]);
    assert.equal(withoutDrainSettings(merged, 'server'), withoutDrainSettings(base, 'server'));
  });
}

test('merged onto probes and hooks of another kind, each probe and the preStop has one handler: the plan\u2019s', () => {
  const merged = kustomize(parse(EXISTING_PROBES), patchFor({ container: 'server' }).file);
  const c = merged.spec.template.spec.containers[0];
  assert.deepEqual(
    Object.keys(c.readinessProbe).filter((k) => ['httpGet', 'tcpSocket', 'exec', 'grpc'].includes(k)),
    ['httpGet'],
  );
  assert.deepEqual(
    Object.keys(c.startupProbe).filter((k) => ['httpGet', 'tcpSocket', 'exec', 'grpc'].includes(k)),
    ['httpGet'],
  );
  assert.deepEqual(
    c.lifecycle.postStart,
    { exec: { command: ['/bin/sh', '-c', 'echo started'] } },
    'the postStart hook stays',
  );
  assert.deepEqual(
    c.livenessProbe,
    { httpGet: { path: '/health', port: 8000 }, periodSeconds: 10, failureThreshold: 3 },
    'liveness stays',
  );
  assert.ok(!/\$patch|null/.test(JSON.stringify(merged)), 'no directive and no null is left in the result');
});

test('the sidecar\u2019s args and probe are untouched, so args are never replaced by the strategic merge', () => {
  const merged = kustomize(parse(SIDECARS), patchFor({ container: 'server' }).file);
  const sidecar = merged.spec.template.spec.containers[1];
  assert.deepEqual(sidecar, parse(SIDECARS).spec.template.spec.containers[1]);
});

test('with the model server not first, the flag patch refuses (its test fails) instead of patching the sidecar', () => {
  const { file } = patchFor({ container: 'server' });
  assert.throws(
    () => kustomize(parse(SIDECAR_FIRST), file),
    /test \/spec\/template\/spec\/containers\/0\/name: found "proxy", not "server"/,
  );
});

test('without args the flag patch refuses rather than add a list with only the flag', () => {
  const base = parse(PLAIN);
  delete base.spec.template.spec.containers[0].args;
  assert.throws(
    () => kustomize(base, patchFor({ container: 'server' }).file),
    /add \/spec\/template\/spec\/containers\/0\/args\/-: no args/,
  );
});

test('a server without a drain flag gets no JSON patch: the kustomization lists only the strategic merge', () => {
  const { out, file } = patchFor({ container: 'server', 'model-server': 'sglang' });
  assert.deepEqual(
    out.files.map((f) => f.name),
    ['kustomization.yaml', 'drain-patch.yaml', 'drain-objects.yaml'],
  );
  assert.deepEqual(
    parse(file('kustomization.yaml')!).patches.map((p: Obj) => p.path),
    ['drain-patch.yaml'],
  );
});

test('made without the reader\u2019s manifest, the kustomization\u2019s header lists what it takes on trust', () => {
  const header = (raw: Record<string, string>) =>
    file0(raw)
      .split('\n')
      .filter((l) => l.startsWith('#'))
      .join('\n');
  const file0 = (raw: Record<string, string>) => patchFor(raw).file('kustomization.yaml')!;
  const vllm = header({ name: 'chat', container: 'server', port: '8080', image: 'vllm/vllm-openai:latest' });
  assert.match(
    vllm,
    /# Made without your manifest, so it takes these on trust \(each with the setting that states it\):\n/,
  );
  assert.match(
    vllm,
    /# {3}the Deployment chat \(--name\), its container server \(--container\) serving on port 8080 \(--port\),\n/,
  );
  assert.match(
    vllm,
    /# {3}pods labelled app: chat, the image vllm\/vllm-openai:latest running vLLM, release unknown \(--image, --model-server-version\),\n/,
  );
  assert.match(vllm, /a server started by a sh -c script needs the flag inside the script/);
  assert.match(
    vllm,
    /# For a patch worked out from what your manifest holds: hitless check deployment\.yaml --format patch/,
  );
  // No drain flag (SGLang has none): nothing said about where the flag goes.
  assert.doesNotMatch(header({ 'model-server': 'sglang' }), /sh -c script/);
});

test('the default container name is the model server\u2019s id, and the patch says to set --container', () => {
  const { file } = patchFor({});
  const patch = parse(file('drain-patch.yaml')!);
  assert.equal(patch.spec.template.spec.containers[0].name, 'vllm');
  assert.match(file('drain-patch.yaml')!, /set --container/);
});

test('the patch follows the inputs: Kubernetes 1.29 gets an exec sleep, a spare GPU a surge', () => {
  const { file } = patchFor({ container: 'server', 'kubernetes-version': '1.29', 'spare-gpus': '1' });
  const merged = kustomize(parse(PLAIN), file);
  assert.deepEqual(merged.spec.template.spec.containers[0].lifecycle.preStop, {
    exec: { command: ['/bin/sleep', '35'] },
  });
  assert.deepEqual(merged.spec.strategy.rollingUpdate, { maxSurge: 1, maxUnavailable: 0 });
});

test('a Deployment patched by the kustomization checks clean and validates', async () => {
  const { file, planned } = patchFor({ container: 'server' });
  const merged = kustomize(parse(PLAIN), file);
  // The pool the install stated in kustomization.yaml creates.
  const pool = installedPool(file('kustomization.yaml')!);
  const text = `${stringify(merged)}---\n${stringify(pool)}---\n${file('drain-objects.yaml')}`;
  const { errors } = await manifestErrors(text);
  assert.deepEqual(errors, []);
  const result = checkManifest(text, {}, profiles);
  assert.ok(result.ok, result.ok ? '' : result.problem.message);
  const planCodes = new Set<string>(planned.warnings.map((w) => w.code));
  assert.deepEqual(
    result.report.findings
      .filter((f) => f.severity === 'error' || (f.severity === 'warning' && !planCodes.has(f.code)))
      .map((f) => `${f.severity} ${f.code}: ${f.message}`),
    [],
  );
});

// For every gateway × model server: the bundle's own Deployment with its drain settings taken out, patched, gets
// them back (probes by port number) and checks clean.
for (const gateway of profiles.gateways) {
  for (const server of profiles.modelServers) {
    test(`the patch restores the drain settings on a stripped Deployment and checks clean: ${gateway.id} + ${server.id}`, async () => {
      const raw = { gateway: gateway.id, 'model-server': server.id };
      const bundle = parseAllDocuments(patchFor({ ...raw, output: 'bundle' }).out.text).map((d) => d.toJS() as Obj);
      const deployment = bundle.find((d) => d.kind === 'Deployment')!;
      const { file, planned } = patchFor({ ...raw, container: server.id });
      const base = structuredClone(deployment);
      delete base.spec.progressDeadlineSeconds;
      base.spec.strategy = { type: 'Recreate' };
      delete base.spec.template.spec.terminationGracePeriodSeconds;
      const c = base.spec.template.spec.containers[0];
      delete c.lifecycle;
      delete c.startupProbe;
      delete c.readinessProbe;
      if (planned.drainFlag) c.args = c.args.filter((a: string) => !a.startsWith(`${planned.drainFlag!.flag}=`));
      const merged = kustomize(base, file);
      const byNumber = (probe: Obj) => {
        const out = structuredClone(probe);
        for (const h of ['httpGet', 'tcpSocket']) if (out[h]) out[h].port = 8000;
        return out;
      };
      const want = structuredClone(deployment);
      const wc = want.spec.template.spec.containers[0];
      wc.startupProbe = byNumber(wc.startupProbe);
      wc.readinessProbe = byNumber(wc.readinessProbe);
      assert.deepEqual(merged, want);
      const pool = installedPool(file('kustomization.yaml')!);
      const objects = file('drain-objects.yaml');
      const result = checkManifest(
        `${stringify(merged)}---\n${stringify(pool)}${objects ? `---\n${objects}` : ''}`,
        { gateway: gateway.id },
        profiles,
      );
      assert.ok(result.ok, result.ok ? '' : result.problem.message);
      const planCodes = new Set<string>(planned.warnings.map((w) => w.code));
      assert.deepEqual(
        result.report.findings
          .filter((f) => f.severity === 'error' || (f.severity === 'warning' && !planCodes.has(f.code)))
          .map((f) => `${f.severity} ${f.code}: ${f.message}`),
        [],
      );
    });
  }
}

test('Istio: the patch carries the sidecar annotation the bundle has, merged into the reader\u2019s annotations', () => {
  // Kubernetes 1.34 (the default) ≥ 1.29: the annotation that forces a native sidecar.
  const { file } = patchFor({ gateway: 'istio', container: 'server' });
  const patch = parse(file('drain-patch.yaml')!);
  // 788 s grace > 600 s: the autoscaler annotation beside Istio's.
  const safe = { 'cluster-autoscaler.kubernetes.io/safe-to-evict': 'false' };
  assert.deepEqual(patch.spec.template.metadata.annotations, { 'sidecar.istio.io/nativeSidecar': 'true', ...safe });
  assert.match(file('drain-patch.yaml')!, /# Istio: The Istio gateway does not need a proxy in the model-server pod/);
  const base = parse(PLAIN);
  base.spec.template.metadata.annotations = { mine: 'x' };
  const merged = kustomize(base, file);
  assert.deepEqual(merged.spec.template.metadata.annotations, {
    mine: 'x',
    'sidecar.istio.io/nativeSidecar': 'true',
    ...safe,
  });
  // Other gateways add only the autoscaler's; none with a grace of 600 s or less (550 s request, no headroom: 600 s).
  assert.deepEqual(parse(patchFor({}).file('drain-patch.yaml')!).spec.template.metadata, { annotations: safe });
  const at600 = patchFor({ 'max-request-seconds': '550', 'drain-headroom-percent': '0' }).file('drain-patch.yaml')!;
  assert.equal(parse(at600).spec.template.metadata, undefined);
});
