/**
 * Random workloads for the checker's property test: a kind (the ones the checker reads, the built-in ones it
 * does not, a controller CR), one to three containers with a server image at some release, a way of starting it
 * (args to the entrypoint, an exec-form command, `sh -c` with one command, a `bash -c` script that execs or that
 * does not), probes and hooks with one handler each in block or flow style, a grace period, replicas, an
 * InferencePool now and then. Every generated manifest is one a cluster accepts; what the fix does to it is the test.
 */
import fc from 'fast-check';

const IMAGES = [
  'vllm/vllm-openai:v0.8.5',
  'vllm/vllm-openai:v0.18.1',
  'vllm/vllm-openai:v0.19.1',
  'vllm/vllm-openai:latest',
  'vllm/vllm-tpu:v0.19.1',
  'rocm/vllm:rocm6.2_mi300_ubuntu20.04_py3.9_vllm_0.6.4',
  'quay.io/modh/vllm:rhoai-2.20-cuda',
  'lmsysorg/sglang:v0.5.2',
  'ghcr.io/huggingface/text-generation-inference:3.3.5',
  'ghcr.io/huggingface/text-generation-inference:2.0.4',
  'nvcr.io/nvidia/tritonserver:25.05-trtllm-python-py3',
  'ghcr.io/ggml-org/llama.cpp:server-b5000',
  'ghcr.io/llm-d/llm-d-inference-sim:v0.8.2',
  'docker.io/istio/proxyv2:1.26.0',
  'registry.example.com/custom/server:1.0',
];

/** How the container starts its server: the YAML lines of command and args (indented by the caller). */
const LAUNCHERS: ((server: string) => string[])[] = [
  () => [],
  (s) => [`args: ["--model", "Qwen/Qwen3-8B", "--port", "8000"${s === 'vllm' ? ', "--max-model-len", "8192"' : ''}]`],
  () => ['command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]', 'args:', '- --model', '- Qwen/Qwen3-8B'],
  () => [
    'command: ["python3", "-m", "sglang.launch_server"]',
    'args: ["--model-path", "Qwen/Qwen3-8B", "--port", "8000"]',
  ],
  () => ['command: ["/bin/sh", "-c"]', 'args: ["vllm serve Qwen/Qwen3-8B --port 8000"]'],
  () => ['command: ["bash", "-c"]', 'args:', '- |', '  export A=1', '  exec vllm serve $(MODEL_ID) --port 8000'],
  () => [
    'command: ["bash", "-c"]',
    'args:',
    '- |',
    '  pip install x',
    '  vllm serve Qwen/Qwen3-8B --port 8000 --nnodes 2',
  ],
  () => ['command: ["text-generation-launcher"]', 'args: ["--model-id", "m", "--port", "8080"]'],
  () => ['args: ["tritonserver", "--model-store=/m", "--http-port=8000"]'],
  () => ['command: ["/app/llama-server", "-m", "/m.gguf", "--port", "8000"]'],
];

/** A handler, in block (lines) or flow (one line) style. */
const HANDLERS = {
  httpGet: ['httpGet:', '  path: /health', '  port: 8000'],
  httpGetFlow: ['httpGet: {path: /v1/models, port: http}'],
  tcpSocket: ['tcpSocket:', '  port: 8000'],
  exec: ['exec:', '  command: ["/bin/sh", "-c", "curl -f localhost:8000/health"]'],
  grpc: ['grpc:', '  port: 9000'],
  sleep: ['sleep:', '  seconds: 20'],
  sleepFlow: ['sleep: {seconds: 45}'],
  execSleep: ['exec:', '  command: ["/bin/sleep", "30"]'],
};
type Handler = keyof typeof HANDLERS;
const PROBE_HANDLERS: Handler[] = ['httpGet', 'httpGetFlow', 'tcpSocket', 'exec', 'grpc'];
const HOOK_HANDLERS: Handler[] = ['httpGet', 'tcpSocket', 'sleep', 'sleepFlow', 'execSleep', 'exec'];

const indent = (lines: string[], n: number) => lines.map((l) => `${' '.repeat(n)}${l}`);

const container = fc.record({
  image: fc.constantFrom(...IMAGES),
  launcher: fc.nat(LAUNCHERS.length - 1),
  readiness: fc.option(fc.constantFrom(...PROBE_HANDLERS), { nil: undefined }),
  liveness: fc.option(fc.constantFrom(...PROBE_HANDLERS), { nil: undefined }),
  startup: fc.option(fc.constantFrom(...PROBE_HANDLERS), { nil: undefined }),
  preStop: fc.option(fc.constantFrom(...HOOK_HANDLERS), { nil: undefined }),
  postStart: fc.option(fc.constantFrom('exec' as Handler, 'httpGet' as Handler), { nil: undefined }),
  gpus: fc.constantFrom(0, 1, 8),
  namedPort: fc.boolean(),
});
type ContainerSpec = typeof container extends fc.Arbitrary<infer T> ? T : never;

function containerLines(c: ContainerSpec, i: number): string[] {
  const server = c.image.includes('sglang') ? 'sglang' : c.image.includes('vllm') ? 'vllm' : 'other';
  const lines = [`- name: c${i}`, `  image: ${c.image}`, ...indent(LAUNCHERS[c.launcher](server), 2)];
  if (c.launcher === 5) lines.push('  env:', '  - name: MODEL_ID', '    value: Qwen/Qwen3-8B');
  lines.push('  ports:', `  - containerPort: ${8000 + i}`, ...(c.namedPort ? ['    name: http'] : []));
  if (c.preStop || c.postStart) {
    lines.push('  lifecycle:');
    if (c.preStop) lines.push('    preStop:', ...indent(HANDLERS[c.preStop], 6));
    if (c.postStart) lines.push('    postStart:', ...indent(HANDLERS[c.postStart], 6));
  }
  for (const [key, h] of [
    ['readinessProbe', c.readiness],
    ['livenessProbe', c.liveness],
    ['startupProbe', c.startup],
  ] as const) {
    if (!h) continue;
    // A named port the container does not declare would be refused by the kubelet: name it only when declared.
    const handler = h === 'httpGetFlow' && !c.namedPort ? HANDLERS.httpGet : HANDLERS[h];
    lines.push(`  ${key}:`, ...indent(handler, 4), '    periodSeconds: 5');
  }
  if (c.gpus) lines.push('  resources:', '    limits:', `      nvidia.com/gpu: ${c.gpus}`);
  return lines;
}

/** A pod spec's lines (containers, grace), indented by the caller. */
function podSpec(containers: ContainerSpec[], grace: number | undefined): string[] {
  return [
    ...(grace === undefined ? [] : [`terminationGracePeriodSeconds: ${grace}`]),
    'containers:',
    ...containers.flatMap((c, i) => containerLines(c, i)),
  ];
}

const KINDS = [
  'Deployment',
  'StatefulSet',
  'LeaderWorkerSet',
  'LLMInferenceService',
  'ReplicaSet',
  'Job',
  'Pod',
  'InferenceService',
] as const;

/** One random manifest, as text, with the choices that made it (for the failure message). */
export const randomWorkload = fc
  .record({
    kind: fc.constantFrom(...KINDS),
    containers: fc.array(container, { minLength: 1, maxLength: 3 }),
    workers: fc.array(container, { minLength: 1, maxLength: 1 }),
    grace: fc.option(fc.constantFrom(0, 30, 130, 600, 9000), { nil: undefined }),
    replicas: fc.option(fc.constantFrom(1, 2, 3, 8), { nil: undefined }),
    pool: fc.boolean(),
  })
  .map((w) => ({ ...w, text: render(w) }));

function render(w: {
  kind: (typeof KINDS)[number];
  containers: ContainerSpec[];
  workers: ContainerSpec[];
  grace?: number;
  replicas?: number;
  pool: boolean;
}): string {
  const head = (apiVersion: string) => [`apiVersion: ${apiVersion}`, `kind: ${w.kind}`, 'metadata:', '  name: w'];
  const replicas = w.replicas === undefined ? [] : [`  replicas: ${w.replicas}`];
  const template = (n: number) => [
    ...indent(['metadata:', '  labels:', '    app: w'], n),
    ...indent(['spec:'], n),
    ...indent(podSpec(w.containers, w.grace), n + 2),
  ];
  let lines: string[];
  switch (w.kind) {
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet':
      lines = [
        ...head('apps/v1'),
        'spec:',
        ...replicas,
        ...(w.kind === 'StatefulSet' ? ['  serviceName: w'] : []),
        '  selector:',
        '    matchLabels:',
        '      app: w',
        '  template:',
        ...template(4),
      ];
      break;
    case 'Job':
      lines = [
        ...head('batch/v1'),
        'spec:',
        '  template:',
        ...indent(['spec:', '  restartPolicy: Never'], 4),
        ...indent(podSpec(w.containers, w.grace), 6),
      ];
      break;
    case 'Pod':
      lines = [...head('v1'), '  labels:', '    app: w', 'spec:', ...indent(podSpec(w.containers, w.grace), 2)];
      break;
    case 'LeaderWorkerSet':
      lines = [
        ...head('leaderworkerset.x-k8s.io/v1'),
        'spec:',
        ...replicas,
        '  leaderWorkerTemplate:',
        '    size: 2',
        '    leaderTemplate:',
        ...template(6),
        '    workerTemplate:',
        '      spec:',
        ...indent(podSpec(w.workers, w.grace), 8),
      ];
      break;
    case 'LLMInferenceService':
      lines = [
        ...head('serving.kserve.io/v1alpha2'),
        'spec:',
        ...replicas,
        '  model:',
        '    uri: hf://Qwen/Qwen3-8B',
        '  template:',
        ...indent(podSpec(w.containers, w.grace), 4),
      ];
      break;
    default:
      lines = [
        ...head('serving.kserve.io/v1beta1'),
        'spec:',
        '  predictor:',
        ...indent(podSpec(w.containers, w.grace), 4),
      ];
  }
  const pool = [
    '---',
    'apiVersion: inference.networking.k8s.io/v1',
    'kind: InferencePool',
    'metadata:',
    '  name: w',
    'spec:',
    '  selector:',
    '    matchLabels:',
    '      app: w',
    '  targetPorts:',
    '    - number: 8000',
    '  endpointPickerRef:',
    '    name: w-epp',
    '    port:',
    '      number: 9002',
  ];
  return `${[...lines, ...(w.pool ? pool : [])].join('\n')}\n`;
}
