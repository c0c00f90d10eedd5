/**
 * What each corpus fixture allows, worked out by reading it (tests/fixtures/corpus/): the drain flags a fix may
 * add (`container flag`, only for a server and release that have the flag, per content/model-servers/*.yaml:
 * vLLM --shutdown-timeout from 0.18.0, TGI --graceful-termination-timeout from 3.2.2, Triton --exit-timeout-secs),
 * the pod templates of multi-node workers beyond the ones read from the kind, what a controller adds (from the
 * preset file the fixture's header cites), and the serving CRs the checker cannot read. A `todo` names the
 * checker bug that breaks one invariant of one file.
 */
export interface CorpusCase {
  /** Drain flags the fix may add, as `container-name flag`. */
  flags?: string[];
  /** By document (from 1): dotted paths of pod templates whose pods are multi-node workers. */
  workers?: Record<number, string[]>;
  /** Controller CRs: the document, the path of its containers, and per container what the controller sets. */
  controller?: { doc: number; containers: string; adds: Record<string, Record<string, string>> }[];
  /** Documents (from 1) of serving CRs the checker cannot read. */
  unread?: number[];
  /** Not YAML a cluster accepts (a duplicate key, conflict markers, broken indentation): refused or an error. */
  refused?: boolean;
  /** Invariant number → the bug that breaks it, as a test todo. */
  todo?: Record<number, string>;
}

const VLLM = '--shutdown-timeout';
const TGI = '--graceful-termination-timeout';
const TRITON = '--exit-timeout-secs';

/** kserve-config-llm-template (commit bc3894bf…) and the decode/prefill/worker presets: httpGet probes, no hook. */
const KSERVE_PRESET_PROBES = { livenessProbe: 'httpGet', readinessProbe: 'httpGet' };

export const CORPUS: Record<string, CorpusCase> = {
  // GIE release manifests. vLLM 0.8.5, 0.13.0 and 0.15.1 are older than --shutdown-timeout; 0.18.1 has it.
  // Hold-out 3 shapes. A TGI 2.3 Deep Learning Container predates TGI's flag; the reference architecture's images
  // are placeholders a kustomize layer replaces, so they name no release; KAITO's Workspace is not read.
  'deployment-hf-dlc-tgi-entrypoint.yaml': {},
  'deployment-gke-refarch-vllm-recreate-fetch-sidecar.yaml': {},
  'deployment-gke-refarch-llmd-decode-routing-sidecar.yaml': {},
  'workspace-kaito-pod-template.yaml': { unread: [1] },
  // Hold-out 7 shapes: llama.cpp by its binary (no drain flag) with a linkerd proxy; vLLM 0.24 beside AIBrix's
  // runtime sidecar on a second Service port.
  'deployment-homelab-llamacpp-linkerd.yaml': {},
  'deployment-aibrix-vllm-runtime-sidecar.yaml': { flags: ['vllm-openai --shutdown-timeout'] },
  'deployment-gie-v1.0-vllm-gpu.yaml': {},
  'deployment-gie-v1.1-cpu-vllm-v0.9.yaml': {},
  'replicaset-gie-v1.2-vllm.yaml': {},
  'deployment-gie-v1.3-vllm-gpu.yaml': {},
  'deployment-gie-v1.4-duplicate-image.yaml': { refused: true },
  'deployment-gie-v1.5-vllm-gpu.yaml': { flags: [`vllm ${VLLM}`] },
  'deployment-gie-v1.5-prefix-cache.yaml': { flags: [`vllm ${VLLM}`] },
  'deployment-gie-v1.5-sim.yaml': {},
  'deployment-gie-cpu-vllm-v0.7.yaml': {},
  'deployment-gie-sglang.yaml': {},
  // The OpenAI frontend of Triton (python3 main.py) is not tritonserver: no --exit-timeout-secs.
  'deployment-gie-triton-bash-script.yaml': {},
  // LeaderWorkerSets: the worker template (beside a leader template) is a worker, read from the kind.
  'lws-vllm-ray-gpu.yaml': {},
  'lws-vllm-ray-gpu-v0.19.yaml': { flags: [`vllm-leader ${VLLM}`] },
  'lws-sglang-multinode.yaml': {},
  'lws-tensorrt-llm-triton.yaml': {},
  'lws-llamacpp-rpc.yaml': {},
  'lws-vllm-tpu-ray.yaml': {},
  'lws-eks-vllm-helm-rendered.yaml': {},
  // Neuron: a vLLM 0.5.0 build behind a custom tag and run.sh; no flag for a release the tag does not name.
  'lws-eks-neuron-vllm-run-sh.yaml': {},
  // One SGLang server over two pods: the template is rank 0's and rank 1's, so it is a worker's too.
  'statefulset-sglang-two-node.yaml': { workers: { 1: ['spec.template'] } },
  'statefulset-sglang-conflict-markers.yaml': { refused: true },
  // KServe LLMInferenceService: the CR's `main` merges with the preset's `main` (strategic merge by name). The
  // preset owns command and args, so a flag written into the CR's args would replace the preset's: none allowed.
  'llmisvc-kserve-single-gpu.yaml': {
    controller: [{ doc: 1, containers: 'spec.template.containers', adds: { main: KSERVE_PRESET_PROBES } }],
  },
  'llmisvc-kserve-image-exec-prestop.yaml': {
    controller: [{ doc: 1, containers: 'spec.template.containers', adds: { main: KSERVE_PRESET_PROBES } }],
  },
  'llmisvc-kserve-prefill-decode.yaml': {
    controller: [
      { doc: 1, containers: 'spec.template.containers', adds: { main: KSERVE_PRESET_PROBES } },
      { doc: 1, containers: 'spec.prefill.template.containers', adds: { main: KSERVE_PRESET_PROBES } },
    ],
  },
  'llmisvc-kserve-dp-worker.yaml': {
    controller: [{ doc: 1, containers: 'spec.worker.containers', adds: { main: KSERVE_PRESET_PROBES } }],
  },
  'llmisvc-kserve-sglang-runtime.yaml': {},
  // Serving CRs whose pods a controller writes: left as they are, and named.
  'inferenceservice-kserve-hf-containers.yaml': { unread: [1] },
  'inferenceservice-rhoai-vllm-rocm.yaml': { unread: [1, 2] },
  'servingruntime-rhoai-vllm-cuda-entrypoint.yaml': { unread: [1, 2] },
  'clusterservingruntime-kserve-vllm-bash.yaml': { unread: [1] },
  'clusterservingruntime-kserve-tritonserver.yaml': { unread: [1] },
  'servingruntime-kserve-hf-multinode.yaml': { unread: [1] },
  'model-kubeai-vllm-l4.yaml': { unread: [1] },
  'model-kubeai-ollama.yaml': { unread: [1] },
  'rayservice-kuberay-vllm.yaml': { unread: [1] },
  'rayservice-gke-tpu-envsubst.yaml': { unread: [1] },
  'rayservice-eks-neuron-vllm.yaml': { unread: [1] },
  'rayclusterfleet-aibrix-two-node.yaml': { unread: [1] },
  'dynamographdeployment-agg.yaml': { unread: [1] },
  'dynamographdeployment-disagg-multinode.yaml': { unread: [1] },
  'clusterservingruntime-ome-sglang.yaml': { unread: [1] },
  'playground-llmaz-sglang.yaml': { unread: [1, 2] },
  'nimservice-eks-nim-operator.yaml': { unread: [1] },
  // Serving CRs whose pod templates the controller copies into the pods (content/controllers/): read and fixed in
  // place. Kthena's engine is vLLM-Ascend started by its image's entrypoint, which the checker does not know: no flag.
  'modelserving-kthena-pd-runtime-sidecar.yaml': {},
  // vllm-ascend's tag is its own release, not vLLM's: no drain flag may be added; the scripts are a ConfigMap's.
  'modelserving-kthena-ascend-configmap-scripts.yaml': {},
  // llmaz makes a LeaderWorkerSet from workloadTemplate: the worker template's pods are ranks above 0.
  'service-llmaz-sglang-leader-worker.yaml': { workers: { 2: ['spec.workloadTemplate.workerTemplate'] } },
  'stormservice-aibrix-sglang-pd.yaml': {},
  // AIBrix's Deployment: vLLM 0.7.1 (no flag) beside the aibrix-runtime sidecar.
  'deployment-aibrix-runtime-sidecar.yaml': {},
  // GKE, AI-on-GKE and EKS samples.
  'deployment-gke-gemma-vllm-model-id.yaml': {},
  'deployment-gke-tgi-env-config.yaml': {},
  'deployment-gke-tgi-3.3-args.yaml': { flags: [`llm ${TGI}`] },
  'deployment-gke-infw-gw-healthcheck.yaml': {},
  'deployment-gke-infw-gw-indented.yaml': { refused: true },
  'job-gke-model-download.yaml': {},
  'job-gke-tpu7x-duplicate-containers.yaml': { refused: true },
  'deployment-jetstream-maxengine-two-containers.yaml': {},
  'deployment-eks-llamacpp-helm-rendered.yaml': {},
  // vLLM's own docs: `sh -c` with one command, a vendor ROCm image (0.6.4), and a bash script that execs 0.19.1.
  'deployment-vllm-docs-sh-c-single.yaml': {},
  'deployment-vllm-docs-rocm-vendor-image.yaml': {},
  'deployment-vllm-docs-bash-exec.yaml': { flags: [`vllm ${VLLM}`] },
  'deployment-production-stack-rendered.yaml': { flags: [`vllm ${VLLM}`] },
  'deployment-llm-d-decode-values.yaml': {},
  // Sidecars: Istio's proxy beside vLLM 0.11.0; linkerd's proxy (listed first) beside TGI 3.3.5.
  'pod-istio-injected-vllm.yaml': {},
  'deployment-linkerd-injected-tgi.yaml': { flags: [`llm ${TGI}`] },
  'pod-vllm-v0.19-bare.yaml': { flags: [`vllm ${VLLM}`] },
  'deployment-tritonserver-args-entrypoint.yaml': { flags: [`triton ${TRITON}`] },
  'deployment-trtllm-serve-script.yaml': {},
  'deployment-rhoai-ubi-vllm-python-m.yaml': {},
};
