/**
 * Load one of the installable package's command bundles (scripts/build-cli.ts) with a V8 code cache taken after the
 * command ran, so that the next start finds every function the command used already compiled.
 *
 * Node's own compile cache (`module.enableCompileCache`) is written when a module is compiled, before it runs: it
 * holds the module's top level and none of the functions V8 compiles lazily on their first call. A short command
 * such as `hitless generate` then compiles the YAML writer, the plan and the emitter on every start; on the 2-core
 * bench machine that was about 9 of the 34 ms the CLI added to Node's own start. Here the bundle is compiled as a
 * script (`node:vm`) and, once the command has run, `script.createCachedData()` captures what was compiled by then.
 *
 * The cache is best effort and never changes what a command does: V8 checks each cache against the source, its own
 * version and its flags and rejects one that does not fit (the bundle is then compiled as if there were none and the
 * cache written again), a file is written under a temporary name and renamed into place, and any error reading or
 * writing it is ignored. It lives beside Node's: `$NODE_COMPILE_CACHE`, else `node-compile-cache` in the system's
 * temporary folder, in a folder of its own per user (`hitless-<uid>`, mode 0700) that is used only while it belongs to
 * the user and no one else can write to it. `NODE_DISABLE_COMPILE_CACHE=1` turns it off, as it does Node's.
 */
import { createRequire } from 'node:module';
import { hashText } from './hash-text.ts';
import type * as Fs from 'node:fs';
import type * as Os from 'node:os';
import type * as Path from 'node:path';
import type * as Vm from 'node:vm';

// Built-ins through require: an ES module import of node:fs would build its namespace, which loads Node's file
// streams (about 15 ms) before the command starts.
const require = createRequire(import.meta.url);
const fs = require('node:fs') as typeof Fs;
const path = require('node:path') as typeof Path;
const vm = require('node:vm') as typeof Vm;

/** What happened to the code cache of one load. */
export type CacheState =
  /** No cache file for this bundle yet: `saveCache` writes one. */
  | 'none'
  /** V8 took the cache: the command's functions start compiled. */
  | 'accepted'
  /** V8 refused the cache (another Node, other flags, another bundle): `saveCache` replaces it. */
  | 'rejected'
  /** Turned off (`NODE_DISABLE_COMPILE_CACHE`) or its folder is not the user's alone: nothing is read or written. */
  | 'off';

export interface LoadedBundle<Exports> {
  exports: Exports;
  cache: CacheState;
  /** The cache file for this bundle, or undefined when the cache is off. */
  cacheFile: string | undefined;
  /** Write the cache from what has been compiled so far, unless V8 accepted the one it was given. Never throws. */
  saveCache(): void;
}

/**
 * The folder the bundle caches live in (created if missing), or undefined when caching is off or the folder cannot
 * be trusted: another user's, or writable by others, whose cache could run code of theirs in this process.
 */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const os = require('node:os') as typeof Os;
  const uid = process.getuid?.();
  const dir = path.join(
    env.NODE_COMPILE_CACHE || path.join(os.tmpdir(), 'node-compile-cache'),
    `hitless-${uid ?? 'user'}`,
  );
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const s = fs.lstatSync(dir);
    if (!s.isDirectory()) return undefined;
    if (uid !== undefined && (s.uid !== uid || (s.mode & 0o022) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * The cache file's name for a bundle: where it is installed (two installs keep a cache each), Node's version and the
 * architecture (one folder serves several), and the bundle's content: its build's content tag, size and modification
 * time. V8 checks a cache against its own version and flags but of the source only its length, and would run a
 * cache of another build of the same length (npm gives every installed file the same modification time), so the
 * content has to be in the name. `prefix` is the part an upgrade in place keeps: the caches that start with it and
 * are not this one are an earlier build's.
 */
function cacheName(file: string, stat: Fs.Stats, contentTag: string): { name: string; prefix: string } {
  const prefix = `${bundleName(file)}-${fnv1a(path.resolve(file))}-${process.version}-${process.arch}-`;
  const tag = contentTag.replace(/[^0-9A-Za-z]/g, '');
  return { name: `${prefix}${tag}-${stat.size}-${Math.trunc(stat.mtimeMs)}.v8cache`, prefix };
}

/** The bundle's file name without its extension: `generate` for bin/generate.cjs. */
function bundleName(file: string): string {
  return path.basename(file).replace(/\.[^.]*$/, '');
}

/** A short hash of a string (`hashText`'s, as 8 hex digits): names a folder in a file name without node:crypto's start-up. */
export function fnv1a(text: string): string {
  return (hashText(text) >>> 0).toString(16).padStart(8, '0');
}

/**
 * Load the CommonJS bundle at `file`: compile it with its cache from `dir` (`cacheFolder()`; undefined: no cache) when
 * there is one, run its top level and return its exports. `contentTag` names the bundle's content (a hash of it,
 * written into the entry by the build, so that no start hashes 200 KB). The bundle sees the usual `exports`,
 * `require`, `module`, `__filename` and `__dirname`.
 */
export function loadBundle<Exports>(file: string, dir: string | undefined, contentTag: string): LoadedBundle<Exports> {
  const source = fs.readFileSync(file, 'utf8');
  let cacheFile: string | undefined;
  let earlierBuilds = '';
  let cachedData: Buffer | undefined;
  if (dir !== undefined) {
    try {
      const { name, prefix } = cacheName(file, fs.statSync(file), contentTag);
      cacheFile = path.join(dir, name);
      earlierBuilds = prefix;
      // Read only a file of the user's own, checked on the open file, not on its name.
      const fd = fs.openSync(cacheFile, 'r');
      try {
        const uid = process.getuid?.();
        if (uid === undefined || fs.fstatSync(fd).uid === uid) cachedData = fs.readFileSync(fd);
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      cachedData = undefined;
    }
  }
  // Node's own module wrapper: the bundle reads as it would under require(), one line, so stack traces keep its lines.
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) { ${source}\n})`,
    cachedData ? { filename: file, cachedData } : { filename: file },
  );
  const cache: CacheState =
    cacheFile === undefined ? 'off' : !cachedData ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
  const module = { exports: {} as Exports };
  (script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    createRequire(file),
    module,
    file,
    path.dirname(file),
  );
  return {
    exports: module.exports,
    cache,
    cacheFile,
    saveCache() {
      if (cacheFile === undefined || cache === 'accepted') return;
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      try {
        fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
        fs.renameSync(temporary, cacheFile);
        // The caches of this install's earlier builds would otherwise pile up, one per upgrade.
        const folder = path.dirname(cacheFile);
        const name = path.basename(cacheFile);
        for (const other of fs.readdirSync(folder)) {
          if (other !== name && other.startsWith(earlierBuilds) && other.endsWith('.v8cache'))
            fs.rmSync(path.join(folder, other), { force: true });
        }
      } catch {
        try {
          fs.rmSync(temporary, { force: true });
        } catch {
          // Nothing to clean up.
        }
      }
    },
  };
}
