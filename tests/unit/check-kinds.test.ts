// Kinds, suppression and output safety: KServe LLMInferenceService is read, kinds the checker cannot read are
// named, hitless.dev/ignore needs a reason and shows it, bidi controls are escaped, CR-only text is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { check, codes, fixed, only, vllm } from '../support/check.ts';

const LLMISVC = `apiVersion: serving.kserve.io/v1alpha1
kind: LLMInferenceService
metadata:
  name: qwen
spec:
  model:
    uri: hf://Qwen/Qwen3-8B
  replicas: 2
  template:
    containers:
      - name: main
        image: vllm/vllm-openai:v0.19.1
        args: ["--model", "Qwen/Qwen3-8B"]
        resources:
          limits:
            nvidia.com/gpu: "1"
`;

test('KServe LLMInferenceService: its pod spec (spec.template) is checked like a Deployment\u2019s', () => {
  const report = check(LLMISVC);
  assert.equal(report.workloads, 1);
  assert.equal(only(report, 'prestop-missing').path, 'spec.template.containers[0].lifecycle');
  assert.equal(only(report, 'grace-too-short').path, 'spec.template.terminationGracePeriodSeconds');
});

test('KServe LLMInferenceService: what its well-known config may set is a note, and no fix is written into the object', () => {
  // KServe merges its well-known config under the object (config_merge.go at v0.19.0), and v0.19.0's sets a preStop
  // exec sleep: a sleep handler written into the object would merge beside it into a hook the API server refuses.
  const report = check(LLMISVC);
  const preStop = only(report, 'prestop-missing');
  assert.equal(preStop.severity, 'info');
  assert.match(
    preStop.message,
    /KServe merges its well-known config for this shape, such as kserve-config-llm-template/,
  );
  assert.equal(preStop.remedy, 'manual');
  assert.match(preStop.fix!.text, /merges beside it into one with two handlers, which the API server refuses/);
  assert.equal(only(report, 'grace-too-short').severity, 'info');
  assert.equal(fixed(LLMISVC), LLMISVC);
  // A value the object itself sets wins over the well-known config: a finding on it stands.
  const written = LLMISVC.replace('  template:\n', '  template:\n    terminationGracePeriodSeconds: 30\n');
  assert.equal(only(check(written, { gateway: 'gke' }), 'grace-too-short').severity, 'error');
});

test('a model-serving kind the checker cannot read is named in a warning, not passed over', () => {
  const text =
    'apiVersion: production-stack.vllm.ai/v1alpha1\nkind: VLLMRuntime\nmetadata:\n  name: llama\nspec:\n  model:\n    modelURL: meta-llama/Llama-3.1-8B\n';
  const report = check(text);
  const f = only(report, 'serving-kind-unread');
  assert.equal(f.severity, 'warning');
  assert.match(f.message, /^VLLMRuntime\/llama is vLLM production-stack VLLMRuntime, which the checker cannot read/);
  assert.equal(report.workloads, 0);
});

test('serving kinds are named by API group: the controller that makes the pods, and only for its own group', () => {
  const named = (apiVersion: string, kind: string) =>
    check(`apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: x\nspec: {}\n`).findings.find(
      (f) => f.code === 'serving-kind-unread',
    )?.message;
  assert.match(
    named('ome.io/v1beta1', 'ClusterServingRuntime') ?? '',
    /^ClusterServingRuntime\/x is OME ClusterServingRuntime,/,
  );
  assert.match(
    named('serving.kserve.io/v1alpha1', 'ServingRuntime') ?? '',
    /^ServingRuntime\/x is KServe ServingRuntime,/,
  );
  assert.match(named('nvidia.com/v1beta1', 'DynamoGraphDeployment') ?? '', /is NVIDIA Dynamo DynamoGraphDeployment,/);
  assert.match(
    named('ray.io/v1', 'RayCluster') ?? '',
    /is KubeRay RayCluster, .*kubectl get pod NAME -o yaml \| hitless check -/,
  );
  // A kind of the same name in another group is not a serving object the checker knows.
  assert.equal(named('example.com/v1', 'Model'), undefined);
  assert.match(named('kubeai.org/v1', 'Model') ?? '', /is KubeAI Model,/);
  assert.match(named('inference.llmaz.io/v1alpha1', 'Playground') ?? '', /is llmaz Playground,/);
  // Kinds whose pod templates the checker reads (content/controllers/) are not named as unread; one without a
  // template is ignored, saying where the template was looked for.
  for (const [apiVersion, kind, where] of [
    ['orchestration.aibrix.ai/v1alpha1', 'StormService', 'spec.template.spec.roles[].template'],
    ['workload.serving.volcano.sh/v1alpha1', 'ModelServing', 'spec.template.roles[].entryTemplate'],
    [
      'inference.llmaz.io/v1alpha1',
      'Service',
      'spec.workloadTemplate.leaderTemplate or spec.workloadTemplate.workerTemplate',
    ],
  ]) {
    const report = check(`apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: x\nspec: {}\n`);
    assert.equal(named(apiVersion, kind), undefined);
    assert.equal(
      only(report, 'unknown-kind').message,
      `Ignored ${kind}/x: no pod template at ${where}, where the checker reads this kind's pods.`,
    );
  }
  // A core Service is not a serving object.
  assert.equal(named('v1', 'Service'), undefined);
});

test('hitless.dev/ignore: the named findings become notes carrying the reason; without a reason nothing is suppressed', () => {
  const annotated = (value: string) =>
    vllm({ lifecycle: '' }).replace(
      'metadata:\n  name: m\n',
      `metadata:\n  name: m\n  annotations:\n    hitless.dev/ignore: "${value}"\n`,
    );
  const f = only(check(annotated('prestop-missing — the routing sidecar holds requests')), 'prestop-missing');
  assert.equal(f.severity, 'info');
  assert.equal(f.suppressed, 'the routing sidecar holds requests');
  assert.match(f.message, /^Suppressed by hitless\.dev\/ignore \(the routing sidecar holds requests\): /);
  assert.equal(f.remedy, 'manual');
  const bare = check(annotated('prestop-missing'));
  assert.equal(only(bare, 'prestop-missing').severity, 'error');
  assert.match(only(bare, 'value-unreadable').message, /write the codes, a dash and the reason/);
});

test('bidi control characters from the manifest are escaped in messages', () => {
  const report = check(vllm({ grace: 'terminationGracePeriodSeconds: "12\u202E5"' }));
  const f = only(report, 'value-rejected');
  assert.ok(!f.message.includes('\u202E'));
  assert.match(f.message, /12\\u202E5/);
});

test('CR-only line endings are read as lines, and the fix keeps them', () => {
  const text = vllm({ lifecycle: '' });
  const cr = text.replaceAll('\n', '\r');
  assert.deepEqual(codes(check(cr)), codes(check(text)));
  const out = fixed(cr);
  assert.ok(!out.includes('\n'));
  assert.equal(out.replaceAll('\r', '\n'), fixed(text));
});

test('hitless check --strict fails a run that checked no workload; hitless rules lists every rule', () => {
  const cli = new URL('../../src/cli/main.ts', import.meta.url).pathname;
  const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n';
  const loose = spawnSync(process.execPath, [cli, 'check', '-'], { input: cm, encoding: 'utf8' });
  assert.equal(loose.status, 0);
  assert.match(loose.stdout, /^-: no model-server workload was checked, so this is not a pass/);
  const strict = spawnSync(process.execPath, [cli, 'check', '-', '--strict'], { input: cm, encoding: 'utf8' });
  assert.equal(strict.status, 1);
  const text = spawnSync(process.execPath, [cli, 'check', '-'], { input: 'hello: world\n', encoding: 'utf8' });
  assert.equal(text.status, 2);
  assert.match(text.stderr, /cannot be checked/);
  const rules = spawnSync(process.execPath, [cli, 'rules', '--format', 'json'], { encoding: 'utf8' });
  assert.equal(rules.status, 0);
  const listed = JSON.parse(rules.stdout) as { code: string; summary: string; remediation: string }[];
  for (const code of [
    'prestop-missing',
    'shell-swallows-sigterm',
    'value-rejected',
    'serving-kind-unread',
    'server-invocation-unknown',
  ]) {
    assert.ok(
      listed.some((r) => r.code === code),
      code,
    );
  }
  for (const rule of listed) {
    assert.match(rule.summary, /\.$/, `${rule.code}: what it checks ends in a period`);
    assert.match(rule.remediation, /\.$/, `${rule.code}: what to do ends in a period`);
  }
});
