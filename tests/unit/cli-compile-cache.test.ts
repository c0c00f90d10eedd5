// Where the installable package keeps Node's compile cache (src/cli/compile-cache.ts): in the user's own
// `$XDG_CACHE_HOME/hitless` or `~/.cache/hitless` (mode 0700), never in a shared temporary folder, and never through
// a symlink or in a folder someone else owns or can write to. The package is built once and run as a reader runs it,
// in a process of its own with a home and a TMPDIR of the test's, on the project's Node 24; each hostile state is
// planted by hand and the test looks at what the run left on disk.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileCacheFolder } from '../../src/cli/compile-cache.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The project's Node 24: the package needs >= 22.12. */
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
/** Node's own cache folder for this Node: `v<version>-<arch>-<hash>-<uid>`, inside the folder it was given. */
const NODE_CACHE_FOLDER = new RegExp(`^${process.version.replaceAll('.', '\\.')}-${process.arch}-[0-9a-f]+-\\d+$`);

let work = '';
let entry = '';

before(() => {
  work = mkdtempSync(join(tmpdir(), 'hitless-compile-cache-'));
  const built = spawnSync(NODE, ['scripts/build-cli.ts', join(work, 'package')], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(built.status, 0, built.stderr);
  entry = join(work, 'package', 'bin', 'hitless.cjs');
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A fresh folder for one case: an empty home and an empty TMPDIR. */
function place(name: string): { home: string; tmp: string } {
  const home = join(work, name, 'home');
  const tmp = join(work, name, 'tmp');
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  return { home, tmp };
}

/**
 * `hitless generate --gateway istio` from the package, with only the environment given (PATH aside): no
 * NODE_COMPILE_CACHE, XDG_CACHE_HOME or HOME of the test's own process leaks in.
 */
function generate(env: Record<string, string>) {
  const r = spawnSync(NODE, [entry, 'generate', '--gateway', 'istio'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    timeout: 30_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every path under `dir`, relative to it, sorted. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

/** What the package prints with no cache at all: every case must print exactly this. */
let expected: ReturnType<typeof generate>;
before(() => {
  const { home, tmp } = place('baseline');
  expected = generate({ HOME: home, TMPDIR: tmp, NODE_DISABLE_COMPILE_CACHE: '1' });
  assert.equal(expected.status, 0, expected.stderr);
  // The pool comes from the chart install the header states.
  assert.match(
    expected.stdout,
    /^# {3}helm install vllm-qwen3-32b oci:\/\/registry\.k8s\.io\/gateway-api-inference-extension\/charts\/inferencepool /m,
  );
  // NODE_DISABLE_COMPILE_CACHE: not even the folder is made.
  assert.deepEqual(tree(home), []);
  assert.deepEqual(tree(tmp), []);
});

test('normal case: the cache is written under ~/.cache/hitless (0700, the user’s), TMPDIR stays empty, the output is the same', () => {
  const { home, tmp } = place('normal');
  const first = generate({ HOME: home, TMPDIR: tmp });
  assert.deepEqual(first, expected);
  const dir = join(home, '.cache', 'hitless');
  const s = lstatSync(dir);
  assert.ok(s.isDirectory());
  assert.equal(s.mode & 0o777, 0o700);
  assert.equal(s.uid, process.getuid!());
  // Node's own layout inside it: one folder for this Node, with a cache file for each module it compiled after the
  // cache was enabled: the generate bundle (the entry itself was compiled before).
  const inside = readdirSync(dir);
  assert.equal(inside.length, 1, inside.join(', '));
  assert.match(inside[0], NODE_CACHE_FOLDER);
  assert.equal(readdirSync(join(dir, inside[0])).length, 1);
  assert.deepEqual(tree(tmp), [], 'nothing in TMPDIR');
  // The second run reads the cache and prints byte for byte the same.
  const second = generate({ HOME: home, TMPDIR: tmp });
  assert.deepEqual(second, expected);
  assert.deepEqual(tree(tmp), []);
});

test('$XDG_CACHE_HOME/hitless when XDG_CACHE_HOME is set; ~/.cache is then left alone', () => {
  const { home, tmp } = place('xdg');
  const xdg = join(work, 'xdg', 'cache');
  assert.deepEqual(generate({ HOME: home, TMPDIR: tmp, XDG_CACHE_HOME: xdg }), expected);
  assert.equal(lstatSync(join(xdg, 'hitless')).mode & 0o777, 0o700);
  assert.match(readdirSync(join(xdg, 'hitless'))[0], NODE_CACHE_FOLDER);
  assert.deepEqual(tree(home), []);
  assert.deepEqual(tree(tmp), []);
});

test('a symlink at ~/.cache/hitless is not followed: nothing is written in the folder it points to', () => {
  const { home, tmp } = place('symlink');
  const target = join(work, 'symlink', 'elsewhere');
  mkdirSync(target, { mode: 0o700 });
  mkdirSync(join(home, '.cache'));
  symlinkSync(target, join(home, '.cache', 'hitless'));
  assert.deepEqual(generate({ HOME: home, TMPDIR: tmp }), expected);
  assert.deepEqual(tree(target), [], 'nothing through the symlink');
  assert.ok(lstatSync(join(home, '.cache', 'hitless')).isSymbolicLink(), 'the symlink is left as it was');
  assert.deepEqual(tree(tmp), [], 'and no fallback to TMPDIR');
});

test('a dangling symlink at ~/.cache/hitless is not followed: its target is not created', () => {
  const { home, tmp } = place('dangling');
  const target = join(work, 'dangling', 'nowhere');
  mkdirSync(join(home, '.cache'));
  symlinkSync(target, join(home, '.cache', 'hitless'));
  assert.deepEqual(generate({ HOME: home, TMPDIR: tmp }), expected);
  assert.equal(existsSync(target), false);
  assert.deepEqual(tree(tmp), []);
});

for (const mode of [0o777, 0o770, 0o702]) {
  test(`a folder others can write to (mode ${mode.toString(8)}) is not used`, () => {
    const { home, tmp } = place(`writable-${mode.toString(8)}`);
    const dir = join(home, '.cache', 'hitless');
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, mode);
    assert.deepEqual(generate({ HOME: home, TMPDIR: tmp }), expected);
    assert.deepEqual(tree(dir), []);
    assert.equal(lstatSync(dir).mode & 0o777, mode, 'its mode is left as it was');
    assert.deepEqual(tree(tmp), []);
  });
}

test('a folder another user owns is not used', {
  skip: process.getuid?.() === 0 ? false : 'needs root, to give a folder to uid 65534',
}, () => {
  const { home, tmp } = place('other-user');
  const dir = join(home, '.cache', 'hitless');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chownSync(dir, 65534, 65534);
  // Root could write there: only the owner check keeps the cache out.
  assert.deepEqual(generate({ HOME: home, TMPDIR: tmp }), expected);
  assert.deepEqual(tree(dir), []);
  assert.equal(lstatSync(dir).uid, 65534);
  assert.deepEqual(tree(tmp), []);
});

test('no home and no XDG_CACHE_HOME: no cache, and nothing in TMPDIR (Node’s default folder) either', () => {
  const { tmp } = place('no-home');
  assert.deepEqual(generate({ TMPDIR: tmp }), expected);
  assert.deepEqual(generate({ HOME: '', TMPDIR: tmp }), expected);
  assert.deepEqual(tree(tmp), []);
});

test('NODE_COMPILE_CACHE: Node’s cache goes there, and Hitless makes no folder of its own', () => {
  const { home, tmp } = place('node-compile-cache');
  const given = join(work, 'node-compile-cache', 'given');
  assert.deepEqual(generate({ HOME: home, TMPDIR: tmp, NODE_COMPILE_CACHE: given }), expected);
  assert.match(readdirSync(given)[0], NODE_CACHE_FOLDER);
  assert.deepEqual(tree(home), []);
  assert.deepEqual(tree(tmp), []);
});

// Node turns its cache off for the variable set to anything, even empty; Hitless then makes no folder either.
for (const value of ['1', '']) {
  test(`NODE_DISABLE_COMPILE_CACHE=${JSON.stringify(value)}: nothing is written anywhere`, () => {
    const { home, tmp } = place(`disabled-${value}`);
    const xdg = join(work, `disabled-${value}`, 'xdg');
    const run = generate({ HOME: home, TMPDIR: tmp, XDG_CACHE_HOME: xdg, NODE_DISABLE_COMPILE_CACHE: value });
    assert.deepEqual(run, expected);
    assert.equal(existsSync(xdg), false);
    assert.deepEqual(tree(home), []);
    assert.deepEqual(tree(tmp), []);
  });
}

test('compileCacheFolder: the folder chosen from the environment, worked out by hand', () => {
  const home = join(work, 'choice', 'home');
  mkdirSync(home, { recursive: true });
  assert.equal(compileCacheFolder({ HOME: home }), join(home, '.cache', 'hitless'));
  const xdg = join(work, 'choice', 'xdg');
  assert.equal(compileCacheFolder({ HOME: home, XDG_CACHE_HOME: xdg }), join(xdg, 'hitless'));
  // A relative XDG_CACHE_HOME is ignored (the XDG spec), a relative HOME too.
  assert.equal(compileCacheFolder({ HOME: home, XDG_CACHE_HOME: 'rel/cache' }), join(home, '.cache', 'hitless'));
  assert.equal(compileCacheFolder({ HOME: 'rel-home' }), undefined);
  assert.equal(compileCacheFolder({}), undefined);
  assert.equal(compileCacheFolder({ HOME: home, NODE_COMPILE_CACHE: join(work, 'x') }), undefined);
  assert.equal(compileCacheFolder({ HOME: home, NODE_DISABLE_COMPILE_CACHE: '1' }), undefined);
  assert.equal(compileCacheFolder({ HOME: home, NODE_DISABLE_COMPILE_CACHE: '' }), undefined);
  // An empty NODE_COMPILE_CACHE is unset to Node, so Hitless picks the folder.
  assert.equal(compileCacheFolder({ HOME: home, NODE_COMPILE_CACHE: '' }), join(home, '.cache', 'hitless'));
});
