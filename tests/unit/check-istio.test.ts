// Istio's injected proxy beside the model server. istio/istio 1.28.0: pkg/envoy/agent.go terminate() drains the
// inbound listeners at SIGTERM, waits terminationDrainDuration, then stops Envoy; pkg/config/mesh/mesh.go sets
// terminationDrainDuration 5 s and drainDuration 45 s unless the mesh or proxy.istio.io/config says otherwise; the
// injection template makes the proxy an init container with restartPolicy Always (a native sidecar, stopped after
// the app) when sidecar.istio.io/nativeSidecar is "true". Worked by hand at CHECK_TEST_SETTINGS (GKE, vLLM 0.18.1
// with --shutdown-timeout=75): 35 s preStop, 75 s drain, so the proxy must drain 35 + 75 = 110 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, codes, fixed, only } from '../support/check.ts';
import { readRuleFiles } from '../support/rule-audit.ts';

const fires = readRuleFiles('istio-proxy-exits-first').fires!;
const CODE = 'istio-proxy-exits-first';

/** fires.yaml with its pod-template metadata (annotations and the inject label) replaced. */
function withMetadata(lines: string): string {
  const start = fires.indexOf('      annotations:\n');
  const end = fires.indexOf('    spec:\n', start);
  assert.ok(start > 0 && end > start);
  return `${fires.slice(0, start)}${lines}${fires.slice(end)}`;
}

test('the inject label and no drain setting: the 5 s default is named, and the fix writes 110 s into the config it keeps', () => {
  const f = only(check(fires), CODE);
  assert.equal(f.severity, 'warning');
  assert.equal(f.path, 'spec.template.metadata.labels["sidecar.istio.io/inject"]');
  assert.match(
    f.message,
    /^The pod template asks Istio to inject its proxy \(label sidecar\.istio\.io\/inject: "true"\)\. /,
  );
  assert.match(f.message, /drains for 5s \(its terminationDrainDuration, 5 s unless set\) and then stops Envoy/);
  assert.match(
    f.message,
    /the 35s preStop sleep \(gateways route to it for up to 30s, the removal p99\) and vllm's 75s drain/,
  );
  const out = fixed(fires);
  assert.match(
    out,
    /proxy\.istio\.io\/config: \|\n {10}holdApplicationUntilProxyStarts: true\n {10}terminationDrainDuration: 110s\n/,
  );
  assert.ok(!codes(check(out)).includes(CODE), 'the fixed manifest no longer reports it');
});

test('a revision label injects too; a set terminationDrainDuration below 110 s points at the config', () => {
  const text = withMetadata(
    '      annotations:\n        proxy.istio.io/config: "terminationDrainDuration: 60s"\n      labels:\n        app: m\n        istio.io/rev: canary\n',
  );
  const f = only(check(text), CODE);
  assert.equal(f.path, 'spec.template.metadata.annotations["proxy.istio.io/config"]');
  assert.match(
    f.message,
    /^The pod template asks Istio revision "canary" to inject its proxy \(label istio\.io\/rev\)\. /,
  );
  assert.match(f.message, /drains for 60s \(its terminationDrainDuration\) and then stops Envoy;/);
  assert.match(fixed(text), /proxy\.istio\.io\/config: "terminationDrainDuration: 110s"/);
});

test('drainDuration below the preStop sleep: Envoy stops accepting before the sleep ends, and the fix raises it to 35 s', () => {
  const text = withMetadata(
    '      annotations:\n        proxy.istio.io/config: |\n          terminationDrainDuration: 120s\n          drainDuration: 20s\n      labels:\n        app: m\n        sidecar.istio.io/inject: "true"\n',
  );
  const f = only(check(text), CODE);
  assert.match(f.message, /stops accepting after its 20s drainDuration;/);
  const out = fixed(text);
  assert.match(out, /terminationDrainDuration: 110s\n {10}drainDuration: 35s\n/);
  assert.ok(!codes(check(out)).includes(CODE));
});

test('no finding where the proxy outlives the drain or cannot be judged from the manifest', () => {
  const cases: [string, string][] = [
    [
      'native sidecar asked for',
      '      annotations:\n        sidecar.istio.io/nativeSidecar: "true"\n      labels:\n        app: m\n        sidecar.istio.io/inject: "true"\n',
    ],
    [
      'injection refused by label',
      '      labels:\n        app: m\n        istio.io/rev: stable\n        sidecar.istio.io/inject: "false"\n',
    ],
    ['no injection asked for', '      labels:\n        app: m\n'],
    [
      'exits when connections end',
      '      annotations:\n        proxy.istio.io/config: |\n          proxyMetadata:\n            EXIT_ON_ZERO_ACTIVE_CONNECTIONS: "true"\n      labels:\n        app: m\n        sidecar.istio.io/inject: "true"\n',
    ],
    [
      'a duration not in protobuf form (Istio would refuse it)',
      '      annotations:\n        proxy.istio.io/config: "terminationDrainDuration: 2m"\n      labels:\n        app: m\n        sidecar.istio.io/inject: "true"\n',
    ],
  ];
  for (const [why, lines] of cases) assert.ok(!codes(check(withMetadata(lines))).includes(CODE), why);
});

test('a pod that already holds istio-proxy: classic is reported with a fix by hand, native (an init container) is not', () => {
  const pod = [
    'apiVersion: v1',
    'kind: Pod',
    'metadata:',
    '  name: p',
    '  labels: {app: m}',
    'spec:',
    '  terminationGracePeriodSeconds: 125',
    '  containers:',
    '  - name: vllm',
    '    image: vllm/vllm-openai:v0.18.1',
    '    command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]',
    '    args: ["--model", "Qwen/Qwen3-32B", "--port", "8000", "--shutdown-timeout=75"]',
    '    ports: [{name: http, containerPort: 8000}]',
    '    resources: {limits: {nvidia.com/gpu: 1}}',
    '    lifecycle: {preStop: {sleep: {seconds: 35}}}',
    '    readinessProbe: {httpGet: {path: /v1/models, port: http}, periodSeconds: 5}',
    '  - name: istio-proxy',
    '    image: docker.io/istio/proxyv2:1.26.0',
    '    args: ["proxy", "sidecar"]',
    '',
  ].join('\n');
  const f = only(check(pod), CODE);
  assert.equal(f.path, 'spec.containers[1].name');
  assert.equal(f.remedy, 'manual');
  assert.match(
    f.fix?.text ?? '',
    /set proxy\.istio\.io\/config to "terminationDrainDuration: 110s" .* in the pod template of the workload that made this pod/,
  );
  const native = pod
    .replace('  - name: istio-proxy\n    image: docker.io/istio/proxyv2:1.26.0\n    args: ["proxy", "sidecar"]\n', '')
    .replace(
      '  containers:\n',
      '  initContainers:\n  - name: istio-proxy\n    image: docker.io/istio/proxyv2:1.26.0\n    restartPolicy: Always\n  containers:\n',
    );
  assert.ok(!codes(check(native)).includes(CODE));
});
