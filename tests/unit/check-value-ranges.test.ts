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
