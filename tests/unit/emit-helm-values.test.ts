// The helm-values output form against GIE's inferencepool chart at v1.5.0, as tests/fixtures/charts describes it
// from reading the chart: the values validate, every value sits at a path the chart reads, and the InferencePool the
// chart renders from them, beside the form's model-server.yaml, checks clean with hitless check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { emitOutput } from '../../src/emit/output.ts';
import { checkManifest } from '../../src/check/index.ts';
import { readOutputFacts } from '../../src/facts/read-output-files.ts';
import { validateSchema } from '../support/structural-schema.ts';
import { validateInferencePool } from '../support/inference-pool-schema.ts';
import { manifestErrors } from '../support/manifest-check.ts';
import { profiles } from '../support/generate.ts';
import { inferencePoolChartValues, renderedInferencePool } from '../fixtures/charts/gie-inferencepool-v1.5.0.ts';

const facts = readOutputFacts();

function helm(raw: Record<string, string>) {
  const { inputs, errors } = resolveInputs({ output: 'helm-values', ...raw }, profiles);
  assert.deepEqual(errors, []);
  const planned = plan(inputs, profiles);
  const out = emitOutput(planned, inputs, profiles, facts);
  const text = (name: string) => out.files.find((f) => f.name === name)!.text;
  return {
    inputs,
    planned,
    out,
    values: parse(text('values.yaml')),
    valuesText: text('values.yaml'),
    beside: text('model-server.yaml'),
  };
}

test('the default values, worked out by hand: the pool\u2019s labels and port, vLLM, FailClose, no provider on GKE', () => {
  assert.deepEqual(helm({}).values, {
    inferencePool: {
      modelServers: { matchLabels: { app: 'vllm-qwen3-32b' } },
      targetPorts: [{ number: 8000 }],
      modelServerType: 'vllm',
    },
    inferenceExtension: { extProcPort: 9002, failureMode: 'FailClose' },
    provider: { name: 'none' },
  });
});

for (const gateway of profiles.gateways) {
  for (const server of profiles.modelServers) {
    test(`helm values validate against the chart\u2019s values and render a pool that checks clean: ${gateway.id} + ${server.id}`, async () => {
      const raw = { gateway: gateway.id, 'model-server': server.id };
      const { values, beside, inputs, planned } = helm(raw);
      assert.deepEqual(validateSchema(values, inferencePoolChartValues), []);
      const pool = renderedInferencePool(values, inputs.name, inputs.namespace);
      assert.deepEqual(validateInferencePool(pool), []);
      const text = `${beside}---\n${stringify(pool)}`;
      assert.deepEqual((await manifestErrors(text)).errors, []);
      const result = checkManifest(text, { gateway: gateway.id }, profiles);
      assert.ok(result.ok, result.ok ? '' : result.problem.message);
      const planCodes = new Set<string>(planned.warnings.map((w) => w.code));
      assert.deepEqual(
        result.report.findings
          .filter((f) => f.severity === 'error' || (f.severity === 'warning' && !planCodes.has(f.code)))
          .map((f) => `${f.severity} ${f.code}: ${f.message}`),
        [],
      );
      assert.ok(!result.report.findings.some((f) => f.code === 'no-pool' || f.code === 'pool-selector-mismatch'));
    });
  }
}

test('model-server.yaml carries no InferencePool: the chart makes the one the gateway uses', () => {
  const kinds = parseAllDocuments(helm({}).beside).map((d) => d.toJS().kind);
  assert.ok(kinds.includes('Deployment'));
  assert.ok(!kinds.includes('InferencePool'));
});

test('Istio gets the chart\u2019s istio provider; a server the chart has no type for gets none, with a note', () => {
  const { values, valuesText } = helm({ gateway: 'istio', 'model-server': 'tgi' });
  assert.equal(values.provider.name, 'istio');
  assert.equal(values.inferencePool.modelServerType, undefined);
  assert.match(valuesText, /no modelServerType for Hugging Face TGI/);
  assert.equal(helm({ 'model-server': 'triton' }).values.inferencePool.modelServerType, 'triton-tensorrt-llm');
});

test('on GKE the values say why provider.name stays none: the chart\u2019s 300 s backend timeout against the plan\u2019s', () => {
  const { valuesText, planned } = helm({});
  assert.ok(planned.gatewayRequestTimeoutSeconds! > 300);
  assert.match(
    valuesText,
    new RegExp(`fixed at\\n\\s*# 300s \\(the plan needs ${planned.gatewayRequestTimeoutSeconds}s`),
  );
});

test('a grace period over the chart\u2019s fixed 130 s for the Endpoint Picker says what to do by hand; a short one says nothing', () => {
  assert.match(helm({}).valuesText, /fixed 130s grace period/);
  const short = helm({ 'max-request-seconds': '20', 'removal-seconds': '5' });
  assert.ok(short.planned.terminationGracePeriodSeconds <= 130, `grace ${short.planned.terminationGracePeriodSeconds}`);
  assert.doesNotMatch(short.valuesText, /fixed 130s/);
});

test('a release name over 40 characters: the header names the Endpoint Picker as the chart cuts it', () => {
  const name = 'a'.repeat(45);
  const { valuesText, values } = helm({ name });
  assert.match(valuesText, new RegExp(`Service ${'a'.repeat(40)}-epp\\.`));
  assert.equal(
    (renderedInferencePool(values, name, 'default').spec as { endpointPickerRef: { name: string } }).endpointPickerRef
      .name,
    `${'a'.repeat(40)}-epp`,
  );
});

test('the values follow the inputs: port, Endpoint Picker port and FailOpen', () => {
  const { values } = helm({ port: '9000', 'epp-port': '9100', 'failure-mode': 'FailOpen' });
  assert.deepEqual(values.inferencePool.targetPorts, [{ number: 9000 }]);
  assert.deepEqual(values.inferenceExtension, { extProcPort: 9100, failureMode: 'FailOpen' });
});

test('the chart facts file agrees with the fixture written from the chart', () => {
  const chart = facts.chart;
  const schemaTypes = inferencePoolChartValues.properties!.inferencePool.properties!.modelServerType.enum;
  assert.deepEqual([...chart.modelServerTypes].sort(), [...schemaTypes!].sort());
  assert.deepEqual(
    [...chart.providers].sort(),
    [...inferencePoolChartValues.properties!.provider.properties!.name.enum!].sort(),
  );
  assert.equal(chart.repository, 'oci://registry.k8s.io/gateway-api-inference-extension/charts/inferencepool');
  assert.equal(chart.release, 'v1.5.0');
});
