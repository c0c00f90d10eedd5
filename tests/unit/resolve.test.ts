// Input validation: every bad value gets a message naming the field and its allowed range.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedInputs, resolveInputs } from '../../src/model/resolve.ts';
import { profiles } from '../support/drain.ts';

const errorOf = (raw: Record<string, unknown>) => {
  const { errors } = resolveInputs(raw, profiles);
  assert.equal(errors.length, 1, JSON.stringify(errors));
  return errors[0];
};

test('numbers out of range name the flag and the range', () => {
  assert.deepEqual(errorOf({ replicas: '0' }), {
    flag: 'replicas',
    message: 'replicas must be a whole number from 1 to 1,000 (got "0")',
  });
  assert.equal(errorOf({ 'tpot-ms': '-1' }).message, 'tpot-ms must be a number from 0.1 to 10,000 (got "-1")');
  assert.equal(
    errorOf({ 'max-output-tokens': '2.5' }).message,
    'max-output-tokens must be a whole number from 1 to 1,000,000 (got "2.5")',
  );
});

test('text that is not a number is rejected, including NaN, Infinity and exponents', () => {
  for (const bad of ['abc', 'NaN', 'Infinity', '1e3', '', ' ', '0x10', '5s']) {
    const { errors } = resolveInputs({ 'removal-seconds': bad }, profiles);
    if (bad.trim() === '') assert.equal(errors.length, 0, 'blank means not given');
    else assert.match(errors[0]?.message ?? '', /^removal-seconds must be a number from 0 to 600/, bad);
  }
  assert.match(errorOf({ 'removal-seconds': Number.NaN }).message, /removal-seconds must be a number/);
});

test('profiles, enums and versions list what is allowed', () => {
  assert.match(
    errorOf({ gateway: 'traefik' }).message,
    /^gateway must be one of gke, istio, agentgateway, nginx-gateway-fabric, envoy-ai-gateway, kgateway, custom/,
  );
  assert.equal(
    errorOf({ 'failure-mode': 'open' }).message,
    'failure-mode must be one of FailClose, FailOpen (got "open")',
  );
  assert.equal(
    errorOf({ 'kubernetes-version': '1.9' }).message,
    'kubernetes-version must be a Kubernetes version from 1.25 to 1.40, such as 1.34 (got "1.9")',
  );
});

test('names must be DNS labels, and hostile strings are quoted in the message', () => {
  const e = errorOf({ name: 'bad\nname: x' });
  assert.equal(e.flag, 'name');
  assert.match(
    e.message,
    /^name must be lower-case letters, digits and "-", starting and ending with a letter or digit, 1 to 53 characters \(got "bad\\nname: x"\)$/,
  );
  assert.match(errorOf({ namespace: 'Prod' }).message, /^namespace must be/);
  assert.match(errorOf({ model: 'a b' }).message, /^model must be a model id such as Qwen\/Qwen3-32B/);
  assert.match(errorOf({ image: 'x" # y' }).message, /^image must be an image reference/);
});

test('unknown inputs are errors', () => {
  assert.deepEqual(errorOf({ 'grace-seconds': 5 }), {
    flag: 'grace-seconds',
    message: '"grace-seconds" is not an input of the drain model',
  });
});

test('a derived request longer than a day is refused', () => {
  // 1,000,000 tokens × 100 ms × 1.2 = 120,000 s > 86,400 s
  const e = errorOf({ 'max-output-tokens': 1000000, 'tpot-ms': 100 });
  assert.equal(e.flag, 'max-output-tokens');
  assert.match(e.message, /gives a 120000 s request, above the 86,400 s limit/);
});

test('bad values fall back to defaults so pages can go on', () => {
  const { inputs } = resolveInputs({ replicas: 'many', gateway: 'istio' }, profiles);
  assert.equal(inputs.replicas, 3);
  assert.equal(inputs.gateway, 'istio');
});

test('the default name follows the model server and model, unless a name is given', () => {
  const nameOf = (raw: Record<string, string>) => resolveInputs(raw, profiles).inputs.name;
  assert.equal(nameOf({}), 'vllm-qwen3-32b');
  assert.equal(nameOf({ 'model-server': 'sglang' }), 'sglang-qwen3-32b');
  // llama.cpp's preset model Qwen/Qwen3-32B-GGUF:Q4_K_M: its last segment, ':' and '_' each a '-'.
  assert.equal(nameOf({ 'model-server': 'llamacpp' }), 'llamacpp-qwen3-32b-gguf-q4-k-m');
  assert.equal(nameOf({ model: 'meta-llama/Llama-3.1-8B-Instruct' }), 'vllm-llama-3-1-8b-instruct');
  assert.equal(nameOf({ 'model-server': 'sglang', name: 'mine' }), 'mine');
  // A derived name is not an input the reader changed; a given one is.
  const changed = (raw: Record<string, string>) =>
    changedInputs(resolveInputs(raw, profiles).inputs, profiles).map(([flag]) => flag);
  assert.deepEqual(changed({ 'model-server': 'sglang' }), ['model-server']);
  assert.deepEqual(changed({ 'model-server': 'sglang', name: 'mine' }), ['model-server', 'name']);
});

test("an image another server's data names is refused for this server: its command line would not start there", () => {
  assert.deepEqual(errorOf({ image: 'lmsysorg/sglang:v0.5.2' }), {
    flag: 'image',
    message: 'image lmsysorg/sglang:v0.5.2 runs SGLang, not vLLM: choose model-server sglang, or an image of vLLM',
  });
  assert.match(
    errorOf({ image: 'docker.io/ollama/ollama:0.12.3' }).message,
    /^image docker\.io\/ollama\/ollama:0\.12\.3 runs Ollama, which the generator has no profile for \(content\/other-servers\/ollama\.yaml\)/,
  );
  // The refused image is replaced with the server's own, so what is emitted still starts.
  assert.equal(resolveInputs({ image: 'lmsysorg/sglang:v0.5.2' }, profiles).inputs.image, 'vllm/vllm-openai:v0.18.1'); // content/model-servers/vllm.yaml image
  for (const ok of [
    { image: 'lmsysorg/sglang:v0.5.2', 'model-server': 'sglang' },
    { image: 'registry.example.com/mirror/vllm/vllm-openai:v0.19.0' },
    { image: 'example.com/team/our-llm:3' },
  ])
    assert.deepEqual(resolveInputs(ok, profiles).errors, [], JSON.stringify(ok));
});
