// `hitless check --format diff`: a unified diff that `patch` applies to give the fixed manifest exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unifiedDiff } from '../../src/check/fix/diff.ts';
import { CHECK_TEST_SETTINGS, fixed } from '../support/check.ts';

test('a one-line change gives one hunk with three lines of context', () => {
  const before = 'a\nb\nc\nd\ne\nf\ng\n';
  const after = 'a\nb\nc\nD\ne\nf\ng\n';
  assert.equal(
    unifiedDiff(before, after, 'm.yaml'),
    '--- a/m.yaml\n+++ b/m.yaml\n@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n',
  );
  assert.equal(unifiedDiff(before, before, 'm.yaml'), '');
});

test('lines added at the end of a file get a hunk of their own', () => {
  assert.equal(unifiedDiff('a\nb\n', 'a\nb\nc\n', 'x'), '--- a/x\n+++ b/x\n@@ -1,2 +1,3 @@\n a\n b\n+c\n');
});

test('the CLI diff, applied with patch, gives the fixed manifest', {
  skip: spawnSync('sh', ['-c', 'command -v patch']).status !== 0 && 'no patch',
}, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hitless-diff-'));
  try {
    for (const name of [
      'bash-exc-pip-install.yaml',
      'custom-tags-comments.yaml',
      'python-m-flow.yaml',
      'yaml11-literals.yaml',
    ]) {
      const source = new URL(`../fixtures/deployments/${name}`, import.meta.url);
      const text = readFileSync(source, 'utf8');
      const file = join(dir, name);
      writeFileSync(file, text);
      const cli = spawnSync(
        process.execPath,
        [
          new URL('../../src/cli/main.ts', import.meta.url).pathname,
          'check',
          file,
          '--format',
          'diff',
          ...Object.entries(CHECK_TEST_SETTINGS).flatMap(([k, v]) => [`--${k}`, v]),
        ],
        { encoding: 'utf8' },
      );
      assert.ok(cli.status === 0 || cli.status === 1, cli.stderr);
      const patched = spawnSync('patch', ['-s', file], { input: cli.stdout, encoding: 'utf8' });
      assert.equal(patched.status, 0, patched.stderr + patched.stdout);
      assert.equal(readFileSync(file, 'utf8'), fixed(text), name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
