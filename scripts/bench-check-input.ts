/** The input of the bench's `hitless check` figures (scripts/bench.ts), shared with scripts/measure-check.ts. */

/** A vLLM Deployment as teams write them and its InferencePool: two documents, about 1 KB, with findings. */
function benchPair(i: number): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: chat-${i}, namespace: team-${i % 7}, labels: {app: chat-${i}}}
spec:
  replicas: 2
  selector: {matchLabels: {app: chat-${i}}}
  template:
    metadata: {labels: {app: chat-${i}}}
    spec:
      terminationGracePeriodSeconds: 130
      containers:
      - name: vllm
        image: vllm/vllm-openai:v0.18.1
        args: ["--model", "Qwen/Qwen3-8B", "--port", "8000", "--max-model-len", "8192"]
        ports: [{containerPort: 8000, name: http}]
        lifecycle: {preStop: {sleep: {seconds: 30}}}
        readinessProbe: {httpGet: {path: /health, port: 8000}, periodSeconds: 5}
        resources: {limits: {nvidia.com/gpu: 1, memory: 40Gi}}
---
apiVersion: inference.networking.k8s.io/v1
kind: InferencePool
metadata: {name: chat-${i}, namespace: team-${i % 7}}
spec:
  selector: {matchLabels: {app: chat-${i}}}
  targetPorts: [{number: 8000}]
  endpointPickerRef: {name: chat-${i}-epp, port: {number: 9002}}
`;
}

/** `docs` documents (an even number) of Deployment + InferencePool pairs, as one YAML text. */
export function benchCheckInput(docs: number): string {
  return Array.from({ length: docs / 2 }, (_, i) => benchPair(i)).join('---\n');
}
