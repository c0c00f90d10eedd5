// gateway-policy-missing: the check's gateway sizes a request timeout and connection draining in a policy (GKE's
// GCPBackendPolicy: timeoutSec defaults to 30 s, drainingTimeoutSec to 0 s, content/gateways/gke.yaml) and no such
// policy targets the pool. Worked out by hand for GKE + vLLM at the defaults: longest request 50 s (above the 30 s
// default), request timeout 50 × 1.5 = 75 s raised to the 300 s floor, draining 35 s preStop + 75 s drain = 110 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emitManifest } from '../../src/emit/bundle.ts';
import { plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { check, codes, docs, fixed, only, pool, problems, profiles, vllm } from '../support/check.ts';
import { chart } from '../support/chart.ts';

const policy = (target: string, namespace = '') => `apiVersion: networking.gke.io/v1
kind: GCPBackendPolicy
metadata:
  name: ${target}
${namespace ? `  namespace: ${namespace}\n` : ''}spec:
  targetRef:
    group: inference.networking.k8s.io
    kind: InferencePool
    name: ${target}
  default:
    timeoutSec: 300
    connectionDraining:
      drainingTimeoutSec: 110
`;

/** The policy the checker must propose for pool `m`, by hand: the generator's, without a namespace (the pool has none). */
const EXPECTED_FIX = `# GKE Gateway: Raises the load balancer's 30 s response timeout above the longest request, and lets requests in flight finish when a terminating pod's endpoint leaves the NEG.

apiVersion: networking.gke.io/v1
kind: GCPBackendPolicy
metadata:
  name: m
spec:
  targetRef:
    group: inference.networking.k8s.io
    kind: InferencePool
    name: m
  default:
    timeoutSec: 300 # 50s longest request (steady state, not drain p99) × 1.5 headroom = 75s, kept at the 300s floor (GIE's GKE example)
    connectionDraining:
      drainingTimeoutSec: 110 # 35s preStop + 75s drain, above the 0s default`;

test('gke chosen, a pool and no GCPBackendPolicy: a warning on the pool whose fix is the generator\u2019s policy', () => {
  const text = docs(vllm(), pool());
  const f = only(check(text, { gateway: 'gke' }), 'gateway-policy-missing');
  assert.equal(f.severity, 'warning');
  assert.equal(f.object, 'InferencePool/m');
  assert.equal(f.path, 'metadata.name');
  assert.match(f.message, /^No GCPBackendPolicy targets InferencePool\/m, so GKE Gateway\u2019s defaults apply: /);
  assert.match(
    f.message,
    /cuts any response after 30s \(the GCPBackendPolicy spec\.default\.timeoutSec default\), less than the 50s longest request/,
  );
  assert.match(f.message, /requests in flight get 0s to finish .* for up to 110s \(35s preStop \+ 75s drain\)/);
  assert.equal(f.fix!.text, EXPECTED_FIX);
  // The same document the generator writes for a pool named m, less the namespace it would set.
  const { inputs } = resolveInputs({ name: 'm', 'tpot-ms': 10 }, profiles);
  const generated = emitManifest(plan(inputs, profiles), inputs, profiles, chart)
    .split('---\n')
    .find((d) => d.includes('kind: GCPBackendPolicy'))!;
  assert.equal(f.fix!.text, generated.replace('  namespace: default\n', '').trimEnd());
});

test('the fixed manifest gains the policy as a new document, and then checks without the finding', () => {
  const text = docs(vllm(), pool());
  const out = fixed(text, { gateway: 'gke' });
  assert.equal(out, `${text}---\n${EXPECTED_FIX}\n`);
  const again = check(out);
  // Found by itself now: the policy names the gateway.
  assert.equal(again.checkedFor.source, 'manifest');
  assert.deepEqual(problems(again), []);
});

test('no finding when a GCPBackendPolicy targets the pool, or for a gateway without such a policy', () => {
  assert.ok(!codes(check(docs(vllm(), pool(), policy('m')), { gateway: 'gke' })).includes('gateway-policy-missing'));
  assert.ok(!codes(check(docs(vllm(), pool(), policy('m')))).includes('gateway-policy-missing'));
  for (const gateway of ['istio', 'kgateway', 'custom']) {
    assert.ok(!codes(check(docs(vllm(), pool()), { gateway })).includes('gateway-policy-missing'), gateway);
  }
});

test('a policy for another pool, or in another namespace, does not count', () => {
  const other = only(check(docs(vllm(), pool(), policy('other'))), 'gateway-policy-missing');
  // The other policy names the gateway, so this is a warning, not the default's note.
  assert.equal(other.severity, 'warning');
  const prodPool = pool().replace('  name: m\n', '  name: m\n  namespace: prod\n');
  const prodDeployment = vllm().replace('  name: m\n', '  name: m\n  namespace: prod\n');
  const f = only(check(docs(prodDeployment, prodPool, policy('m', 'staging'))), 'gateway-policy-missing');
  // The fix lands in the pool's namespace.
  assert.match(f.fix!.text, /\nmetadata:\n {2}name: m\n {2}namespace: prod\n/);
  assert.ok(!codes(check(docs(prodDeployment, prodPool, policy('m', 'prod')))).includes('gateway-policy-missing'));
});

test('for the default gateway only a note, and its policy is not written into the fixed manifest', () => {
  const text = docs(vllm(), pool());
  const f = only(check(text), 'gateway-policy-missing');
  assert.equal(f.severity, 'info');
  assert.match(
    f.message,
    /^If your gateway is GKE Gateway \(the checker\u2019s default; choose yours in the settings or with --gateway\): No GCPBackendPolicy/,
  );
  assert.equal(f.fix!.text, EXPECTED_FIX);
  assert.deepEqual(f.fix!.edits, []);
  assert.equal(fixed(text), text);
});

test('a Deployment without a pool gets no policy finding (no-pool says the pool was not checked)', () => {
  assert.ok(!codes(check(vllm(), { gateway: 'gke' })).includes('gateway-policy-missing'));
});

/** A GCPBackendPolicy with short settings (30 s, 0 s) aimed at `kind/name`: wrong for pool `m` if it applied to it. */
const shortPolicy = (kind: string, name: string) => `apiVersion: networking.gke.io/v1
kind: GCPBackendPolicy
metadata:
  name: other
spec:
  targetRef:
    group: ${kind === 'Service' ? '""' : 'inference.networking.k8s.io'}
    kind: ${kind}
    name: ${name}
  default:
    timeoutSec: 30
`;

for (const [kind, name] of [
  ['InferencePool', 'embeddings'],
  ['Service', 'm'],
] as const) {
  test(`a GCPBackendPolicy aimed at ${kind}/${name} does not count for pool m, and is neither checked nor fixed with m's plan`, () => {
    const text = docs(vllm(), pool(), shortPolicy(kind, name));
    const report = check(text, { gateway: 'gke' });
    // Pool m still has no policy of its own: the same warning as with no policy at all.
    assert.equal(only(report, 'gateway-policy-missing').object, 'InferencePool/m');
    // The other policy's 30 s is not m's business: no timeout finding, a note that it was not checked.
    assert.deepEqual(
      codes(report).filter((c) => c.startsWith('gateway-') && c !== 'gateway-policy-missing'),
      [],
    );
    assert.match(
      only(report, 'policy-target-elsewhere').message,
      new RegExp(`^GCPBackendPolicy/other targets ${kind}/${name}, which is not an InferencePool in the input`),
    );
    // The fix adds m's own policy after the input and leaves the other policy's text as it was.
    const out = fixed(text, { gateway: 'gke' });
    assert.ok(out.startsWith(text), 'the input, the other policy included, is unchanged');
    assert.match(out.slice(text.length), /kind: GCPBackendPolicy\nmetadata:\n {2}name: m\n/);
  });
}

test('a policy for a pool whose manifest is elsewhere (no pool in the input) is still checked against the workload', () => {
  // The split-file case: the input is the Deployment and its policy only; the policy names the pool they share.
  const report = check(docs(vllm(), shortPolicy('InferencePool', 'm')), { gateway: 'gke' });
  assert.equal(only(report, 'gateway-timeout-too-short').severity, 'error');
  assert.ok(!codes(report).includes('policy-target-elsewhere'));
});

test('pools with the same plan each get a policy with their own name and namespace, quoted where YAML needs it', () => {
  // The rule writes one policy per plan and puts each pool's name and namespace in it; a name YAML 1.1 reads as
  // something else (yes: a boolean) must still come out quoted, as the generator writes it.
  const named = (name: string, namespace?: string) =>
    pool().replace('  name: m\n', `  name: ${name}\n${namespace ? `  namespace: ${namespace}\n` : ''}`);
  const text = docs(vllm(), pool(), named('chat-b'), named('"yes"'), named('chat-c', 'team-a'), named('m2'));
  const fixes = check(text, { gateway: 'gke' })
    .findings.filter((f) => f.code === 'gateway-policy-missing')
    .map((f) => [f.object, f.fix!.text]);
  const expected = (name: string, namespace = '') =>
    EXPECTED_FIX.replaceAll('  name: m\n', `  name: ${name}\n`).replace(
      'metadata:\n',
      `metadata:\n${namespace ? `  namespace: ${namespace}\n` : ''}`,
    );
  const byObject = new Map(fixes as [string, string][]);
  assert.equal(byObject.get('InferencePool/m'), EXPECTED_FIX);
  assert.equal(byObject.get('InferencePool/chat-b'), expected('chat-b'));
  assert.equal(byObject.get('InferencePool/yes'), expected('"yes"'));
  assert.equal(byObject.get('InferencePool/m2'), expected('m2'));
  assert.match(byObject.get('InferencePool/chat-c')!, /^metadata:\n {2}name: chat-c\n {2}namespace: team-a\n/m);
  assert.match(byObject.get('InferencePool/chat-c')!, /^ {4}name: chat-c\n {2}default:/m);
});
