// The one chart install the bundle, lws and patch forms state at their top (#31 item 2), read as a shell and Helm
// read it (tests/support/helm-install.ts). What GIE's inferencepool chart v1.5.0 does with the values, read in the
// chart at the tag: values.yaml lists provider.name gke, istio and none; gke.yaml adds a HealthCheckPolicy and a
// GCPBackendPolicy named after the release (timeoutSec 300); istio.yaml a DestinationRule for the picker;
// inferencepool.yaml names the pool after the release and _helpers.tpl the picker `<release cut to 40>-epp`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { emitOutput } from '../../src/emit/output.ts';
import { OutputError } from '../../src/emit/files.ts';
import { readOutputFacts } from '../../src/facts/read-output-files.ts';
import { validateSchema } from '../support/structural-schema.ts';
import { validateInferencePool } from '../support/inference-pool-schema.ts';
import { profiles } from '../support/generate.ts';
import { shellWords, statedInstalls } from '../support/helm-install.ts';
import { inferencePoolChartValues, renderedInferencePool } from '../fixtures/charts/gie-inferencepool-v1.5.0.ts';

type Obj = Record<string, any>;
const facts = readOutputFacts();
const CHART = 'oci://registry.k8s.io/gateway-api-inference-extension/charts/inferencepool';
/** The lws form needs a multi-node replica. */
const MULTI = { 'nodes-per-replica': '2', 'gpus-per-replica': '2' };

function outputOf(raw: Record<string, string>) {
  const { inputs, errors } = resolveInputs(raw, profiles);
  assert.deepEqual(errors, []);
  return emitOutput(plan(inputs, profiles), inputs, profiles, facts);
}

test('the default bundle\u2019s install, word for word as the shell splits it', () => {
  const line = /^# {3}(helm install .*)$/m.exec(outputOf({}).text)![1];
  assert.deepEqual(shellWords(line), [
    'helm',
    'install',
    'vllm-qwen3-32b',
    CHART,
    '--version',
    'v1.5.0',
    '--namespace',
    'default',
    '--set-string',
    'inferencePool.modelServers.matchLabels.app=vllm-qwen3-32b',
    // Quoted in the line: an unquoted [0] is a glob (zsh refuses a glob that matches nothing).
    '--set',
    'inferencePool.targetPorts[0].number=8000',
    '--set-string',
    'inferencePool.modelServerType=vllm',
    '--set',
    'inferenceExtension.extProcPort=9002',
    '--set-string',
    'inferenceExtension.failureMode=FailClose',
    '--set-string',
    'provider.name=none',
  ]);
});

for (const output of ['bundle', 'lws', 'patch']) {
  test(`${output}: one install, whose values are the helm-values form\u2019s values.yaml and render a valid pool, for every gateway × server`, () => {
    for (const gateway of profiles.gateways) {
      for (const server of output === 'lws' ? ['vllm', 'sglang'] : profiles.modelServers.map((m) => m.id)) {
        const raw = { gateway: gateway.id, 'model-server': server, ...(output === 'lws' ? MULTI : {}) };
        const label = `${gateway.id} + ${server}`;
        const out = outputOf({ ...raw, output });
        const installs = statedInstalls(out.text);
        assert.equal(installs.length, 1, label);
        const [install] = installs;
        assert.equal(install.chart, CHART, label);
        assert.equal(install.version, 'v1.5.0', label);
        assert.equal(install.namespace, 'default', label);
        assert.deepEqual(install.valuesFiles, [], label);
        const values = parse(outputOf({ ...raw, output: 'helm-values' }).files[0].text);
        assert.deepEqual(install.values, values, label);
        assert.deepEqual(validateSchema(install.values, inferencePoolChartValues), [], label);
        assert.deepEqual(validateInferencePool(renderedInferencePool(install.values, install.release, 'default')), []);
      }
    }
  });
}

test('the provider: none on GKE (Hitless writes the two policies itself), istio on Istio, none elsewhere', () => {
  const provider = (gateway: string) => (statedInstalls(outputOf({ gateway }).text)[0].values as Obj).provider.name;
  assert.equal(provider('gke'), 'none');
  assert.equal(provider('istio'), 'istio');
  for (const gateway of ['agentgateway', 'nginx-gateway-fabric', 'envoy-ai-gateway', 'kgateway', 'custom'])
    assert.equal(provider(gateway), 'none', gateway);
  const gke = outputOf({}).text;
  assert.match(
    gke,
    /# provider\.name none on purpose: the chart’s gke provider would add its own HealthCheckPolicy and GCPBackendPolicy,\n# with the same names and a fixed 300s backend timeout/,
  );
  assert.match(
    outputOf({ gateway: 'istio' }).text,
    /# provider\.name istio: the chart adds what Istio needs to reach the Endpoint Picker\./,
  );
});

test('names Helm would read as another type stay text: --set-string for the selector, release and namespace as given', () => {
  // Helm's --set reads null as "delete the key", true as a boolean and 123 as a number (strvals typedVal). A name
  // starts with a letter (next test); a namespace may be all digits.
  for (const [name, namespace] of [
    ['null', 'false'],
    ['true', '123'],
    ['false', '0x1f'],
  ]) {
    const [install] = statedInstalls(outputOf({ name, namespace }).text);
    assert.equal(install.release, name);
    assert.equal(install.namespace, namespace);
    assert.deepEqual((install.values as Obj).inferencePool.modelServers, { matchLabels: { app: name } }, name);
  }
});

test('a name starting with a digit is refused by every form, naming the flag: the chart\u2019s picker Service could not exist', () => {
  // Kubernetes validates a Service's name as an RFC 1035 label (a letter first); the chart names it <release>-epp.
  for (const output of ['bundle', 'lws', 'patch', 'helm-values'])
    assert.throws(
      () => outputOf({ name: '1chat', output, ...(output === 'lws' ? MULTI : {}) }),
      (error: unknown) =>
        error instanceof OutputError
        && error.flag === 'name'
        && /must start with a letter .* Endpoint Picker Service 1chat-epp/.test(error.message),
      output,
    );
  assert.equal(statedInstalls(outputOf({ name: 'chat1' }).text)[0].release, 'chat1');
});

test('a release over 40 characters: the header names the picker as the chart cuts it', () => {
  const name = `${'a'.repeat(41)}-pool`;
  const text = outputOf({ name }).text;
  assert.match(text, new RegExp(`Deployment and Service ${'a'.repeat(40)}-epp,`));
  assert.equal(statedInstalls(text)[0].release, name);
});

test('the inputs flow into the install: port, Endpoint Picker port, failure mode, namespace; no type for TGI', () => {
  const [install] = statedInstalls(
    outputOf({
      'model-server': 'tgi',
      name: 'chat',
      namespace: 'serving',
      port: '9000',
      'epp-port': '9100',
      'failure-mode': 'FailOpen',
    }).text,
  );
  assert.deepEqual(install, {
    release: 'chat',
    chart: CHART,
    version: 'v1.5.0',
    namespace: 'serving',
    valuesFiles: [],
    values: {
      // The chart knows vllm, sglang, triton-tensorrt-llm and trtllm-serve (values.yaml): TGI gets none.
      inferencePool: { modelServers: { matchLabels: { app: 'chat' } }, targetPorts: [{ number: 9000 }] },
      inferenceExtension: { extProcPort: 9100, failureMode: 'FailOpen' },
      provider: { name: 'none' },
    },
  });
});

test('lws: the header states the install over the leaders, and the route note after it', () => {
  const text = outputOf({ output: 'lws', gateway: 'kgateway', ...MULTI }).text;
  assert.match(
    text,
    /over the leader pods of LeaderWorkerSet vllm-qwen3-32b \(label app: vllm-qwen3-32b\)\n[^\n]*\n# {3}helm install [^\n]*\n# kgateway cuts a request after 15s [^\n]*timeouts\.request: 738s/,
  );
});

test('patch: the kustomization names the pool and picker it expects, and the install where there is none', () => {
  const out = outputOf({ output: 'patch' });
  const kustomization = out.files.find((f) => f.name === 'kustomization.yaml')!.text;
  assert.match(
    kustomization,
    /# drain-objects\.yaml targets the InferencePool vllm-qwen3-32b, whose Endpoint Picker is Service vllm-qwen3-32b-epp,\n/,
  );
  assert.match(kustomization, /the selector assumes your pods carry the label app: vllm-qwen3-32b/);
  assert.equal(statedInstalls(kustomization).length, 1);
  // Istio: no gateway objects, only the budget in drain-objects.yaml.
  const istio = outputOf({ output: 'patch', gateway: 'istio' }).files[0].text;
  assert.match(istio, /# The gateway sends requests through the InferencePool vllm-qwen3-32b,/);
});

test('no form writes an InferencePool of its own: the install\u2019s is the only one', () => {
  for (const output of ['bundle', 'lws', 'patch', 'helm-values']) {
    const docs = outputOf({ output, ...(output === 'lws' ? MULTI : {}) }).files.flatMap((f) =>
      f.text.split(/^---$/m).map((part) => parse(part) as Obj | null),
    );
    assert.ok(!docs.some((d) => d?.kind === 'InferencePool'), output);
  }
});
