// Which model server a pod runs, and the settings the manifest states (the generator link's inputs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settingErrors } from '../../src/check/workload/settings.ts';
import { check, codes, docs, only, pool, profiles, vllm } from '../support/check.ts';

const found = (text: string, settings: Record<string, string> = {}) =>
  Object.fromEntries(check(text, settings).found.map((f) => [f.flag, f.value]));

test('vLLM is told by its image from any registry, by `vllm serve`, and by the engine-type label', () => {
  assert.equal(
    check(vllm({ image: 'image: registry.local:5000/mirror/vllm-openai:v0.18.1', command: '' })).inputs.modelServer,
    'vllm',
  );
  const serve = vllm({
    image: 'image: example.com/llm:1',
    command: 'command: ["vllm", "serve", "Qwen/Qwen3-8B"]',
    args: 'args: ["--shutdown-timeout=75"]',
  });
  assert.equal(check(serve).inputs.modelServer, 'vllm');
  assert.equal(found(serve).model, 'Qwen/Qwen3-8B');
  const labelled = vllm({
    image: 'image: example.com/llm:1',
    command: '',
    labels: 'labels:\n        app: m\n        inference.networking.k8s.io/engine-type: vllm',
  });
  assert.equal(check(labelled).inputs.modelServer, 'vllm');
});

test('SGLang, TGI, Triton and llama.cpp are told by their images and commands', () => {
  const server = (image: string, command = '') =>
    check(vllm({ image: `image: ${image}`, command, args: '' })).inputs.modelServer;
  assert.equal(server('lmsysorg/sglang:v0.5.0'), 'sglang');
  assert.equal(server('example.com/x:1', 'command: ["python3", "-m", "sglang.launch_server"]'), 'sglang');
  assert.equal(server('ghcr.io/huggingface/text-generation-inference:3.0'), 'tgi');
  assert.equal(server('nvcr.io/nvidia/tritonserver:25.05-trtllm-python-py3'), 'triton');
  assert.equal(server('ghcr.io/ggml-org/llama.cpp:server-cuda'), 'llamacpp');
});

test('the model-server setting wins over what the manifest looks like', () => {
  assert.equal(check(vllm(), { 'model-server': 'sglang' }).inputs.modelServer, 'sglang');
});

test('the manifest states the name, namespace, image, model, port, replicas, GPUs and probes', () => {
  const text = docs(
    vllm({ args: 'args: ["--model", "Qwen/Qwen3-32B", "--shutdown-timeout=75"]' }).replace(
      'name: m\n',
      'name: m\n  namespace: llm\n',
    ),
    pool()
      .replace('name: m\n', 'name: m\n  namespace: llm\n')
      .replace('number: 9002', 'number: 9003\n    failureMode: FailOpen'),
  );
  assert.deepEqual(found(text), {
    'model-server': 'vllm',
    image: 'vllm/vllm-openai:v0.18.1',
    model: 'Qwen/Qwen3-32B',
    name: 'm',
    namespace: 'llm',
    port: '8000',
    replicas: '3',
    'gpus-per-replica': '1',
    'readiness-period-seconds': '5',
    'readiness-failure-threshold': '3',
    'liveness-period-seconds': '10',
    'liveness-failure-threshold': '3',
    'startup-period-seconds': '10',
    'failure-mode': 'FailOpen',
    'epp-port': '9003',
  });
});

test('the generator link carries what differs from the defaults, the reader\u2019s settings included', () => {
  const report = check(vllm({ replicas: 'replicas: 2' }), { gateway: 'istio', 'max-output-tokens': '8192' });
  const query = new URLSearchParams(report.generator!.query);
  assert.equal(query.get('v'), '2');
  assert.equal(query.get('gateway'), 'istio');
  assert.equal(query.get('max-output-tokens'), '8192');
  assert.equal(query.get('replicas'), '2');
  assert.equal(query.get('name'), 'm');
  assert.equal(query.get('model'), null, 'Qwen/Qwen3-32B is the generator\u2019s default model');
  assert.equal(query.get('readiness-period-seconds'), null, 'the 5 s readiness period is the vLLM default');
  assert.match(report.generator!.flags, /^--gateway istio --max-output-tokens 8192 /);
});

test('a found value the drain model does not accept is left out of the settings', () => {
  const long = vllm().replace('name: m\n', `name: ${'a'.repeat(60)}\n`);
  assert.equal(found(long).name, 'a'.repeat(60));
  assert.equal(new URLSearchParams(check(long).generator!.query).get('name'), null);
});

test('a workload that runs no model server is skipped with a note', () => {
  const web =
    'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers: [{name: nginx, image: nginx:1.27}]\n';
  const report = check(web);
  assert.deepEqual(codes(report), ['workload-skipped']);
  assert.equal(report.workloads, 0);
});

test('settings the manifest states are refused as settings, and bad values name their range', () => {
  assert.deepEqual(
    settingErrors({ image: 'x', 'readiness-period-seconds': '5' }, profiles).map((e) => e.flag),
    ['image', 'readiness-period-seconds'],
  );
  assert.match(
    settingErrors({ 'max-output-tokens': '0' }, profiles)[0].message,
    /max-output-tokens must be a whole number from 1 to 1,000,000/,
  );
  assert.deepEqual(settingErrors({ gateway: 'gke', 'spare-gpus': '2' }, profiles), []);
});

test('an unknown server on Ascend NPUs or Neuron devices is a model-server workload', () => {
  const deployment = (resource: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: engine
spec:
  template:
    spec:
      containers:
        - name: engine
          image: example.com/engine:1.0
          resources:
            limits:
              ${resource}: "2"
`;
  for (const resource of [
    'huawei.com/ascend-1980',
    'huawei.com/Ascend910',
    'aws.amazon.com/neuron',
    'habana.ai/gaudi',
  ]) {
    const report = check(deployment(resource));
    assert.equal(report.workloads, 1, resource);
    assert.ok(codes(report).includes('prestop-missing'), resource);
  }
  // A resource that only looks like one is not an accelerator.
  assert.equal(check(deployment('example.com/ascend')).workloads, 0);
});

test('AMD\u2019s rocm/vllm image: the release after _vllm_ in its tag is read; args alone are not taken to start vLLM', () => {
  const image = 'rocm/vllm:rocm7.12.0_gfx950-dcgpu_ubuntu24.04_py3.12_pytorch_2.9.1_vllm_0.16.0';
  const deployment = (start: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: m
spec:
  template:
    spec:
      containers:
        - name: s
          image: ${image}
          ${start}
          resources:
            limits:
              amd.com/gpu: 1
`;
  // vLLM 0.16.0 predates --shutdown-timeout (0.18.0, content/model-servers/vllm.yaml).
  const served = check(deployment('command: ["vllm", "serve", "Qwen/Qwen3-8B"]'));
  assert.ok(codes(served).includes('drain-flag-too-old'));
  assert.ok(!codes(served).includes('drain-flag-release-unknown'));
  // AMD starts the image with bash: with args only, no server is named, so no vLLM rule runs.
  const argsOnly = check(deployment('args: ["--model", "Qwen/Qwen3-8B"]'));
  assert.ok(!codes(argsOnly).includes('drain-flag-too-old'));
  assert.ok(codes(argsOnly).includes('model-server-unknown'));
});

test('vLLM\u2019s own ROCm and CPU images: started by their entrypoint, the release read from v<release> tags only', () => {
  // publish-release-images.sh tags vllm/vllm-openai-rocm:v<release> (and a -base image), vllm/vllm-openai-cpu:v<release>
  // and v<release>-x86_64 / -arm64; the install guides run both with the server's arguments after the image.
  const deployment = (image: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: m
spec:
  template:
    spec:
      containers:
        - name: s
          image: ${image}
          args: ["Qwen/Qwen3-8B", "--port", "8000"]
          ports: [{containerPort: 8000}]
          resources:
            limits:
              amd.com/gpu: 1
`;
  // 0.19.0 has --shutdown-timeout (from 0.18.0): the flag is missing and can be written.
  for (const image of ['vllm/vllm-openai-rocm:v0.19.0', 'vllm/vllm-openai-cpu:v0.19.0-arm64']) {
    const report = check(deployment(image));
    assert.ok(codes(report).includes('drain-aborts-in-flight'), image);
    assert.equal(only(report, 'drain-aborts-in-flight').remedy, 'applied', image);
  }
  // 0.16.0 predates it; the -base image names no release of a server.
  assert.ok(codes(check(deployment('vllm/vllm-openai-rocm:v0.16.0'))).includes('drain-flag-too-old'));
  assert.ok(codes(check(deployment('vllm/vllm-openai-rocm:v0.19.0-base'))).includes('drain-flag-release-unknown'));
});

test('Red Hat AI Inference Server\u2019s image starts vLLM by its entrypoint, and its product-version tag names no vLLM release', () => {
  // Red Hat's guide: podman run … registry.redhat.io/rhaiis/vllm-cuda-rhel9:3.1.0 --model … (arguments after the image).
  const report = check(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: m
spec:
  template:
    spec:
      containers:
        - name: s
          image: registry.redhat.io/rhaiis/vllm-cuda-rhel9:3.1.0
          args: ["--model", "RedHatAI/Llama-3.2-1B-Instruct-FP8", "--port", "8000"]
          ports: [{containerPort: 8000}]
          resources:
            limits:
              nvidia.com/gpu: 1
`);
  assert.ok(!codes(report).includes('model-server-unknown'), 'vLLM is recognised');
  // 3.1.0 is not vLLM 3.1.0: whether --shutdown-timeout exists is not known, so it is not written.
  assert.ok(codes(report).includes('drain-flag-release-unknown'));
  assert.equal(only(report, 'drain-aborts-in-flight').remedy, 'manual');
});
