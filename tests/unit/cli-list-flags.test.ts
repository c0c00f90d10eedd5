// List-valued flags refuse a key given twice (issue 34 item 7): `policy --namespace-selector a=b,a=c` kept `a: c`
// without a word, and `verify --header X-Key:1 --header x-key:2` sent only the last. Each exits 2 naming the flag and
// the key, never a header's value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { UsageError } from '../../src/cli/args.ts';
import { readNamespaceSelector } from '../../src/cli/policy.ts';
import { parseVerifyOptions } from '../../src/cli/verify-options.ts';

const MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;

test('--namespace-selector: distinct keys are read; a key twice is refused, named', () => {
  assert.deepEqual(readNamespaceSelector('a=b,team=x,example.com/tier=gold'), {
    a: 'b',
    team: 'x',
    'example.com/tier': 'gold',
  });
  for (const [text, key] of [
    ['a=b,a=c', 'a'],
    ['a=b,a=b', 'a'],
    ['x=1,team=t,team=', 'team'],
  ]) {
    assert.throws(() => readNamespaceSelector(text), {
      name: 'UsageError',
      message: `--namespace-selector gives the label ${key} twice; a namespace has one value for a label`,
    });
  }
});

test('policy --namespace-selector a=b,a=c exits 2 with one line and prints no policy', () => {
  const r = spawnSync(process.execPath, [MAIN, 'policy', '--namespace-selector', 'a=b,a=c'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(r.status, 2);
  assert.equal(r.stdout, '');
  assert.deepEqual(r.stderr.split('\n').filter(Boolean), [
    'hitless policy: --namespace-selector gives the label a twice; a namespace has one value for a label',
  ]);
});

test('verify --header: the same name twice, in any case, is refused without echoing a value', () => {
  const base = ['--url', 'http://127.0.0.1:9', '--model', 'm'];
  const message = (argv: string[]) => {
    try {
      parseVerifyOptions([...base, ...argv], {});
      return null;
    } catch (error) {
      assert.ok(error instanceof UsageError, String(error));
      return error.message;
    }
  };
  assert.equal(message(['--header', 'X-Key: s3cret1', '--header', 'X-Other: 2']), null);
  const twice = message(['--header', 'X-Key: s3cret1', '--header=x-key: s3cret2']);
  assert.equal(twice, '--header x-key is given twice (header names ignore case); give each header once');
  assert.doesNotMatch(twice ?? '', /s3cret/);
});
