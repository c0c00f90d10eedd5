/**
 * Where the installable package keeps Node's compile cache (`module.enableCompileCache`): a folder of the user's own,
 * `$XDG_CACHE_HOME/hitless` or `~/.cache/hitless` (mode 0700), never a shared temporary folder. Node writes the cache
 * files itself, and a cache is code this process runs, so the folder is used only when it is a real folder (not a
 * symlink: no write follows one), belongs to the user and no one else can write to it. Anything else, or no
 * home, and the CLI runs without a cache; what it prints is the same either way.
 *
 * The built-ins come from `process.getBuiltinModule`, not imports: in the package's entry an import of node:fs
 * would build its module namespace at every start, and the entry first tells an old Node it is too old.
 */
import type * as Fs from 'node:fs';
import type * as Path from 'node:path';

/**
 * The compile cache folder to give `module.enableCompileCache` (created if missing), or undefined when Hitless should
 * not enable one: `NODE_DISABLE_COMPILE_CACHE` is set (Node's own switch), `NODE_COMPILE_CACHE` is (Node has then
 * enabled its cache in that folder already, at start-up), there is no absolute `XDG_CACHE_HOME` or `HOME`, the
 * system has no user ids to check (Windows), or the folder is not the user's alone.
 */
export function compileCacheFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  // Node turns its cache off when NODE_DISABLE_COMPILE_CACHE is set at all, even to '' or 0; it takes an empty
  // NODE_COMPILE_CACHE as unset.
  if (env.NODE_DISABLE_COMPILE_CACHE !== undefined || env.NODE_COMPILE_CACHE) return undefined;
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const path = process.getBuiltinModule('node:path') as typeof Path;
  // The XDG base directory spec ignores a relative XDG_CACHE_HOME; a relative HOME would depend on the working folder.
  const xdg = env.XDG_CACHE_HOME;
  const home = env.HOME;
  const base =
    xdg && path.isAbsolute(xdg) ? xdg : home && path.isAbsolute(home) ? path.join(home, '.cache') : undefined;
  if (base === undefined) return undefined;
  const dir = path.join(base, 'hitless');
  const fs = process.getBuiltinModule('node:fs') as typeof Fs;
  try {
    // A symlink to a folder already there is left as it is (and refused below); a dangling one makes this throw.
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const s = fs.lstatSync(dir);
    if (!s.isDirectory() || s.uid !== uid || (s.mode & 0o022) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}
