// The CLI's argument parsing: booleans take true/false in every spelling, blank values are errors naming the
// flag, and `check` says which manifest values the command line replaced. Expected values are worked by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, UsageError } from '../../src/cli/args.ts';
import { findOverrides } from '../../src/cli/check.ts';

const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

/** The UsageError message parseArgs throws for these arguments. */
function usageError(argv: string[], options: string[] = ['format'], booleans: string[] = []): string {
  try {
    parseArgs(argv, options, booleans);
  } catch (error) {
    assert.ok(error instanceof UsageError, `not a UsageError: ${error}`);
    return error.message;
  }
  assert.fail(`no error for ${JSON.stringify(argv)}`);
}

test('a boolean input: bare, =true|false, or followed by true|false; any other next word is not its value', () => {
  assert.deepEqual(parseArgs(['--unbounded-drain'], []).inputs, { 'unbounded-drain': 'true' });
  assert.deepEqual(parseArgs(['--unbounded-drain=false'], []).inputs, { 'unbounded-drain': 'false' });
  assert.deepEqual(parseArgs(['--unbounded-drain=true'], []).inputs, { 'unbounded-drain': 'true' });
  // `--unbounded-drain false` was once read as the flag plus a file named "false".
  assert.deepEqual(parseArgs(['--unbounded-drain', 'false', 'a.yaml'], []), {
    inputs: { 'unbounded-drain': 'false' },
    options: {},
    positional: ['a.yaml'],
  });
  assert.deepEqual(parseArgs(['--unbounded-drain', 'true'], []), {
    inputs: { 'unbounded-drain': 'true' },
    options: {},
    positional: [],
  });
  assert.deepEqual(parseArgs(['--unbounded-drain', 'deploy.yaml'], []), {
    inputs: { 'unbounded-drain': 'true' },
    options: {},
    positional: ['deploy.yaml'],
  });
  assert.deepEqual(parseArgs(['--unbounded-drain', '-'], []), {
    inputs: { 'unbounded-drain': 'true' },
    options: {},
    positional: ['-'],
  });
});

test('a boolean option of the command takes the same spellings', () => {
  assert.deepEqual(parseArgs(['--check'], [], ['check']).options, { check: 'true' });
  assert.deepEqual(parseArgs(['--check=false'], [], ['check']).options, { check: 'false' });
  assert.deepEqual(parseArgs(['--check', 'false'], [], ['check']).options, { check: 'false' });
});

test('a boolean given anything but true or false is an error naming the flag', () => {
  assert.equal(usageError(['--unbounded-drain=yes']), '--unbounded-drain must be true or false (got "yes")');
  assert.equal(usageError(['--unbounded-drain=']), '--unbounded-drain needs a value after = (true or false)');
  assert.equal(usageError(['--check=on'], [], ['check']), '--check must be true or false (got "on")');
  // 1 and 0 after = read as the core reads them (the site's links use them); options store true or false.
  assert.deepEqual(parseArgs(['--unbounded-drain=1'], []).inputs, { 'unbounded-drain': '1' });
  assert.deepEqual(parseArgs(['--check=0'], [], ['check']).options, { check: 'false' });
});

test('blank values are errors naming the flag, not defaults', () => {
  assert.equal(usageError(['--replicas', '']), '--replicas needs a value (got an empty one)');
  assert.equal(usageError(['--replicas=']), '--replicas needs a value (got an empty one)');
  assert.equal(usageError(['--replicas', '  ']), '--replicas needs a value (got only spaces)');
  assert.equal(usageError(['--format', '']), '--format needs a value (got an empty one)');
  assert.equal(usageError(['--replicas']), '--replicas needs a value');
  assert.equal(usageError(['--replicas', '--gateway', 'istio']), '--replicas needs a value');
});

test('values, options, files and mistakes are told apart', () => {
  assert.deepEqual(parseArgs(['a.yaml', '--replicas', '4', '--format=json', '-', '--gateway=istio'], ['format']), {
    inputs: { replicas: '4', gateway: 'istio' },
    options: { format: 'json' },
    positional: ['a.yaml', '-'],
  });
  assert.equal(usageError(['--replicas', '2', '--replicas=3']), '--replicas is given twice');
  assert.equal(usageError(['--format', 'json', '--format', 'yaml']), '--format is given twice');
  // No flag is near --grace (the grace period is derived, not an input): no suggestion.
  assert.equal(usageError(['--grace', '5']), '--grace is not an option of this command (see --help).');
  assert.equal(
    usageError(['--gatway', 'istio']),
    '--gatway is not an option of this command (see --help). Did you mean --gateway?',
  );
});

test('the CLI: generate --unbounded-drain false is the default manifest; blank replicas exits 2 naming it', () => {
  const plain = run('generate');
  const off = run('generate', '--unbounded-drain', 'false');
  assert.equal(off.status, 0, off.stderr);
  assert.equal(off.stdout, plain.stdout);
  const on = run('generate', '--unbounded-drain=true');
  assert.equal(on.status, 0, on.stderr);
  // Unbounded: vLLM drains up to the 3600 s default cap.
  assert.match(on.stdout, /^# Inputs changed from defaults: --unbounded-drain\n/m);
  assert.match(on.stdout, /- --shutdown-timeout=3600 /);
  const blank = run('generate', '--replicas', '');
  assert.equal(blank.status, 2);
  assert.equal(blank.stdout, '');
  assert.equal(blank.stderr, 'hitless generate: --replicas needs a value (got an empty one)\n');
});

test('overrides: only command-line values that differ from the manifest\u2019s, numbers compared as numbers', () => {
  const found = [
    { flag: 'replicas', value: '4', from: 'Deployment/m spec.replicas' },
    { flag: 'gpus-per-replica', value: '2', from: 'Deployment/m spec.template.spec.containers[0].resources' },
    { flag: 'failure-mode', value: 'FailClose', from: 'InferencePool/m spec.endpointPickerRef.failureMode' },
  ];
  assert.deepEqual(
    findOverrides({ replicas: '6', 'gpus-per-replica': '2.0', gateway: 'istio', 'failure-mode': 'FailOpen' }, found),
    [
      { flag: 'replicas', value: '6', manifest: '4', from: 'Deployment/m spec.replicas' },
      {
        flag: 'failure-mode',
        value: 'FailOpen',
        manifest: 'FailClose',
        from: 'InferencePool/m spec.endpointPickerRef.failureMode',
      },
    ],
  );
  assert.deepEqual(findOverrides({}, found), []);
});

test('hitless check reports a replicas override in text and JSON, and takes --unbounded-drain false before a file', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hitless-args-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'deploy.yaml');
  // A hand-written vLLM Deployment with 4 replicas.
  writeFileSync(
    file,
    [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      '  name: m',
      'spec:',
      '  replicas: 4',
      '  selector:',
      '    matchLabels: { app: m }',
      '  template:',
      '    metadata:',
      '      labels: { app: m }',
      '    spec:',
      '      containers:',
      '        - name: vllm',
      '          image: vllm/vllm-openai:v0.18.1',
      '          args: ["--model", "Qwen/Qwen3-32B"]',
      '',
    ].join('\n'),
  );
  const text = run('check', file, '--replicas', '6', '--unbounded-drain', 'false');
  assert.ok(text.status === 0 || text.status === 1, text.stderr);
  assert.match(
    text.stdout,
    /\n {2}Your setting: --replicas 6 replaces the manifest's 4 \(Deployment\/m spec\.replicas\)\n/,
  );
  const json = JSON.parse(run('check', '--unbounded-drain', 'false', file, '--replicas=6', '--format', 'json').stdout);
  assert.deepEqual(json.overrides, [
    { flag: 'replicas', value: '6', manifest: '4', from: 'Deployment/m spec.replicas' },
  ]);
  // The same value as the manifest's replaces nothing.
  assert.deepEqual(JSON.parse(run('check', file, '--replicas', '4', '--format=json').stdout).overrides, []);
});
