// Values at and beyond each range's ends, judged as the API server judges them (content/kubernetes/value-ranges.yaml):
// the JSON kubectl sends is decoded into int32 or int64 (a number past the type, a fraction, an exponent JSON keeps as
// 1e+30 is refused), then validated (validateProbe and the grace period: not negative).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { check, fixed, vllm } from '../support/check.ts';

const rejected = (text: string) => check(text).findings.filter((f) => f.code === 'value-rejected');

test('terminationGracePeriodSeconds (int64, at least 0): -1, 2^63, 1e30 and .nan are refused; 0 and 2^63 - 1 are not', () => {
  const at = (v: string) => rejected(vllm({ grace: `terminationGracePeriodSeconds: ${v}` })).map((f) => f.message);
  assert.deepEqual(at('0'), []);
  assert.deepEqual(at('9223372036854775807'), []);
  assert.deepEqual(at('-1'), [
    'terminationGracePeriodSeconds: -1 is below 0, so the API server rejects Deployment/m; the checker cannot read it and checks the rest without it.',
  ]);
  assert.match(
    at('9223372036854775808')[0],
    /^terminationGracePeriodSeconds: 9223372036854775808 does not fit its type, int64/,
  );
  assert.match(at('1e30')[0], /^terminationGracePeriodSeconds: 1e\+30 does not fit its type, int64/);
  assert.match(at('.nan')[0], /^terminationGracePeriodSeconds: NaN is not a whole number/);
});

test('a probe periodSeconds (int32, at least 0): 2^31 - 1 passes, 2^31 is refused', () => {
  const at = (v: string) => rejected(vllm().replace('periodSeconds: 5', `periodSeconds: ${v}`)).map((f) => f.message);
  assert.deepEqual(at('0'), []);
  assert.deepEqual(at('2147483647'), []);
  assert.match(at('2147483648')[0], /^periodSeconds: 2147483648 does not fit its type, int32/);
  assert.match(at('-1')[0], /^periodSeconds: -1 is below 0/);
});

test('numbers as kubectl reads YAML: 0o36, 036, 0x1e, 1e3 and 30.0 are numbers the API server takes', () => {
  for (const v of ['0o36', '036', '0x1e', '1e3', '30.0'])
    assert.deepEqual(rejected(vllm({ grace: `terminationGracePeriodSeconds: ${v}` })), [], v);
  // go-yaml reads base 60 as a string; YAML 1.1 would read 1:30 as 90.
  assert.match(rejected(vllm({ grace: 'terminationGracePeriodSeconds: 1:30' }))[0].message, /"1:30" is a string/);
});

test('fixing any boundary value of the grace period or the preStop sleep writes only values in range, and converges', () => {
  const values = [
    '-1',
    '0',
    '2147483647',
    '2147483648',
    '9007199254740993',
    '9223372036854775807',
    '9223372036854775808',
    '1e30',
    '.nan',
  ];
  fc.assert(
    fc.property(fc.constantFrom(...values), fc.constantFrom(...values), (grace, sleep) => {
      const text = vllm({ grace: `terminationGracePeriodSeconds: ${grace}` }).replace(
        'seconds: 35',
        `seconds: ${sleep}`,
      );
      const once = fixed(text);
      assert.equal(fixed(once), once, `${grace} / ${sleep}: one pass converges`);
      assert.doesNotMatch(once, /--shutdown-timeout=-/);
      for (const m of once.matchAll(/(?:terminationGracePeriodSeconds|progressDeadlineSeconds|seconds): (\d+)/g))
        assert.ok(Number.isSafeInteger(Number(m[1])) || m[1] === grace || m[1] === sleep, m[0]);
    }),
    { numRuns: 81, seed: 34 },
  );
});

/** The Deployment's rolling-update bounds replaced. */
const bounds = (surge: string, unavailable: string) =>
  vllm({
    strategy: `strategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: ${surge}\n      maxUnavailable: ${unavailable}`,
  });

test('maxSurge and maxUnavailable (IntOrString): a count from 0 or digits and %; maxUnavailable at most 100%', () => {
  const at = (surge: string, unavailable: string) => rejected(bounds(surge, unavailable)).map((f) => f.message);
  assert.deepEqual(at('1', '100%'), []);
  assert.deepEqual(at('300%', '0'), [], 'maxSurge has no percentage cap');
  assert.deepEqual(at('-1', '1'), [
    'maxSurge: -1 is below 0, so the API server rejects Deployment/m; the checker cannot read it and checks the rest without it.',
  ]);
  assert.match(at('0', '101%')[0], /^maxUnavailable: 101% is above 100%, so the API server rejects Deployment\/m/);
  assert.match(at('"25 %"', '1')[0], /^maxSurge: "25 %" is neither a count nor a percentage such as 25%/);
  // A quoted count is a string to IntOrString, and not a percentage: refused, and fixed by unquoting it.
  const quoted = check(bounds('"1"', '0')).findings.find((f) => f.code === 'value-rejected');
  assert.equal(quoted?.fix?.text, 'maxSurge: 1');
  const manual = check(bounds('-1', '1')).findings.find((f) => f.code === 'value-rejected');
  assert.equal(
    manual?.fix?.text,
    'Manual: write maxSurge as a whole number from 0 to 2147483647 or a percentage such as 25%.',
  );
});

test('maxSurge and maxUnavailable both 0 (or 0%) are refused; one 0 beside the 25% default is not', () => {
  const at = (text: string) => rejected(text).map((f) => [f.path, f.message]);
  const both =
    'maxSurge (0) and maxUnavailable (0%) are both 0; at least one must be above 0 (a count or a percentage), so the API server rejects Deployment/m.';
  assert.deepEqual(at(bounds('0', '0%')), [['spec.strategy.rollingUpdate.maxUnavailable', both]]);
  assert.deepEqual(at(vllm({ strategy: 'strategy:\n    rollingUpdate:\n      maxSurge: 0' })), []);
  // Recreate has no rolling-update bounds to relate.
  assert.deepEqual(at(vllm({ strategy: 'strategy:\n    type: Recreate' })), []);
});

test('progressDeadlineSeconds must be greater than minReadySeconds, its default 600 included', () => {
  const withMinReady = (deadline: string, minReady: number) =>
    vllm({ progressDeadline: `${deadline}\n  minReadySeconds: ${minReady}` });
  assert.deepEqual(rejected(withMinReady('progressDeadlineSeconds: 725', 724)), []);
  assert.deepEqual(
    rejected(withMinReady('progressDeadlineSeconds: 725', 725)).map((f) => [f.path, f.message]),
    [
      [
        'spec.progressDeadlineSeconds',
        'progressDeadlineSeconds (725) is not greater than minReadySeconds (725); progressDeadlineSeconds must be from 726 to 2147483647, so the API server rejects Deployment/m.',
      ],
    ],
  );
  assert.match(
    rejected(withMinReady('', 600))[0].message,
    /^progressDeadlineSeconds \(600, the default\) is not greater than minReadySeconds \(600\)/,
  );
});

test('a fix never writes a value that breaks a relation: the progress deadline below a huge minReadySeconds is manual', () => {
  // progressDeadlineSeconds 60 is too short (progress-deadline-too-short would raise it to the plan's 725), and
  // minReadySeconds 5000 already breaks the relation: 725 would still not be above it, so nothing is written.
  const text = vllm({ progressDeadline: 'progressDeadlineSeconds: 60\n  minReadySeconds: 5000' });
  const short = check(text).findings.find((f) => f.code === 'progress-deadline-too-short');
  assert.ok(short, 'progress-deadline-too-short fires');
  assert.match(
    short.fix?.text ?? '',
    /^Manual: with the fix, progressDeadlineSeconds \(\d+\) is not greater than minReadySeconds \(5000\)/,
  );
  assert.match(fixed(text), /progressDeadlineSeconds: 60\n/);
});

test('liveness and startup successThreshold must be 1 (0 is defaulted to 1); readiness takes any count from 0', () => {
  const probe = (kind: 'liveness' | 'readiness' | 'startup', v: number) =>
    rejected(vllm().replace(`${kind}Probe:\n`, `${kind}Probe:\n            successThreshold: ${v}\n`)).map(
      (f) => f.message,
    );
  assert.deepEqual(probe('liveness', 0), []);
  assert.deepEqual(probe('liveness', 1), []);
  assert.match(probe('liveness', 2)[0], /^successThreshold: 2 is above 1, so the API server rejects Deployment\/m/);
  assert.match(probe('startup', 3)[0], /^successThreshold: 3 is above 1/);
  assert.deepEqual(probe('readiness', 2), []);
  assert.match(probe('readiness', -1)[0], /^successThreshold: -1 is below 0/);
});
