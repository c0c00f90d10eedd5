// Serving controllers' resources read from their data files (content/controllers/): each entry of a resource's list
// becomes a workload whose pod templates are checked; fields the controller sets itself give notes fixed by hand; a
// kind with no pod template is named in a warning. The controller here is one written for the test, so the
// expectations follow from its data alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { checkManifest, fixManifest } from '../../src/check/index.ts';
import { CHECK_TEST_SETTINGS, profiles } from '../support/check.ts';
import type { ControllerFacts } from '../../src/facts/profiles.ts';

const EXAMPLE: ControllerFacts = {
  id: 'example',
  name: 'Example Serving',
  order: 1,
  kinds: [
    {
      group: 'serve.example.com',
      kind: 'Widget',
      summary: 'copies each role\u2019s leader and worker templates into the pods of that role',
      pods: {
        each: 'spec.roles',
        serving: [{ path: 'leader', shape: 'PodTemplateSpec' }],
        workers: { path: 'worker', shape: 'PodTemplateSpec' },
        replicas: { path: 'replicas', default: 1 },
        groupSize: { path: 'workers', default: 1, counts: 'workers' },
        addsLabels: { 'example.com/role': '{entry.name}' },
        owns: ['containers.readinessProbe'],
      },
      at: 'v1.0.0',
      sources: ['example'],
    },
    {
      group: 'serve.example.com',
      kind: 'Gadget',
      summary: 'builds its pods from its own defaults',
      at: 'v1.0.0',
      sources: ['example'],
    },
  ],
  sources: [{ id: 'example', title: 'Example', url: 'https://example.com/', at: 'v1.0.0', checked: '2026-12-04' }],
  lastChecked: '2026-12-04',
};
const withExample = { ...profiles, controllers: [...profiles.controllers, EXAMPLE] };

// vLLM 0.19.1 on one GPU; the leader has no preStop, no readiness probe and the default grace of 30 s.
const container = (name: string) => `
                - name: ${name}
                  image: vllm/vllm-openai:v0.19.1
                  args: ["--model", "Qwen/Qwen3-8B"]
                  resources:
                    limits:
                      nvidia.com/gpu: "1"`;
const WIDGET = `apiVersion: serve.example.com/v1
kind: Widget
metadata:
  name: qwen
spec:
  roles:
    - name: prefill
      replicas: 2
      workers: 1
      leader:
        spec:
          containers:${container('leader')}
      worker:
        spec:
          containers:${container('worker')}
    - name: decode
      leader:
        spec:
          containers:${container('server')}
`;

function run(text: string) {
  const result = checkManifest(text, CHECK_TEST_SETTINGS, withExample);
  if (!result.ok) assert.fail(result.problem.message);
  return result;
}

test('each entry of a served resource\u2019s list is a workload, read at its own paths', () => {
  const { report } = run(WIDGET);
  assert.equal(report.workloads, 2);
  const preStops = report.findings.filter((f) => f.code === 'prestop-missing').map((f) => f.path);
  assert.deepEqual(preStops, [
    'spec.roles[0].leader.spec.containers[0].lifecycle',
    'spec.roles[1].leader.spec.containers[0].lifecycle',
  ]);
  // The first role's worker template is a multi-node worker: it gets the worker's preStop, and no readiness probe.
  const worker = report.findings.filter((f) => f.code === 'lws-worker-prestop-missing');
  assert.deepEqual(
    worker.map((f) => f.path),
    ['spec.roles[0].worker.spec.containers[0].lifecycle'],
  );
  assert.ok(!report.findings.some((f) => f.code === 'readiness-missing' && f.path.includes('worker')));
});

test('a field the controller sets is a note fixed by hand; the others are fixed in the template', () => {
  const result = run(WIDGET);
  const readiness = result.report.findings.filter((f) => f.code === 'readiness-missing');
  assert.equal(readiness.length, 2);
  for (const f of readiness) {
    assert.equal(f.severity, 'info');
    assert.equal(f.remedy, 'manual');
    assert.match(f.message, /Example Serving sets containers\.readinessProbe on the pods it makes from this template/);
    assert.match(f.message, /kubectl get pod NAME -o yaml \| hitless check -/);
  }
  const fixedText = fixManifest(result.manifest, result.report.findings).text;
  const roles = parse(fixedText).spec.roles;
  // preStop for the drain model's default plan of these settings (tests/support/check.ts: 35 s), in both roles.
  assert.equal(roles[0].leader.spec.containers[0].lifecycle.preStop.sleep.seconds, 35);
  assert.equal(roles[1].leader.spec.containers[0].lifecycle.preStop.sleep.seconds, 35);
  assert.equal(roles[0].leader.spec.containers[0].readinessProbe, undefined);
  assert.equal(roles[0].worker.spec.containers[0].readinessProbe, undefined);
});

test('a served kind with no pod template is named in a warning', () => {
  const { report } = run('apiVersion: serve.example.com/v1\nkind: Gadget\nmetadata:\n  name: g\nspec: {}\n');
  const f = report.findings.find((x) => x.code === 'serving-kind-unread');
  assert.match(f?.message ?? '', /^Gadget\/g is Example Serving Gadget, which the checker cannot read/);
  assert.equal(report.workloads, 0);
});
