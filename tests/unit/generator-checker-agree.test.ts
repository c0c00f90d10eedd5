// The generator and the checker agree: for the same inputs, the checker reads the generator's manifest back to the
// same plan (every number), reports the plan's own warnings with the same severities and nothing else at warning
// or error, and names the reader's model and server in its messages, never a fixed example model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { emitManifest } from '../../src/emit/bundle.ts';
import { check, profiles } from '../support/check.ts';
import { chart } from '../support/chart.ts';

/** Inputs that change the manifest's shape; the checker gets the settings it cannot read from the manifest. */
const CASES: Record<string, string>[] = [
  { gateway: 'gke', 'model-server': 'vllm', model: 'meta-llama/Llama-3.1-8B-Instruct', name: 'llama', 'tpot-ms': '30' },
  {
    gateway: 'istio',
    'model-server': 'sglang',
    model: 'org/sglang-model',
    'gpus-per-replica': '8',
    'spare-gpus': '8',
    'tpot-ms': '20',
  },
  { gateway: 'kgateway', 'model-server': 'tgi', model: 'org/tgi-model', replicas: '5', 'max-request-seconds': '120' },
  { gateway: 'nginx-gateway-fabric', 'model-server': 'triton', 'kubernetes-version': '1.29', 'tpot-ms': '15' },
  {
    gateway: 'agentgateway',
    'model-server': 'llamacpp',
    model: 'org/small-GGUF:Q8_0',
    'gpus-per-replica': '2',
    'tpot-ms': '40',
  },
];

/** The plan's numbers, without its words. */
function numbersOf(p: ReturnType<typeof plan>): Record<string, unknown> {
  const { warnings, derivation, ...numbers } = p;
  void warnings;
  void derivation;
  return numbers;
}

for (const raw of CASES) {
  test(`generator and checker agree for ${JSON.stringify(raw)}`, () => {
    const { inputs, errors } = resolveInputs(raw, profiles);
    assert.deepEqual(errors, []);
    const generated = plan(inputs, profiles);
    const manifest = emitManifest(generated, inputs, profiles, chart);
    // The checker reads model, names, GPUs and probes from the manifest; it gets the rest as settings.
    const settings: Record<string, string> = {};
    for (const [flag, value] of Object.entries(raw)) if (!['model', 'name'].includes(flag)) settings[flag] = value;
    const report = check(manifest, { 'tpot-ms': String(inputs.tpotMs), ...settings });
    assert.equal(report.inputs.modelServer, inputs.modelServer);
    assert.equal(report.inputs.model, inputs.model);
    const checked = plan(report.inputs, profiles);
    assert.deepEqual(numbersOf(checked), numbersOf(generated), 'the checker plans the same numbers');
    const planned = new Map<string, string>(generated.warnings.map((w) => [w.code, w.severity]));
    const loud = report.findings.filter((f) => f.severity === 'error' || f.severity === 'warning');
    assert.deepEqual(
      loud.filter((f) => planned.get(f.code) !== f.severity).map((f) => `${f.severity} ${f.code}: ${f.message}`),
      [],
      'no error or warning beyond the plan\u2019s own, at the plan\u2019s severity',
    );
    assert.deepEqual(
      checked.warnings.map((w) => `${w.severity} ${w.code}`),
      generated.warnings.map((w) => `${w.severity} ${w.code}`),
    );
    // Messages name this model, never the example one (the tpot default's own source names the model it was measured on).
    for (const text of [
      ...report.findings.map((f) => f.message),
      ...generated.warnings.filter((w) => w.code !== 'tpot-default-other-model').map((w) => w.message),
    ]) {
      if (!inputs.model.includes('Qwen3-32B')) assert.doesNotMatch(text, /Qwen3-32B/, text);
    }
  });
}

test('a case with no plan warnings checks with no warning or error at all', () => {
  const raw = { gateway: 'gke', 'model-server': 'vllm', 'removal-seconds': '30', 'tpot-ms': '10' };
  const { inputs } = resolveInputs(raw, profiles);
  const generated = plan(inputs, profiles);
  assert.deepEqual(
    generated.warnings.filter((w) => w.severity !== 'info').map((w) => w.code),
    [],
  );
  const report = check(emitManifest(generated, inputs, profiles, chart), raw);
  assert.equal(report.counts.error, 0);
  assert.equal(report.counts.warning, 0, report.findings.map((f) => `${f.severity} ${f.code}`).join(', '));
});
