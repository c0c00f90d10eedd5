/**
 * The example the page can load: the drain settings of GIE v1.5.0's reference vLLM Deployment (preStop 30 s,
 * grace 130 s, vLLM v0.18.1 without --shutdown-timeout, 1 s probes), with an InferencePool in front.
 */
export const EXAMPLE_MANIFEST = `# GIE v1.5.0's reference vLLM Deployment (drain settings only), and an InferencePool
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm-qwen3-32b
spec:
  replicas: 3
  selector:
    matchLabels:
      app: vllm-qwen3-32b
  template:
    metadata:
      labels:
        app: vllm-qwen3-32b
        inference.networking.k8s.io/engine-type: vllm
    spec:
      containers:
      - name: vllm
        image: vllm/vllm-openai:v0.18.1
        command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]
        args: ["--model", "Qwen/Qwen3-32B", "--port", "8000"]
        ports:
        - containerPort: 8000
          name: http
        lifecycle:
          preStop:
            sleep:
              seconds: 30
        livenessProbe:
          httpGet: {path: /health, port: http}
          periodSeconds: 1
          failureThreshold: 5
        readinessProbe:
          httpGet: {path: /health, port: http}
          periodSeconds: 1
          failureThreshold: 1
        startupProbe:
          httpGet: {path: /health, port: http}
          initialDelaySeconds: 2
          periodSeconds: 1
          failureThreshold: 600
      enableServiceLinks: false
      terminationGracePeriodSeconds: 130
---
apiVersion: inference.networking.k8s.io/v1
kind: InferencePool
metadata:
  name: vllm-qwen3-32b
spec:
  selector:
    matchLabels:
      app: vllm-qwen3-32b
  targetPorts:
  - number: 8000
  endpointPickerRef:
    name: vllm-qwen3-32b-epp
    port:
      number: 9002
`;
