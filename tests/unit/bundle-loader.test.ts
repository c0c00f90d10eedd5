// The installable package's bundle loader (src/cli/bundle-loader.ts): a code cache taken after the command ran,
// kept per user in a folder no one else can write to, refused caches replaced, and the command's behaviour never
// depending on the cache. Bundles here are small CommonJS files written by the tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheFolder, fnv1a } from '../../src/cli/bundle-loader.ts';

const LOADER = fileURLToPath(new URL('../../src/cli/bundle-loader.ts', import.meta.url));

interface Load {
  cache: string;
  cacheFile: string | null;
  /** `main(n)` of the bundle, when the load was asked to run it. */
  result: number | null;
  strict: boolean;
  filename: string;
  variant: string;
}

/**
 * Load `file` in a process of its own (V8 also caches compiled scripts inside a process, which would hide what the
 * code cache on disk does), run its `main(run)` unless `run` is undefined, save the cache and report.
 */
function load(file: string, cacheDir: string | undefined, run?: number, tag = 'build1'): Load {
  const script = `
    const { loadBundle } = await import(${JSON.stringify(LOADER)});
    const loaded = loadBundle(${JSON.stringify(file)}, ${cacheDir === undefined ? 'undefined' : JSON.stringify(cacheDir)}, ${JSON.stringify(tag)});
    const result = ${run === undefined ? 'null' : `loaded.exports.main(${run})`};
    loaded.saveCache();
    process.stdout.write(JSON.stringify({ cache: loaded.cache, cacheFile: loaded.cacheFile ?? null, result,
      strict: loaded.exports.strict, filename: loaded.exports.filename, variant: loaded.exports.variant }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Load;
}

/**
 * A bundle whose `main` calls a function with a large body that V8 compiles only when it is first called (a plain
 * function declaration, not run at load), so that a cache taken after `main` ran holds more code than one taken at load.
 */
function bundleSource(variant = ''): string {
  const cases = Array.from({ length: 300 }, (_, i) => `    case ${i}: return n * ${i + 1} + ${i % 7};`).join('\n');
  return `'use strict';
// fixture ${variant}
function weigh(n) {
  switch (n % 300) {
${cases}
  }
  return -1;
}
exports.main = (n) => weigh(n);
exports.strict = (function () { return this === undefined; })();
exports.filename = __filename;
exports.variant = ${JSON.stringify(variant)};
`;
}

function workspace(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'hitless-loader-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A workspace with the fixture bundle (`file`) and an empty cache folder of the user's alone (`cacheDir`). */
function bundleWithCache(t: { after: (fn: () => void) => void }): { dir: string; file: string; cacheDir: string } {
  const dir = workspace(t);
  const file = join(dir, 'cmd.cjs');
  writeFileSync(file, bundleSource());
  const cacheDir = join(dir, 'cache');
  mkdirSync(cacheDir, { mode: 0o700 });
  return { dir, file, cacheDir };
}

function caches(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.endsWith('.v8cache'));
}

test('fnv1a: the 32-bit FNV-1a test vectors', () => {
  assert.equal(fnv1a(''), '811c9dc5');
  assert.equal(fnv1a('a'), 'e40c292c');
  assert.equal(fnv1a('foobar'), 'bf9cf968');
});

test('a first load has no cache and writes one; the next load takes it and writes nothing', (t) => {
  const { file, cacheDir } = bundleWithCache(t);

  const first = load(file, cacheDir, 301);
  assert.equal(first.cache, 'none');
  assert.equal(first.result, 301 * 2 + 1);
  assert.equal(first.strict, true, 'the bundle runs as the strict code it was written as');
  assert.equal(first.filename, file);
  const written = caches(cacheDir);
  assert.equal(written.length, 1);
  assert.match(
    written[0],
    new RegExp(
      `^cmd-[0-9a-f]{8}-${process.version.replaceAll('.', '\\.')}-${process.arch}-build1-\\d+-\\d+\\.v8cache$`,
    ),
  );
  const path = join(cacheDir, written[0]);
  if (process.platform !== 'win32')
    assert.equal(statSync(path).mode & 0o777, 0o600, 'the cache file is the user’s alone');
  const before = readFileSync(path);

  const second = load(file, cacheDir, 7);
  assert.equal(second.cache, 'accepted');
  assert.equal(second.result, 7 * 8 + 0);
  assert.deepEqual(readFileSync(path), before, 'an accepted cache is not written again');
  assert.deepEqual(caches(cacheDir), written);
});

test('the cache holds the functions the command compiled while it ran, not only the bundle’s top level', (t) => {
  const dir = workspace(t);
  const file = join(dir, 'cmd.cjs');
  writeFileSync(file, bundleSource());
  const atLoad = join(dir, 'at-load');
  const afterRun = join(dir, 'after-run');
  mkdirSync(atLoad, { mode: 0o700 });
  mkdirSync(afterRun, { mode: 0o700 });

  load(file, atLoad);
  load(file, afterRun, 3);
  const size = (d: string) => statSync(join(d, caches(d)[0])).size;
  // The 300-case function's bytecode is a few kilobytes; the cache taken at load does not have it.
  assert.ok(size(afterRun) > size(atLoad) + 2000, `after the run ${size(afterRun)} bytes, at load ${size(atLoad)}`);
});

test('a cache V8 refuses is replaced, and the command runs the same without it', (t) => {
  const { file, cacheDir } = bundleWithCache(t);
  load(file, cacheDir, 1);
  const [name] = caches(cacheDir);
  writeFileSync(join(cacheDir, name), Buffer.from('not a V8 code cache, and not even the right length'));

  const refused = load(file, cacheDir, 299);
  assert.equal(refused.cache, 'rejected');
  assert.equal(refused.result, 299 * 300 + 5);
  assert.notEqual(readFileSync(join(cacheDir, name)).length, 51, 'the refused cache was replaced');
  assert.equal(load(file, cacheDir, 299).cache, 'accepted', 'the replacement is taken');
});

test('a cache file that another user owns is not read, and is replaced by one of the user’s own', (t) => {
  // Only root can give a file away; CI runs as root.
  if (process.getuid?.() !== 0) return t.skip('needs root to chown a file to another user');
  const { file, cacheDir } = bundleWithCache(t);
  load(file, cacheDir, 1);
  const [name] = caches(cacheDir);
  chownSync(join(cacheDir, name), 65534, 65534);
  assert.equal(load(file, cacheDir, 2).cache, 'none', 'a file of another user’s is as good as none');
  assert.equal(statSync(join(cacheDir, name)).uid, 0);
  assert.equal(load(file, cacheDir, 2).cache, 'accepted');
});

test('another build of the same length and modification time gets no cache: the build’s content tag differs', (t) => {
  const { file, cacheDir } = bundleWithCache(t);
  // npm gives every installed file the same modification time; V8 checks only a source's length.
  const installed = new Date('1985-10-26T08:15:00Z');
  writeFileSync(file, bundleSource('release A'));
  utimesSync(file, installed, installed);
  assert.equal(load(file, cacheDir, 1, 'aaaa').variant, 'release A');
  writeFileSync(file, bundleSource('release B'));
  utimesSync(file, installed, installed);
  const next = load(file, cacheDir, 1, 'bbbb');
  assert.equal(next.cache, 'none');
  assert.equal(next.variant, 'release B');
  assert.equal(caches(cacheDir).length, 1, 'release A’s cache was replaced');
  assert.match(caches(cacheDir)[0], /-bbbb-\d+-499162500000\.v8cache$/);
});

test('a rebuilt bundle replaces its install’s old cache; another install of it keeps its own', (t) => {
  const dir = workspace(t);
  const cacheDir = join(dir, 'cache');
  mkdirSync(cacheDir, { mode: 0o700 });
  const installs = [join(dir, 'global'), join(dir, 'project')];
  for (const install of installs) {
    mkdirSync(install);
    writeFileSync(join(install, 'cmd.cjs'), bundleSource());
    load(join(install, 'cmd.cjs'), cacheDir, 1);
  }
  assert.equal(caches(cacheDir).length, 2, 'two installs, two caches');

  // An upgrade in place: other content, other size.
  writeFileSync(join(installs[1], 'cmd.cjs'), bundleSource('after an upgrade'));
  assert.equal(load(join(installs[1], 'cmd.cjs'), cacheDir, 1).cache, 'none');
  assert.equal(caches(cacheDir).length, 2, 'the upgraded install’s old cache is gone, the other install’s stays');
  assert.equal(load(join(installs[0], 'cmd.cjs'), cacheDir, 1).cache, 'accepted');
  assert.equal(load(join(installs[1], 'cmd.cjs'), cacheDir, 1).cache, 'accepted');
});

test('cacheFolder: $NODE_COMPILE_CACHE/hitless-<uid>, created for the user alone', (t) => {
  const dir = workspace(t);
  const folder = cacheFolder({ NODE_COMPILE_CACHE: join(dir, 'cc') });
  const uid = process.getuid?.();
  assert.equal(folder, join(dir, 'cc', `hitless-${uid ?? 'user'}`));
  if (process.platform !== 'win32') assert.equal(statSync(folder).mode & 0o777, 0o700);
});

test('cacheFolder: none when turned off, or when others can write to the folder', (t) => {
  assert.equal(cacheFolder({ NODE_DISABLE_COMPILE_CACHE: '1', NODE_COMPILE_CACHE: '/nonexistent' }), undefined);
  if (process.platform === 'win32') return;
  const dir = workspace(t);
  const uid = process.getuid?.();
  const shared = join(dir, 'shared', `hitless-${uid}`);
  mkdirSync(shared, { recursive: true });
  chmodSync(shared, 0o777);
  assert.equal(cacheFolder({ NODE_COMPILE_CACHE: join(dir, 'shared') }), undefined, 'world-writable');
  chmodSync(shared, 0o720);
  assert.equal(cacheFolder({ NODE_COMPILE_CACHE: join(dir, 'shared') }), undefined, 'group-writable');
  chmodSync(shared, 0o700);
  assert.equal(cacheFolder({ NODE_COMPILE_CACHE: join(dir, 'shared') }), shared);
  // A file where the folder should be.
  writeFileSync(join(dir, 'file-here'), '');
  assert.equal(cacheFolder({ NODE_COMPILE_CACHE: join(dir, 'file-here') }), undefined);
});

test('with the cache off, a bundle loads and runs and nothing is written', (t) => {
  const dir = workspace(t);
  const file = join(dir, 'cmd.cjs');
  writeFileSync(file, bundleSource());
  const off = load(file, undefined, 1);
  assert.equal(off.cache, 'off');
  assert.equal(off.cacheFile, null);
  assert.equal(off.result, 3);
  assert.deepEqual(readdirSync(dir), ['cmd.cjs']);
});
