// The CLI in pipes: a reader that stops early, or a full disk, ends it quietly, never with a stack trace and
// never with 1 (which `hitless check` uses for findings). Statuses: 141 = 128 + SIGPIPE, 74 = EX_IOERR.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));
const node = process.execPath;

function shell(script: string) {
  return spawnSync('bash', ['-c', script], {
    encoding: 'utf8',
    env: { ...process.env, NODE: node, BIN: bin },
    timeout: 60_000,
  });
}

test('hitless inputs | head -1: the pipeline exits 0, nothing on stderr, the CLI ends with 141', () => {
  const r = shell('"$NODE" "$BIN" inputs | head -1; echo "status ${PIPESTATUS[0]} ${PIPESTATUS[1]}"');
  assert.equal(r.stderr, '');
  const lines = r.stdout.trim().split('\n');
  assert.equal(lines[0], '--gateway');
  assert.equal(lines.at(-1), 'status 141 0');
});

test('hitless generate > /dev/full: one line on stderr and 74, no stack trace', {
  skip: !existsSync('/dev/full'),
}, () => {
  const r = shell('"$NODE" "$BIN" generate > /dev/full; echo "status $?"');
  assert.equal(r.stdout.trim(), 'status 74');
  const errorLines = r.stderr.split('\n').filter((l) => l.startsWith('hitless: '));
  assert.deepEqual(errorLines, ['hitless: cannot write the output: ENOSPC: no space left on device, write']);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
});
