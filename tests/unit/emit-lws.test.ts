// The lws output form: a LeaderWorkerSet at LWS v0.10.0 whose workers outlive the leader's drain. Hand-worked for
// GKE + vLLM at the defaults with 16 GPUs over 2 nodes: 8 GPUs per pod (tensor parallel 8, pipeline parallel 2);
// preStop 35 s, drain 738 s, grace 35 + 738 + 15 = 788 s for leader and workers; a worker holds SIGTERM back
// for 35 + 738 = 773 s, so it stops only after the leader has drained.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAllDocuments, stringify } from 'yaml';
import { PodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import { plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { emitOutput } from '../../src/emit/output.ts';
import { OutputError } from '../../src/emit/files.ts';
import { checkManifest } from '../../src/check/index.ts';
import { readOutputFacts } from '../../src/facts/read-output-files.ts';
import { validateSchema } from '../support/structural-schema.ts';
import { validateInferencePool } from '../support/inference-pool-schema.ts';
import { profiles } from '../support/generate.ts';
import { leaderWorkerSetSchema } from '../fixtures/charts/lws-v0.10.0.ts';
import { renderedInferencePool } from '../fixtures/charts/gie-inferencepool-v1.5.0.ts';
import { statedInstalls, withInstalledPool } from '../support/helm-install.ts';

type Obj = Record<string, any>;
const facts = readOutputFacts();
const MULTI = { 'nodes-per-replica': '2', 'gpus-per-replica': '16' };

function lws(raw: Record<string, string>) {
  const { inputs, errors } = resolveInputs({ output: 'lws', ...raw }, profiles);
  assert.deepEqual(errors, []);
  const planned = plan(inputs, profiles);
  const out = emitOutput(planned, inputs, profiles, facts);
  const docs = parseAllDocuments(out.text).map((d) => d.toJS() as Obj);
  return { planned, out, docs, set: docs.find((d) => d.kind === 'LeaderWorkerSet')! };
}

function problems(text: string, raw: Record<string, string>, planCodes: Set<string>): string[] {
  const settings = Object.fromEntries(
    Object.entries(raw).filter(([k]) => !['nodes-per-replica', 'gpus-per-replica'].includes(k)),
  );
  const result = checkManifest(text, settings, profiles);
  assert.ok(result.ok, result.ok ? '' : result.problem.message);
  return result.report.findings
    .filter(
      (f) =>
        f.severity === 'error'
        || (f.severity === 'warning' && !planCodes.has(f.code))
        || f.code === 'no-pool'
        || f.code === 'pool-selector-mismatch',
    )
    .map((f) => `${f.severity} ${f.code}: ${f.message}`);
}

test('the LeaderWorkerSet at the defaults over 2 nodes, worked out by hand', () => {
  const { set } = lws(MULTI);
  const lwt = set.spec.leaderWorkerTemplate;
  assert.equal(set.apiVersion, 'leaderworkerset.x-k8s.io/v1');
  assert.equal(lwt.size, 2);
  assert.equal(set.spec.replicas, 3);
  assert.deepEqual(set.spec.rolloutStrategy, {
    type: 'RollingUpdate',
    rollingUpdateConfiguration: { maxSurge: 0, maxUnavailable: 1 },
  });
  const leader = lwt.leaderTemplate.spec;
  const worker = lwt.workerTemplate.spec;
  assert.equal(leader.terminationGracePeriodSeconds, 788);
  assert.equal(worker.terminationGracePeriodSeconds, 788);
  assert.deepEqual(leader.containers[0].lifecycle.preStop, { sleep: { seconds: 35 } });
  assert.deepEqual(worker.containers[0].lifecycle.preStop, { sleep: { seconds: 773 } });
  assert.deepEqual(leader.containers[0].resources.limits, { 'nvidia.com/gpu': 8 });
  assert.deepEqual(worker.containers[0].resources.limits, { 'nvidia.com/gpu': 8 });
  assert.equal(
    leader.containers[0].command[2],
    'ray start --head --port=6379 && exec python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-32B --port 8000 '
      + '--shutdown-timeout=738 --tensor-parallel-size 8 --pipeline-parallel-size 2 --distributed-executor-backend ray',
  );
  assert.equal(worker.containers[0].command[2], 'exec ray start --address=$(LWS_LEADER_ADDRESS):6379 --block');
  assert.equal(leader.containers[0].args, undefined);
});

test('the pool the stated install creates selects the leaders only: the workers serve no HTTP', () => {
  const { set, docs, out } = lws(MULTI);
  assert.ok(!docs.some((d) => d.kind === 'InferencePool'));
  const installs = statedInstalls(out.text);
  assert.equal(installs.length, 1);
  assert.equal(installs[0].release, 'vllm-qwen3-32b');
  const pool = renderedInferencePool(installs[0].values, installs[0].release, 'default') as Obj;
  const selector = pool.spec.selector.matchLabels;
  const matches = (labels: Obj = {}) => Object.entries(selector).every(([k, v]) => labels[k] === v);
  assert.ok(matches(set.spec.leaderWorkerTemplate.leaderTemplate.metadata.labels));
  assert.ok(!matches(set.spec.leaderWorkerTemplate.workerTemplate.metadata?.labels));
  assert.deepEqual(validateInferencePool(pool), []);
});

// Every server the LWS facts give a multi-node launch for.
for (const server of Object.keys(facts.lws.multiNode)) {
  for (const gateway of profiles.gateways) {
    test(`the LeaderWorkerSet validates and checks clean: ${gateway.id} + ${server}`, () => {
      const raw = { gateway: gateway.id, 'model-server': server, ...MULTI };
      const { set, out, planned } = lws(raw);
      const emptied = structuredClone(set);
      emptied.spec.leaderWorkerTemplate.leaderTemplate = {};
      emptied.spec.leaderWorkerTemplate.workerTemplate = {};
      assert.deepEqual(validateSchema(emptied, leaderWorkerSetSchema), []);
      for (const role of ['leaderTemplate', 'workerTemplate'])
        new PodTemplateSpec(set.spec.leaderWorkerTemplate[role]).validate();
      assert.deepEqual(problems(withInstalledPool(out.text), raw, new Set(planned.warnings.map((w) => w.code))), []);
    });
  }
}

const VARIANTS: Record<string, string>[] = [
  { 'kubernetes-version': '1.29' },
  { 'nodes-per-replica': '4', 'gpus-per-replica': '32', 'spare-gpus': '32' },
  { 'unbounded-drain': 'true' },
];
for (const variant of VARIANTS) {
  test(`the LeaderWorkerSet checks clean for ${JSON.stringify(variant)}`, () => {
    const raw: Record<string, string> = { ...MULTI, ...variant };
    const { out, planned } = lws(raw);
    assert.deepEqual(problems(withInstalledPool(out.text), raw, new Set(planned.warnings.map((w) => w.code))), []);
  });
}

test('the checker reads the workers: without their preStop and grace it reports both LWS rules', () => {
  const { docs, planned } = lws(MULTI);
  const worker = docs.find((d) => d.kind === 'LeaderWorkerSet')!.spec.leaderWorkerTemplate.workerTemplate.spec;
  delete worker.terminationGracePeriodSeconds;
  delete worker.containers[0].lifecycle;
  const broken = docs.map((d) => stringify(d)).join('---\n');
  const found = problems(broken, MULTI, new Set(planned.warnings.map((w) => w.code)));
  assert.ok(
    found.some((f) => f.includes('lws-worker-grace-shorter')),
    found.join('\n'),
  );
  assert.ok(
    found.some((f) => f.includes('lws-worker-prestop-missing')),
    found.join('\n'),
  );
});

test('Kubernetes 1.29: the workers hold with an exec sleep for the leader\u2019s preStop and drain', () => {
  const { set } = lws({ ...MULTI, 'kubernetes-version': '1.29' });
  assert.deepEqual(set.spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].lifecycle.preStop, {
    exec: { command: ['/bin/sleep', '773'] },
  });
});

test('SGLang runs its own multi-node launch with tensor parallel over every GPU of the group', () => {
  const { set } = lws({ 'model-server': 'sglang', 'nodes-per-replica': '2', 'gpus-per-replica': '4' });
  const leader = set.spec.leaderWorkerTemplate.leaderTemplate.spec.containers[0].command[2];
  assert.match(
    leader,
    /^exec python3 -m sglang\.launch_server --model-path Qwen\/Qwen3-32B .* --tp-size 4 --nnodes \$\(LWS_GROUP_SIZE\) --node-rank \$\(LWS_WORKER_INDEX\) --dist-init-addr \$\(LWS_LEADER_ADDRESS\):20000$/,
  );
});

test('inputs the form cannot use name their field', () => {
  const attempt = (raw: Record<string, string>) => {
    const { inputs } = resolveInputs({ output: 'lws', ...raw }, profiles);
    try {
      emitOutput(plan(inputs, profiles), inputs, profiles, facts);
    } catch (error) {
      assert.ok(error instanceof OutputError);
      return `${error.flag}: ${error.message}`;
    }
    return 'no error';
  };
  // The defaults fit the form: 2 nodes per replica, and one GPU per node when gpus-per-replica is not given.
  assert.equal(attempt({}), 'no error');
  assert.equal(resolveInputs({ output: 'lws' }, profiles).inputs.gpusPerReplica, 2);
  assert.equal(resolveInputs({ output: 'lws', 'nodes-per-replica': '4' }, profiles).inputs.gpusPerReplica, 4);
  assert.equal(resolveInputs({ output: 'bundle' }, profiles).inputs.gpusPerReplica, 1);
  assert.match(attempt({ 'nodes-per-replica': '1' }), /^nodes-per-replica: .*2 or more/);
  assert.match(
    attempt({ 'nodes-per-replica': '2', 'gpus-per-replica': '3' }),
    /^nodes-per-replica: gpus-per-replica \(3\) must split evenly/,
  );
  assert.match(
    attempt({ ...MULTI, 'model-server': 'tgi' }),
    /^model-server: .*vLLM and SGLang, not for Hugging Face TGI/,
  );
});

test('the PodDisruptionBudget selects every pod of the set, workers included', () => {
  const { docs } = lws(MULTI);
  const budget = docs.find((d) => d.kind === 'PodDisruptionBudget')!;
  assert.deepEqual(budget.spec, {
    maxUnavailable: 1,
    selector: { matchLabels: { 'leaderworkerset.sigs.k8s.io/name': 'vllm-qwen3-32b' } },
  });
  assert.equal(docs.filter((d) => d.kind === 'PodDisruptionBudget').length, 1);
});

test('the budget says why it selects the whole set and how its number was derived, like the bundle’s', () => {
  const { out } = lws(MULTI);
  const budget = out.text.slice(out.text.lastIndexOf('\n---\n'));
  assert.match(budget, /evicting a worker recreates its group/);
  assert.match(budget, /maxUnavailable: 1 # evictions one pod at a time, as the rollout replaces them/);
});

test('the vLLM form says it leaves out the example\u2019s Ray wait and retry, and that a failed worker recreates the group', () => {
  const { out } = lws(MULTI);
  assert.match(
    out.text,
    /# Unlike LWS's vLLM example, .* each worker tries once\. .*recreates the whole group, leader included/,
  );
  assert.match(
    out.text,
    /restartPolicy: RecreateGroupOnPodRestart # a pod that restarts recreates its whole group: a failed worker takes the leader/,
  );
});

test('Istio: leaders and workers carry the sidecar annotation the bundle has', () => {
  const { set, out } = lws({ ...MULTI, gateway: 'istio' });
  for (const template of ['leaderTemplate', 'workerTemplate'])
    assert.deepEqual(
      set.spec.leaderWorkerTemplate[template].metadata.annotations,
      // 788 s grace > 600 s: the autoscaler annotation beside Istio's.
      { 'sidecar.istio.io/nativeSidecar': 'true', 'cluster-autoscaler.kubernetes.io/safe-to-evict': 'false' },
      template,
    );
  assert.match(out.text, /# Istio: The Istio gateway does not need a proxy in the model-server pod/);
  assert.deepEqual(lws(MULTI).set.spec.leaderWorkerTemplate.workerTemplate.metadata, {
    annotations: { 'cluster-autoscaler.kubernetes.io/safe-to-evict': 'false' },
  });
});
