// The CLI in pipes: a reader that stops early, or a full disk, ends it quietly, never with a stack trace and
// never with 1 (which `hitless check` uses for findings). Statuses: 141 = 128 + SIGPIPE, 74 = EX_IOERR.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

test('hitless generate into a pipe whose reader has gone: 141, its warnings still on stderr, no stack trace', () => {
  // The reader closes its end and exits first (it writes the flag file last); only then does the CLI start.
  const dir = mkdtempSync(join(tmpdir(), 'hitless-pipe-'));
  const flag = join(dir, 'closed');
  const r = shell(
    `{ until [ -e "${flag}" ]; do sleep 0.05; done; "$NODE" "$BIN" generate --model-server llamacpp; echo "status $?" >&2; } | { exec 0<&-; touch "${flag}"; }`,
  );
  rmSync(dir, { recursive: true, force: true });
  // llama.cpp does not drain: a warning the output cannot resolve (the defaults' autoscaler limit is resolved in it).
  assert.match(r.stderr, /^warning \[no-drain\]: /m, 'the warnings after the manifest are written');
  assert.match(r.stderr, /^status 141$/m);
  assert.doesNotMatch(r.stderr, /hitless: cannot write/);
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
});
