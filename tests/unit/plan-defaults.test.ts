// The default plan (gke + vllm), worked by hand from the drain model page (model v2) and the data files:
//   removal 30 (gke, observed) + margin 5 = 35 preStop
//   4096 tokens × 100 ms (content/request-defaults.yaml) × 1.2 = 491.52 s → 492 s longest request
//   ⌈492 × 1.5⌉ = 738 s drain;  35 + 738 + 15 = 788 s grace
//   0 spare GPUs < 1 per replica → maxSurge 0, maxUnavailable 1
//   788 + 600 = 1388 progress deadline;  600 / 10 = 60 startup failures
//   rollout: ⌈3 / 1⌉ = 3 steps × (600 + 788 = 1388 s) = 4164 s; 3 − 1 = 2 of 3 serve (66%)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planOf, profiles } from '../support/drain.ts';

test('default plan follows the drain model to the second', () => {
  const p = planOf();
  assert.equal(p.modelVersion, 2);
  assert.equal(p.gateway, 'gke');
  assert.equal(p.modelServer, 'vllm');
  assert.equal(p.removalSeconds, 30);
  assert.equal(p.removalBasis, 'observed');
  assert.equal(p.preStopSeconds, 35);
  assert.equal(p.preStopAction, 'sleep');
  assert.equal(p.maxRequestSeconds, 492);
  assert.equal(p.maxRequestDerived, true);
  assert.equal(p.drainSeconds, 738);
  assert.equal(p.terminationGracePeriodSeconds, 788);
  assert.equal(p.modelServerRelease, '0.18.1');
  assert.equal(p.drainFlagStatus, 'available');
  assert.deepEqual(p.drainFlag, { flag: '--shutdown-timeout', seconds: 738 });
  assert.deepEqual(p.strategy, { maxSurge: 0, maxUnavailable: 1 });
  assert.equal(p.progressDeadlineSeconds, 1388);
  assert.equal(p.rolloutSteps, 3);
  assert.equal(p.rolloutStepSeconds, 1388);
  assert.equal(p.rolloutSeconds, 4164);
  assert.equal(p.rolloutServingReplicas, 2);
  assert.equal(p.rolloutCapacityPercent, 66);
  assert.deepEqual(p.podDisruptionBudget, { maxUnavailable: 1 });
  assert.equal(p.probes.startup.failureThreshold, 60);
  assert.equal(p.probes.readiness.periodSeconds, 5);
  assert.equal(p.probes.readiness.failureThreshold, 3);
  assert.equal(p.probes.liveness.periodSeconds, 10);
  assert.equal(p.probes.liveness.failureThreshold, 3);
});

test('the derivation states the arithmetic of each drain value', () => {
  const formula = (field: string) => planOf().derivation.find((s) => s.field === field)?.formula;
  assert.equal(formula('preStopSeconds'), '30s removal p99 + 5s margin');
  assert.equal(formula('maxRequestSeconds'), '4096 tokens × 100ms × 1.2 prefill = 491.52s, rounded up');
  assert.equal(formula('drainSeconds'), '492s longest request × 1.5 headroom');
  assert.equal(formula('terminationGracePeriodSeconds'), '35s preStop + 738s drain + 15s teardown');
  assert.equal(formula('progressDeadlineSeconds'), '788s grace + 600s model load');
  assert.equal(formula('rolloutSeconds'), '3 replicas / 1 per step = 3 steps × (600s model load + 788s grace)');
  assert.equal(formula('rolloutCapacity'), '3 replicas \u2212 1 unavailable = 2 serving (66%)');
  assert.equal(
    formula('modelServerRelease'),
    'vLLM 0.18.1, from the image tag; --shutdown-timeout is in 0.18.0 and later',
  );
});

test('the default time per output token comes from the data file, with its sources', () => {
  const d = profiles.requestDefaults;
  assert.equal(d.model, 'Qwen/Qwen3-32B');
  assert.equal(d.tpotMs.value, 100);
  assert.deepEqual(d.tpotMs.sources, ['gie-vllm-manifest', 'llm-d-1653']);
  assert.match(
    d.sources[0].url,
    /^https:\/\/github\.com\/kubernetes-sigs\/gateway-api-inference-extension\/blob\/v1\.5\.0\/config\/manifests\/vllm\/gpu-deployment\.yaml$/,
  );
  assert.match(d.lastChecked, /^\d{4}-\d{2}-\d{2}$/);
});

test('the default plan carries only the autoscaler note: vLLM 0.18.1 has --shutdown-timeout, documented from 0.18.0', () => {
  // 35 + 738 + 15 = 788 s grace > 600 s, cluster-autoscaler's default --max-graceful-termination-sec: the output adds
  // safe-to-evict "false", so the plan notes it (info) rather than warns.
  const p = planOf();
  assert.deepEqual(
    p.warnings.map((w) => [w.code, w.severity]),
    [['grace-exceeds-autoscaler', 'info']],
  );
});

test('no default plan calls a default a placeholder or unsourced, for any gateway and model server', () => {
  for (const g of profiles.gateways) {
    for (const m of profiles.modelServers) {
      for (const w of planOf({ gateway: g.id, 'model-server': m.id }).warnings) {
        assert.doesNotMatch(w.message, /placeholder|no source|unsourced/i, `${g.id}/${m.id} ${w.code}`);
      }
    }
  }
});

test('tpot-default-other-model: the default rate for another model is a note naming the reader\u2019s model', () => {
  // 4096 × 100 ms × 1.2 = 491.52 → 492 s, as for the default model.
  const w = planOf({ model: 'meta-llama/Llama-3.1-8B-Instruct' }).warnings.find(
    (x) => x.code === 'tpot-default-other-model',
  );
  assert.equal(w?.severity, 'info');
  assert.equal(
    w?.message,
    'The 492s longest request uses the default 100 ms per output token, a figure for Qwen/Qwen3-32B, not for meta-llama/Llama-3.1-8B-Instruct. '
      + 'Measure the p99 time per output token of meta-llama/Llama-3.1-8B-Instruct at full batch on your GPUs and set tpot-ms, or set max-request-seconds.',
  );
  const has = (raw: Record<string, unknown>) => planOf(raw).warnings.some((x) => x.code === 'tpot-default-other-model');
  assert.equal(has({}), false, 'not for the model the figure is for');
  assert.equal(has({ model: 'org/other', 'tpot-ms': 40 }), false, 'not when the rate is given');
  assert.equal(has({ model: 'org/other', 'max-request-seconds': 50 }), false, 'not when the longest request is given');
});

test('a given time per output token replaces the default: 4096 × 47 ms × 1.2 = 231.014 s → 232 s', () => {
  const p = planOf({ 'tpot-ms': 47 });
  assert.equal(p.maxRequestSeconds, 232);
  // ⌈232 × 1.5⌉ = 348;  35 + 348 + 15 = 398 ≤ 600: no autoscaler warning
  assert.equal(p.drainSeconds, 348);
  assert.equal(p.terminationGracePeriodSeconds, 398);
  assert.ok(!p.warnings.some((w) => w.code === 'grace-exceeds-autoscaler'));
});

test('warnings that ask for a measurement link the page that says how', () => {
  // Istio's removal is an estimate (istio.yaml removal.basis): its page says how to measure it.
  const istio = planOf({ gateway: 'istio' }).warnings.find((w) => w.code === 'removal-estimate');
  assert.deepEqual(istio?.see, {
    path: '/gateways/istio/',
    label: 'How to measure Istio\u2019s removal'.replace('\u2019', "'"),
  });
  const other = planOf({ model: 'org/other' }).warnings.find((w) => w.code === 'tpot-default-other-model');
  assert.deepEqual(other?.see, {
    path: '/guides/verify-a-rollout/#step-by-step',
    label: 'Measure it with hitless verify',
  });
  // Warnings about the manifest itself carry no link.
  assert.equal(planOf().warnings.find((w) => w.code === 'grace-exceeds-autoscaler')?.see, undefined);
});
