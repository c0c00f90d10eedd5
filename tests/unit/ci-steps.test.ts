// CI steps: the composite action is valid GitHub Action metadata (checked with action-validator's schema), and
// its check step passes exactly the changed manifests to `hitless check --format github`, run in a real git
// repository with a stand-in hitless on PATH that records its arguments.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

const require = createRequire(import.meta.url);
const { validateAction } = require('@action-validator/core') as { validateAction(src: string): { errors: unknown[] } };
const ACTION = readFileSync(new URL('../../action.yml', import.meta.url), 'utf8');

test('action.yml is valid action metadata, and the validator refuses a broken copy', () => {
  assert.deepEqual(validateAction(ACTION).errors, []);
  assert.ok(validateAction(ACTION.replace('using: composite', 'using: bogus')).errors.length > 0);
});

test('the check step passes only the changed manifests that match the paths', () => {
  const step = (parse(ACTION) as { runs: { steps: { name?: string; run?: string }[] } }).runs.steps.find(
    (s) => s.name === 'Check the changed manifests',
  )!;
  const work = mkdtempSync(join(tmpdir(), 'hitless-action-'));
  try {
    const git = (...args: string[]) => {
      const r = spawnSync('git', ['-c', 'user.email=t@example.invalid', '-c', 'user.name=t', ...args], {
        cwd: work,
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
    };
    git('init', '-q');
    mkdirSync(join(work, 'deploy'));
    writeFileSync(join(work, 'deploy', 'old.yaml'), 'kind: Deployment\n');
    writeFileSync(join(work, 'README.md'), 'x\n');
    git('add', '.');
    git('commit', '-qm', 'base');
    writeFileSync(join(work, 'deploy', 'vllm.yaml'), 'kind: Deployment\n');
    writeFileSync(join(work, 'deploy', 'pool.yml'), 'kind: InferencePool\n');
    writeFileSync(join(work, 'README.md'), 'y\n');
    git('add', '.');
    git('commit', '-qm', 'change');
    const bin = join(work, '.bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'hitless'), '#!/bin/sh\nprintf "%s\\n" "$@" > "$HITLESS_RECORD"\n');
    chmodSync(join(bin, 'hitless'), 0o755);
    const record = join(work, '.record');
    const r = spawnSync('bash', ['-c', step.run!], {
      cwd: work,
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
        HITLESS_RECORD: record,
        HITLESS_PATHS: "'*.yaml' '*.yml'".replaceAll("'", ''),
        HITLESS_BASE: '',
        HITLESS_ARGS: '--gateway istio',
      },
    });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(readFileSync(record, 'utf8').trim().split('\n'), [
      'check',
      '--format',
      'github',
      '--gateway',
      'istio',
      'deploy/pool.yml',
      'deploy/vllm.yaml',
    ]);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
