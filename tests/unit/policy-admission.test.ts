// Admission policies: evaluated with a CEL library as the API server would, they deny a workload exactly when
// `hitless check` reports an error for one of the rules they cover, on hand-written fixtures in the shapes people
// deploy. Expected verdicts for the named cases are worked out by hand from the default plan (gke + vllm).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { parse, parseAllDocuments } from 'yaml';
import { checkManifest } from '../../src/check/index.ts';
import { policyDocuments, type PolicyOptions } from '../../src/emit/policy/policy.ts';
import { POLICY_CODES } from '../../src/emit/policy/rules.ts';
import { plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { admit } from '../support/cel-policy.ts';
import { manifestOf, profiles } from '../support/drain.ts';

const FIXTURES = new URL('../fixtures/policy/', import.meta.url);
const fixtures = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((file) => ({ file, text: readFileSync(new URL(file, FIXTURES), 'utf8') }));

const VAP: PolicyOptions = {
  format: 'vap',
  actions: ['Warn', 'Audit'],
  namespaceLabels: {},
  name: 'hitless-drain',
  servers: profiles.modelServers,
};

/** The VAP spec and the Kyverno CEL block (reshaped like a VAP spec) for settings. */
function specsFor(settings: Record<string, string>) {
  const { inputs, errors } = resolveInputs(settings, profiles);
  assert.deepEqual(errors, []);
  const planned = plan(inputs, profiles);
  const vap = policyDocuments(planned, inputs, VAP)[0].toJS().spec;
  const kyverno = policyDocuments(planned, inputs, { ...VAP, format: 'kyverno' })[0].toJS().spec.rules[0];
  return {
    vap,
    kyverno: {
      matchConditions: kyverno.celPreconditions,
      variables: kyverno.validate.cel.variables,
      validations: kyverno.validate.cel.expressions,
    },
  };
}

function deniedCodes(spec: Parameters<typeof admit>[0], text: string): string[] {
  const codes = new Set<string>();
  for (const doc of parseAllDocuments(text)) {
    const result = admit(spec, doc.toJS());
    for (const failure of result.failures) codes.add(failure.split(':')[0]);
  }
  return [...codes].sort();
}

/**
 * The checker's errors as --strict counts them: with the ones that rest on inputs it assumed (reported as warnings
 * with `assumed`). A policy is generated from its inputs, so for it every input is given.
 */
function checkerErrors(text: string, settings: Record<string, string>): string[] {
  const result = checkManifest(text, settings, profiles);
  if (!result.ok) throw new Error(`the checker could not read the fixture: ${JSON.stringify(result.problem)}`);
  const covered = new Set<string>(POLICY_CODES);
  return [
    ...new Set(
      result.report.findings
        .filter((f) => (f.severity === 'error' || f.assumed) && covered.has(f.code))
        .map((f) => f.code),
    ),
  ].sort();
}

const SETTINGS: Record<string, string>[] = [
  {},
  { 'kubernetes-version': '1.29' },
  { gateway: 'istio', 'max-output-tokens': '2048' },
];

/**
 * Where the two differ by design. The checker skips a workload whose server it cannot identify from its own
 * invocation or image (a simulator); the policy, keyed on the engine-type label, still holds its pod to the
 * pod-level rules. The test checks that the checker did skip it, so the exemption hides nothing else.
 */
const SKIPPED_BY_THE_CHECKER = new Set(['simulator.yaml']);

for (const settings of SETTINGS) {
  const specs = specsFor(settings);
  for (const { file, text } of fixtures) {
    test(`${file} with ${JSON.stringify(settings)}: the policies deny exactly the checker's errors`, () => {
      if (SKIPPED_BY_THE_CHECKER.has(file)) {
        const result = checkManifest(text, settings, profiles);
        assert.ok(
          result.ok && result.report.findings.some((f) => f.code === 'workload-skipped'),
          'the checker skips it',
        );
        assert.ok(!deniedCodes(specs.vap, text).some((c) => c.startsWith('drain-')), 'no vLLM rule for a simulator');
        return;
      }
      const expected = checkerErrors(text, settings);
      assert.deepEqual(deniedCodes(specs.vap, text), expected, 'ValidatingAdmissionPolicy');
      assert.deepEqual(deniedCodes(specs.kyverno, text), expected, 'Kyverno');
    });
  }
}

test('by hand, on the default plan (preStop 35 s, removal 30 s, longest request and grace from the plan)', () => {
  const { vap } = specsFor({});
  const denied = (file: string) => deniedCodes(vap, fixtures.find((f) => f.file === file)!.text);
  // GIE's reference shape: preStop 30 s (covers the 30 s removal), vLLM without --shutdown-timeout aborts.
  assert.ok(denied('upstream-style.yaml').includes('drain-aborts-in-flight'));
  assert.deepEqual(
    denied('no-prestop.yaml').filter((c) => c.startsWith('prestop')),
    ['prestop-missing'],
  );
  assert.ok(denied('short-prestop-exec.yaml').includes('prestop-too-short'), '10 s < 30 s removal');
  assert.ok(denied('sleep-over-grace.yaml').includes('prestop-exceeds-grace'), '200 s sleep > 150 s grace');
  assert.ok(denied('shutdown-zero.yaml').includes('drain-aborts-in-flight'));
  assert.ok(denied('shutdown-short.yaml').includes('drain-flag-too-short'), '20 s drain < longest request');
  assert.deepEqual(
    denied('no-probes.yaml').filter((c) => /probe|readiness|startup/.test(c)),
    ['readiness-missing'],
  );
  assert.ok(denied('liveness-only.yaml').includes('startup-missing'), '60 + 10 × 3 = 90 s < 600 s load');
  assert.ok(denied('startup-short.yaml').includes('startup-too-short'), '5 × 30 = 150 s < 600 s load');
  assert.ok(!denied('simulator.yaml').some((c) => c.startsWith('drain')), 'a simulator is not vLLM');
  assert.ok(!denied('polling-prestop.yaml').includes('prestop-too-short'), 'a polling loop cannot be timed');
});

test('by hand: the drain flag is read per server from its data file (TGI 90 s and Triton 30 s defaults; longest request 492 s)', () => {
  const { vap } = specsFor({});
  const pod = (engine: string, image: string, args: string[]) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'm' },
    spec: {
      template: {
        metadata: { labels: { 'inference.networking.k8s.io/engine-type': engine } },
        spec: { containers: [{ name: 'server', image, args }] },
      },
    },
  });
  const drainCodes = (object: object) =>
    admit(vap, object)
      .failures.map((f) => f.split(':')[0])
      .filter((c) => c.startsWith('drain-'));
  const tgi = 'ghcr.io/huggingface/text-generation-inference:3.3.5';
  // No flag: TGI drains for its 90 s default, less than a 492 s request.
  assert.deepEqual(drainCodes(pod('tgi', tgi, ['--model-id', 'm'])), ['drain-flag-too-short']);
  assert.deepEqual(drainCodes(pod('tgi', tgi, ['--graceful-termination-timeout', '300'])), ['drain-flag-too-short']);
  assert.deepEqual(
    drainCodes(pod('tgi', tgi, ['--graceful_termination_timeout=492'])),
    [],
    'underscores, at the bound',
  );
  // 0 on TGI does not abort by its data (zeroAborts is vLLM's): it is too short, not aborting.
  assert.deepEqual(drainCodes(pod('tgi', tgi, ['--graceful-termination-timeout=0'])), ['drain-flag-too-short']);
  const triton = 'nvcr.io/nvidia/tritonserver:25.05-trtllm-python-py3';
  assert.deepEqual(drainCodes(pod('triton-tensorrt-llm', triton, ['--model-repository=/m'])), ['drain-flag-too-short']);
  assert.deepEqual(drainCodes(pod('triton-tensorrt-llm', triton, ['--exit-timeout-secs=600'])), []);
  // A label that names TGI on an image and command that are not TGI's: no drain rule (the label alone is not enough).
  assert.deepEqual(drainCodes(pod('tgi', 'example.com/mock:1', ['python3', 'app.py'])), []);
  // vLLM's 0 aborts: the aborting rule, not the short one.
  assert.deepEqual(drainCodes(pod('vllm', 'vllm/vllm-openai:v0.18.1', ['--shutdown-timeout=0'])), [
    'drain-aborts-in-flight',
  ]);
});

test("the generator's own output is admitted, for every model server", () => {
  for (const server of profiles.modelServers.map((m) => m.id)) {
    const settings = { 'model-server': server };
    const { vap, kyverno } = specsFor(settings);
    const manifest = manifestOf(settings);
    assert.deepEqual(deniedCodes(vap, manifest), [], server);
    assert.deepEqual(deniedCodes(kyverno, manifest), [], server);
  }
});

test('objects without the engine-type label are not matched', () => {
  const { vap } = specsFor({});
  const text = fixtures
    .find((f) => f.file === 'no-prestop.yaml')!
    .text.replace(/^\s+inference\.networking\.k8s\.io\/engine-type: vllm\n/m, '');
  const object = parse(text);
  assert.equal(admit(vap, object).matched, false);
});

test('the policies are valid objects: the VAP and binding against the Kubernetes schemas, the ClusterPolicy against Kyverno\u2019s', async () => {
  const { ValidatingAdmissionPolicy } = await import(
    'kubernetes-models/admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy'
  );
  const { ValidatingAdmissionPolicyBinding } = await import(
    'kubernetes-models/admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding'
  );
  const { ClusterPolicy } = await import('@kubernetes-models/kyverno/kyverno.io/v1/ClusterPolicy');
  const { inputs } = resolveInputs({}, profiles);
  const planned = plan(inputs, profiles);
  for (const namespaceLabels of [{}, { team: 'inference' }] as Record<string, string>[]) {
    for (const actions of [
      ['Warn', 'Audit'],
      ['Deny', 'Audit'],
    ] as const) {
      const [policy, binding] = policyDocuments(planned, inputs, {
        ...VAP,
        namespaceLabels,
        actions: [...actions],
      }).map((d) => d.toJS());
      new ValidatingAdmissionPolicy(policy).validate();
      new ValidatingAdmissionPolicyBinding(binding).validate();
      assert.deepEqual(binding.spec.validationActions, [...actions]);
      const [kyverno] = policyDocuments(planned, inputs, {
        ...VAP,
        format: 'kyverno',
        namespaceLabels,
        actions: [...actions],
      }).map((d) => d.toJS());
      new ClusterPolicy(kyverno).validate();
      assert.equal(kyverno.spec.validationFailureAction, actions[0] === 'Deny' ? 'Enforce' : 'Audit');
    }
  }
  // The schema check can fail: a rule whose expression is not a string is refused.
  const [bad] = policyDocuments(planned, inputs, { ...VAP, format: 'kyverno' }).map((d) => d.toJS());
  bad.spec.rules[0].validate.cel.expressions[0].expression = 5;
  assert.throws(() => new ClusterPolicy(bad).validate(), /must be string/);
});

// The message points at `hitless rules`, which every install has, rather than at a web address: there is no public
// site yet, and a made-up address in a rejection would send readers nowhere.
test('every rule message names its code, the field and where the rule is explained', () => {
  const { vap } = specsFor({});
  for (const v of vap.validations) {
    const code = /^([a-z-]+): /.exec(v.message)?.[1];
    assert.ok(code, v.message);
    assert.ok(v.message.endsWith(`(hitless rules explains ${code})`), v.message);
    assert.doesNotMatch(v.message, /https?:/);
    assert.match(v.message, /preStop|terminationGracePeriodSeconds|--shutdown-timeout|Probe/);
  }
});

/**
 * The checker's own fixtures (tests/fixtures/deployments/), each with the engine-type label its pods would carry
 * in a pool, so that the policy matches them. Where the two differ by design, the difference is written here with
 * its reason; any other difference fails.
 */
const CHECKER_FIXTURES = new URL('../fixtures/deployments/', import.meta.url);
const ENGINE_OF = (file: string): string =>
  /^tgi-/.test(file) ? 'tgi' : /^triton-/.test(file) ? 'triton-tensorrt-llm' : /sglang/.test(file) ? 'sglang' : 'vllm';
const BY_DESIGN: Record<string, { checker: string[]; policy: string[]; why: string }> = {
  'lws-workers-sglang.yaml': {
    checker: ['grace-too-short', 'prestop-missing', 'readiness-missing'],
    policy: [],
    why: 'the policies match Deployments and StatefulSets, not LeaderWorkerSets',
  },
  'sh-c-ray-lws-leader.yaml': {
    checker: ['drain-aborts-in-flight', 'grace-too-short', 'prestop-missing'],
    policy: [],
    why: 'a LeaderWorkerSet',
  },
  'multi-container.yaml': {
    checker: ['drain-aborts-in-flight', 'grace-too-short', 'prestop-missing', 'readiness-missing'],
    policy: ['grace-too-short', 'prestop-missing', 'readiness-missing'],
    why: 'the policy reads the first container (or the default-container annotation); the checker finds vLLM in a later one',
  },
  'rejected-values.yaml': {
    checker: ['drain-flag-too-short', 'grace-too-short', 'readiness-missing'],
    policy: ['drain-flag-too-short', 'prestop-exceeds-grace', 'prestop-too-short', 'readiness-missing'],
    why: 'values the API server rejects never reach admission; the checker reports them as value-rejected',
  },
  'server-in-cmd-subst.yaml': {
    checker: ['grace-too-short', 'prestop-missing', 'readiness-missing'],
    policy: ['drain-aborts-in-flight', 'grace-too-short', 'prestop-missing', 'readiness-missing'],
    why: 'the checker cannot find the server\u2019s invocation with certainty and stays silent on its flag; the policy, reading text, asks for it',
  },
  'two-servers-if.yaml': {
    checker: ['grace-too-short', 'prestop-missing', 'readiness-missing'],
    policy: ['drain-aborts-in-flight', 'grace-too-short', 'prestop-missing', 'readiness-missing'],
    why: 'as above: two possible invocations',
  },
  'vllm-old-release.yaml': {
    checker: ['grace-too-short', 'prestop-missing', 'readiness-missing'],
    policy: ['drain-aborts-in-flight', 'grace-too-short', 'prestop-missing', 'readiness-missing'],
    why: 'the checker names the cause, an image older than the drain flag (drain-flag-too-old, which no policy rule has); the policy reads no release and asks for the flag',
  },
  'vllm-v010-sh.yaml': {
    checker: ['grace-too-short', 'prestop-missing', 'readiness-missing'],
    policy: ['drain-aborts-in-flight', 'grace-too-short', 'prestop-missing', 'readiness-missing'],
    why: 'as vllm-old-release.yaml: the checker names the image older than the drain flag, the policy asks for the flag',
  },
  'vllm-mock.yaml': {
    checker: [],
    policy: ['grace-too-short', 'prestop-missing', 'readiness-missing'],
    why: 'the checker skips a mock it cannot identify; the policy holds every labelled pod to the pod-level rules',
  },
};

test('on the checker\u2019s fixtures, labelled as in a pool, the policy denies what the checker reports, but for the differences by design', () => {
  const { vap } = specsFor({});
  for (const file of readdirSync(CHECKER_FIXTURES)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const text = readFileSync(new URL(file, CHECKER_FIXTURES), 'utf8');
    const policy = new Set<string>();
    for (const doc of parseAllDocuments(text)) {
      const object = doc.toJS();
      if (!object || !['Deployment', 'StatefulSet'].includes(object.kind)) continue;
      object.spec.template.metadata ??= {};
      object.spec.template.metadata.labels = {
        ...(object.spec.template.metadata.labels ?? {}),
        'inference.networking.k8s.io/engine-type': ENGINE_OF(file),
      };
      for (const failure of admit(vap, object).failures) policy.add(failure.split(':')[0]);
    }
    const expected = BY_DESIGN[file];
    assert.deepEqual(checkerErrors(text, {}), expected ? expected.checker : [...policy].sort(), `${file}: checker`);
    assert.deepEqual(
      [...policy].sort(),
      expected ? expected.policy : checkerErrors(text, {}),
      `${file}: policy${expected ? ` (${expected.why})` : ''}`,
    );
  }
});
