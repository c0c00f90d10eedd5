/**
 * Hostile input to the CLI's one bounded reader (src/cli/read-input.ts) and to `hitless check`: endless sources
 * (/dev/zero on stdin, as a file, as --prompt-file), one huge document, FIFOs (`<(…)`, /dev/stdin), directories and
 * `--`. Each run asserts the exit code, a one-line message and no stack trace; sizes are worked out by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { formatBytes, InputError, readChunks, readTextSync } from '../../src/cli/read-input.ts';
import { MAX_MEASURED_BYTES, measureOversize } from '../../src/cli/oversize-document.ts';

const MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;
const hasDevZero = existsSync('/dev/zero');

/** Run a bash script with $NODE and $MAIN set (for redirections and process substitution). */
function shell(script: string, cwd?: string) {
  return spawnSync('bash', ['-c', script], {
    encoding: 'utf8',
    cwd,
    env: { ...process.env, NODE: process.execPath, MAIN },
    timeout: 60_000,
  });
}

/** The run ended with `status` and one line on stderr matching `line`, with no stack trace. */
function oneLine(r: ReturnType<typeof shell>, status: number, line: RegExp) {
  assert.equal(r.status, status, `status (stderr: ${r.stderr})`);
  const lines = r.stderr.split('\n').filter(Boolean);
  assert.equal(lines.length, 1, `one line on stderr: ${r.stderr}`);
  assert.match(lines[0], line);
  assert.doesNotMatch(r.stderr, /\n\s+at |Error:/, 'no stack trace');
}

const VALID = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: v}\n`;

test('the reader stops at its cap: /dev/zero is refused after cap + one chunk, naming the source and the limit', {
  skip: !hasDevZero,
}, async () => {
  assert.throws(
    () => readTextSync('/dev/zero', 1000, '--prompt-file "/dev/zero"'),
    (e: unknown) =>
      e instanceof InputError
      && e.message === '--prompt-file "/dev/zero" is over the limit of 1000 bytes (reading stopped there)',
  );
  let seen = 0;
  await assert.rejects(
    readChunks('/dev/zero', 200_000, (chunk) => {
      seen += chunk.length;
    }),
    /\/dev\/zero is over the limit of 195\.3 KiB \(reading stopped there\)/,
  );
  // 200,000 bytes are three whole 64 KiB chunks (196,608); the fourth passes the cap and is not given.
  assert.equal(seen, 3 * 65_536);
});

test('the reader: a directory and a missing path are named; take() returning false stops the read', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-input-'));
  try {
    await assert.rejects(
      readChunks(dir, 10, () => {}),
      (e: unknown) => e instanceof InputError && e.problem === 'is a directory',
    );
    assert.throws(
      () => readTextSync(join(dir, 'none'), 10),
      (e: unknown) => e instanceof InputError && e.code === 'ENOENT',
    );
    const file = join(dir, 'f');
    writeFileSync(file, 'x'.repeat(200_000));
    let chunks = 0;
    assert.equal(await readChunks(file, 1e9, () => ++chunks > 1 && false), 65_536);
    assert.equal(chunks, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('property: a file within the cap is read whole; one over it is refused unread, naming the cap and its size', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-input-'));
  try {
    fc.assert(
      fc.property(fc.nat(140_000), fc.integer({ min: 1, max: 140_000 }), (size, cap) => {
        const file = join(dir, 'p');
        writeFileSync(file, 'a'.repeat(size));
        if (size <= cap) assert.equal(readTextSync(file, cap).length, size);
        else
          assert.throws(() => readTextSync(file, cap), {
            message: `${file} is over the limit of ${formatBytes(cap)} (${formatBytes(size)})`,
          });
      }),
      { numRuns: 60 },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('property: an oversize document measures the same however the text after it is cut into reads', () => {
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom('a', 'é', '\n', '-', ' ', '€'), maxLength: 300 }),
      fc.constantFrom('', '\n---\nnext: 1\n', '\n--- # c\n', '\n---'),
      fc.array(fc.nat(400), { maxLength: 6 }),
      (rest, after, cuts) => {
        const text = rest + after;
        // The document's bytes: 1000 already read, then `rest` up to the first document start in the text.
        const start = /\n---(?=[ \t\r\n]|$)/.exec(`x${text}`);
        const body = start ? `x${text}`.slice(1, start.index + 1) : text;
        const expected = 1000 + Buffer.byteLength(body);
        const measure = measureOversize(1000, 'x');
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        let size: number | undefined;
        let from = 0;
        for (const at of [...points, text.length]) {
          size ??= measure.push(text.slice(from, at));
          from = at;
        }
        assert.equal(size ?? measure.end(), expected);
      },
    ),
    { numRuns: 200 },
  );
  assert.equal(MAX_MEASURED_BYTES, 64 * 1024 * 1024);
});

test('check - < /dev/zero ends: exit 2, the document is over 64 MiB (measured no further)', {
  skip: !hasDevZero,
}, () => {
  const r = shell('"$NODE" "$MAIN" check - < /dev/zero');
  oneLine(
    r,
    2,
    /^hitless check: -:1: The YAML document at line 1 is over ([\d,]+) KiB \(reading stopped there\); the checker reads at most 256 KiB per document\.$/,
  );
  const kib = Number(/over ([\d,]+) KiB/.exec(r.stderr)![1].replace(/,/g, ''));
  assert.ok(kib >= 65_536 && kib <= 65_536 + 128, `${kib} KiB: 64 MiB and at most two chunks more`);
});

test('one 3 MiB document is refused with its size and the line of its `---`; nothing after it is the cause', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-input-'));
  try {
    // Its `---` is line 5 (the ConfigMap before it has 4 lines). "k: " + 3 MiB of x + "\n" = 3,145,732 bytes = 3,072.004 KiB, written rounded up: 3,073 KiB.
    writeFileSync(join(dir, 'big.yaml'), `${VALID}---\nk: ${'x'.repeat(3 * 1024 * 1024)}\n---\n${VALID}`);
    writeFileSync(join(dir, 'after.yaml'), VALID);
    const r = shell('"$NODE" "$MAIN" check big.yaml after.yaml', dir);
    oneLine(
      r,
      2,
      /^hitless check: big\.yaml:\d+: The YAML document at line 5 is 3,073 KiB; the checker reads at most 256 KiB per document\.$/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('FIFOs are read: check <(cat file) and check /dev/stdin, as a file is', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-input-'));
  try {
    writeFileSync(join(dir, 'a.yaml'), VALID);
    const plain = shell('"$NODE" "$MAIN" check a.yaml', dir);
    assert.equal(plain.status, 0, plain.stderr);
    const fifo = shell('"$NODE" "$MAIN" check <(cat a.yaml)', dir);
    assert.equal(fifo.status, 0, fifo.stderr);
    assert.doesNotMatch(fifo.stderr, /not a file/);
    assert.match(fifo.stdout, /^\/dev\/fd\/\d+: /);
    const stdin = shell('"$NODE" "$MAIN" check /dev/stdin < a.yaml', dir);
    assert.equal(stdin.status, 0, stdin.stderr);
    assert.match(stdin.stdout, /^\/dev\/stdin: /);
    oneLine(shell('"$NODE" "$MAIN" check .', dir), 2, /^hitless check: \. is a directory$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('/dev/stdin and /dev/fd/0 handed over a socket (as Node and some CI runners pass stdin) are read where they are', () => {
  // A socket cannot be opened again by path (ENXIO); spawnSync's `input` gives the child a socket pair as stdin.
  const viaSocket = (path: string, input: string) =>
    spawnSync(process.execPath, [MAIN, 'check', path], { input, encoding: 'utf8', timeout: 60_000 });
  const stdin = viaSocket('/dev/stdin', VALID);
  assert.equal(stdin.status, 0, stdin.stderr);
  assert.match(stdin.stdout, /^\/dev\/stdin: /);
  const fd = viaSocket('/dev/fd/0', VALID);
  assert.equal(fd.status, 0, fd.stderr);
  // The caps hold there too: one document over 256 KiB is refused after 3 MB came through the socket.
  const big = viaSocket('/dev/stdin', `a: "${'x'.repeat(3_000_000)}"\n`);
  assert.equal(big.status, 2);
  assert.match(
    big.stderr,
    /^hitless check: \/dev\/stdin:1: The YAML document at line 1 is [\d,]+ KiB; the checker reads at most 256 KiB per document\.\n$/,
  );
});

test('-- ends the options: a file named --help is checked, not a request for help', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-input-'));
  try {
    oneLine(shell('"$NODE" "$MAIN" check -- --help', dir), 2, /^hitless check: --help does not exist$/);
    writeFileSync(join(dir, '--help'), VALID);
    const r = shell('"$NODE" "$MAIN" check --format text -- --help', dir);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^--help: /);
    oneLine(shell('"$NODE" "$MAIN" generate -- --replicas', dir), 2, /^hitless generate: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('verify --prompt-file /dev/zero is refused at 1 MiB, before any request', { skip: !hasDevZero }, () => {
  const r = shell('"$NODE" "$MAIN" verify --url http://127.0.0.1:9 --model m --prompt-file /dev/zero');
  oneLine(r, 2, /^hitless verify: --prompt-file "\/dev\/zero" is over the limit of 1 MiB \(reading stopped there\)$/);
});

test('verify --merge /dev/zero is refused at its first chunk: JSON never holds a NUL byte', {
  skip: !hasDevZero,
}, () => {
  const r = shell('"$NODE" "$MAIN" verify --merge /dev/zero');
  oneLine(r, 2, /^hitless verify: --merge: \/dev\/zero holds a NUL byte, so it is not a JSON report$/);
});

test('an oversize document in the second file is named by that file\u2019s own line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-input-'));
  try {
    writeFileSync(join(dir, 'a.yaml'), VALID);
    // Line 1 a small document; the big one starts at its `---` on line 2: "---\n" + "k: " + 300 KiB of x + "\n" is
    // 307,208 bytes, 300.008 KiB, written rounded up. The joined text's line (7, after a.yaml's 4 and a `---`) is not said.
    writeFileSync(join(dir, 'b.yaml'), `x: 1\n---\nk: ${'x'.repeat(300 * 1024)}\n`);
    const r = shell('"$NODE" "$MAIN" check a.yaml b.yaml', dir);
    oneLine(
      r,
      2,
      /^hitless check: b\.yaml:2: The YAML document at line 2 is 301 KiB; the checker reads at most 256 KiB per document\.$/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
