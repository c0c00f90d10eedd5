/**
 * A script file the container runs, read from a ConfigMap of the same input that a volume mounts at its path:
 * `command: [bash, /scripts/serve.sh]`, `command: [/scripts/serve.sh]`, or a `-c` script that runs it
 * (`cd /workspace && ./prefill.sh`, `bash serve.sh`, `. /scripts/env.sh`). The kubelet mounts a ConfigMap volume
 * as one file per key (or per `items` entry, at its `path`), and a `subPath` mount as that one file
 * (https://kubernetes.io/docs/concepts/storage/volumes/#configmap). What the file holds runs in another process than
 * PID 1 unless PID 1 is its interpreter: a script file is not a `-c` string, so bash forks for its last command as
 * for any other (bash's fork suppression is for `-c` strings only: builtins/evalstring.c, should_suppress_fork).
 */
import type { ManifestObject } from '../read/read-manifest.ts';
import { isRecord } from '../read/path.ts';
import { basename, SHELLS, type CommandLine, type ScriptFile } from './command-line.ts';
import { parseScript } from './shell/parse-script.ts';

/** The script file a container runs from a ConfigMap of the input, if its command names one the input holds. */
export function scriptFileOf(
  container: Record<string, unknown>,
  line: CommandLine,
  podSpec: Record<string, unknown>,
  configMaps: readonly ManifestObject[],
): ScriptFile | undefined {
  if (configMaps.length === 0) return undefined;
  const workingDir = typeof container.workingDir === 'string' ? container.workingDir : undefined;
  const find = (path: string, cwd: string | undefined, runs: ScriptFile['runs']): ScriptFile | undefined => {
    const absolute = path.startsWith('/')
      ? path
      : cwd?.startsWith('/')
        ? `${cwd.replace(/\/+$/, '')}/${path}`
        : undefined;
    if (!absolute) return undefined;
    const found = configMapFile(normalise(absolute), container, podSpec, configMaps);
    return found && { ...found, path: absolute, parsed: parseScript(found.text), runs };
  };
  if (line.script) {
    const { parsed, shell } = line.script;
    if (!parsed.ok) return undefined;
    let cwd = workingDir;
    for (const call of parsed.calls) {
      const words = call.words.map((w) => w.literal);
      if (words[0] === 'cd') {
        cwd = words[1]?.startsWith('/') ? words[1] : undefined;
        continue;
      }
      const ran = fileRun(words, call.exec);
      if (!ran) continue;
      const last = call === parsed.calls.at(-1) && !call.piped && !call.background && !call.redirectedOrNegated;
      const runs: ScriptFile['runs'] =
        (ran.sourced || call.exec) && !call.subshell
          ? 'pid1'
          : !last || parsed.traps
            ? 'child'
            : call.lastAlone && /(^|\/)bash$/.test(shell)
              ? 'pid1'
              : 'maybe';
      const file = find(ran.path, cwd, runs);
      if (file) return file;
    }
    return undefined;
  }
  // PID 1 runs the file itself: `bash [options] FILE` or `FILE`.
  const ran = fileRun(
    line.argv.map((t) => (t.literal ? t.text : undefined)),
    false,
  );
  return ran && !ran.sourced ? find(ran.path, workingDir, 'pid1') : undefined;
}

/** The file a command runs (its words, `exec` first or not), and whether it is sourced (run by the shell itself). */
function fileRun(words: (string | undefined)[], exec: boolean): { path: string; sourced: boolean } | undefined {
  const at = exec ? 1 : 0;
  const first = words[at];
  if (first === undefined) return undefined;
  if (first === '.' || first === 'source') return words[at + 1] ? { path: words[at + 1]!, sourced: true } : undefined;
  if (SHELLS.test(first)) {
    let i = at + 1;
    while (i < words.length && words[i]?.startsWith('-')) i++;
    // `bash -c '…'` is a script of its own, not a file.
    if (words.slice(at + 1, i).some((w) => w !== undefined && /^-[a-zA-Z]*c/.test(w))) return undefined;
    return words[i] ? { path: words[i]!, sourced: false } : undefined;
  }
  return first.includes('/') ? { path: first, sourced: false } : undefined;
}

/** `/a/./b/../c` → `/a/c`. */
function normalise(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

/** The ConfigMap key mounted at a path of the container, with its text, when the input holds that ConfigMap. */
function configMapFile(
  path: string,
  container: Record<string, unknown>,
  podSpec: Record<string, unknown>,
  configMaps: readonly ManifestObject[],
): { configMap: ManifestObject; key: string; text: string } | undefined {
  const mounts = Array.isArray(container.volumeMounts) ? container.volumeMounts.filter(isRecord) : [];
  const volumes = Array.isArray(podSpec.volumes) ? podSpec.volumes.filter(isRecord) : [];
  for (const mount of mounts) {
    if (typeof mount.mountPath !== 'string' || typeof mount.name !== 'string') continue;
    const at = normalise(mount.mountPath);
    const subPath = typeof mount.subPath === 'string' && mount.subPath !== '' ? mount.subPath : undefined;
    // A subPath mount is the one file at mountPath; a whole volume is a directory of its files.
    const within = subPath
      ? path === at
        ? subPath
        : undefined
      : path.startsWith(`${at}/`)
        ? path.slice(at.length + 1)
        : undefined;
    if (within === undefined) continue;
    const source = volumes.find((v) => v.name === mount.name)?.configMap;
    if (!isRecord(source) || typeof source.name !== 'string') continue;
    const items = Array.isArray(source.items) ? source.items.filter(isRecord) : undefined;
    const key = items ? items.find((i) => i.path === within)?.key : within;
    if (typeof key !== 'string') continue;
    const configMap = configMaps.find((c) => c.name === source.name);
    const data = configMap?.value.data;
    const text = isRecord(data) ? data[key] : undefined;
    if (configMap && typeof text === 'string') return { configMap, key, text };
  }
  return undefined;
}

/** How the file names what runs it, for messages: `the script prefill.sh of ConfigMap/cm`. */
export function fileName(file: ScriptFile): string {
  return `the script ${basename(file.path)} (key ${JSON.stringify(file.key)} of ConfigMap/${file.configMap.name})`;
}
