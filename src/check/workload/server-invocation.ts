/**
 * Find the model server's own invocation in a container: the argv that starts it, the image's entrypoint
 * (args only, on the server's own image), or the one statement of a `sh -c` script that runs its binary or
 * module. Only a found invocation is ever edited; anything less certain is a manual fix.
 */
import type { EntryPoint as ProfileEntryPoint, ModelServerProfile } from '../../facts/profiles.ts';
import { basename, callTokens, findFlag, type CommandLine, type Token } from './command-line.ts';
import type { Edit } from '../fix/edit.ts';
import type { Segment } from '../read/path.ts';
import type { ScriptCall } from './shell/parse-script.ts';

/** How a model server is started: a Python module (`python3 -m M`) or a binary with an optional subcommand. */
export type EntryPoint = Pick<ProfileEntryPoint, 'module' | 'binary' | 'subcommand'>;

/** A Python interpreter's name (`python`, `python3`, `python3.12`). */
const PYTHON = /^python(\d+(\.\d+)?)?$/;

/** Python options whose value may follow as the next word (`-W ignore`, `-X importtime`). */
const PYTHON_VALUE_OPTIONS = new Set(['-W', '-X', '--check-hash-based-pycs']);

/**
 * The program a command line runs in place of the image's entrypoint: the module of `python -m MODULE` or a
 * `FILE.py`, or another binary with its first argument, from argv (after `env`) or from the last command of a script
 * that is a program (not `wait`, `echo`, `tee` and the like). `python -c CODE` and a bare word give `undefined`:
 * what runs cannot be told from the words.
 */
function programRun(line: CommandLine): { module?: string; file?: string; binary?: string[] } | undefined {
  let words: (string | undefined)[];
  if (line.script) {
    const { parsed } = line.script;
    // The last command that is a program, not the shell's bookkeeping after it (`| tee log`, `& wait`, `; echo`).
    const last = parsed.ok
      ? parsed.calls.filter((c) => !UTILITIES.has(basename(c.words[0]?.literal ?? ''))).at(-1)
      : undefined;
    if (!last) return undefined;
    words = last.words.map((w) => w.literal);
    if (words[0] === 'exec') words = words.slice(1);
  } else {
    if (!line.hasCommand) return undefined;
    words = line.argv.map((t) => (t.literal ? t.text : undefined));
  }
  if (words[0] !== undefined && basename(words[0]) === 'env') words = words.slice(1);
  if (words[0] === undefined) return undefined;
  // Any other program: its name and first argument, for a server binary's other subcommands (`vllm bench serve`).
  if (!PYTHON.test(basename(words[0])))
    return words[1] === undefined ? undefined : { binary: [basename(words[0]), words[1]] };
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word === undefined || word === '-c') return undefined;
    if (word === '-m') return words[i + 1] === undefined ? undefined : { module: words[i + 1] };
    if (PYTHON_VALUE_OPTIONS.has(word)) i++;
    else if (!word.startsWith('-')) return word.endsWith('.py') ? { file: word } : undefined;
  }
  return undefined;
}

/** Commands a script runs around its program rather than as it: they say nothing of what the container runs. */
const UTILITIES = new Set([
  'wait',
  'echo',
  'printf',
  'sleep',
  'true',
  'false',
  ':',
  'exit',
  'tee',
  'cat',
  'trap',
  'set',
  'export',
  'cd',
  'mkdir',
  'ls',
  'date',
]);

/**
 * Whether the server's image still says what the container runs: unless its own command runs another Python program
 * in place of the image's entrypoint (SGLang's router on SGLang's image), or the server's own binary with another
 * subcommand than the one that serves (`vllm bench serve`, a client). A module of the server's own package
 * (`vllm.entrypoints.cli.main` beside `vllm.entrypoints.openai.api_server`) is the server's.
 */
export function imageStillRuns(line: CommandLine, profile: ModelServerProfile, invocation: Invocation): boolean {
  if (invocation.found) return true;
  const program = programRun(line);
  if (!program) return true;
  if (program.file !== undefined) return false;
  const points = entryPointsOf(profile);
  // The server's own binary with another subcommand is one of its clients (`vllm bench serve`, `vllm chat`); any
  // other binary may be the image's own launcher.
  if (program.binary) {
    const [name, sub] = program.binary;
    const own = points.filter((p) => p.binary === name && p.subcommand !== undefined);
    return own.length === 0 || own.some((p) => p.subcommand === sub);
  }
  const top = (module: string) => module.split('.')[0];
  return points.some((p) => p.module !== undefined && top(p.module) === top(program.module!));
}

/** The ways a profile's server is started: its `command` and its `entryPoints`, both from the data. */
function entryPointsOf(profile: ModelServerProfile): EntryPoint[] {
  const points: EntryPoint[] = [];
  const command = profile.command ?? [];
  if (command.length > 0) {
    const m = command.indexOf('-m');
    if (PYTHON.test(basename(command[0])) && m !== -1 && command[m + 1]) points.push({ module: command[m + 1] });
    else if (!PYTHON.test(basename(command[0]))) points.push({ binary: basename(command[0]) });
  }
  return [...points, ...(profile.entryPoints ?? [])];
}

/** Python options that take no value, and those that take one, before `-m`. */
const PY_FLAGS = /^-[bBdEhiIOqsSuvx]+$/;
const PY_VALUE_FLAGS = new Set(['-X', '-W']);

/** Where the server's own arguments start in these words when they start the server, or -1. */
function serverArgsStart(words: readonly Token[], points: readonly EntryPoint[]): number {
  let i = 0;
  if (words[0]?.literal && words[0].text === 'exec') i = 1;
  const first = words[i];
  if (!first?.literal) return -1;
  const name = basename(first.text);
  for (const point of points) {
    if (point.module && PYTHON.test(name)) {
      let j = i + 1;
      while (j < words.length && words[j].literal) {
        const w = words[j].text;
        if (w === '-m') return words[j + 1]?.literal && words[j + 1].text === point.module ? j + 2 : -1;
        if (PY_VALUE_FLAGS.has(w)) j += 2;
        else if (PY_FLAGS.test(w)) j += 1;
        else break;
      }
    }
    if (point.binary && name === point.binary) {
      if (!point.subcommand) return i + 1;
      if (words[i + 1]?.literal && words[i + 1].text === point.subcommand) return i + 2;
    }
  }
  return -1;
}

/** The server's invocation in a container, or why it cannot be told with certainty. */
export type Invocation =
  | {
      found: true;
      /** The words of the invocation (argv items, or the words of the script's statement). */
      words: Token[];
      /** Index in `words` where the server's own arguments start. */
      argsFrom: number;
      /**
       * argv: the container's command/args start the server; entrypoint: args only, on the server's image; script: one
       * statement of its `-c` script; file: one statement of a script file from a ConfigMap (`line.file`).
       */
      how: 'argv' | 'entrypoint' | 'script' | 'file';
      call?: ScriptCall;
      /**
       * The container sets only `args`, which start the server, on an image whose entrypoint is not known: taken to
       * run them as its program (an image without an entrypoint, or one whose script ends in `exec "$@"`).
       */
      entrypointAssumed?: true;
    }
  | { found: false; reason: string };

/** Whether a word anywhere in the command line names one of the entry points. */
function mentions(line: CommandLine, points: readonly EntryPoint[]): boolean {
  const text = line.argv.map((t) => t.text).join(' ');
  return points.some(
    (p) =>
      (p.module && text.includes(p.module))
      || (p.binary && new RegExp(`(^|[\\s/"'])${p.binary}($|[\\s"';])`).test(text)),
  );
}

/**
 * Find the server's invocation. `imageIsServer`: the image is the profile's own (its entrypoint starts the
 * server), so a container that sets only `args` passes them to the server.
 */
export function findInvocation(line: CommandLine, profile: ModelServerProfile, imageIsServer: boolean): Invocation {
  const points = entryPointsOf(profile);
  if (!line.hasCommand) {
    if (imageIsServer) return { found: true, words: line.argv, argsFrom: 0, how: 'entrypoint' };
    const argsFrom = serverArgsStart(line.argv, points);
    if (argsFrom !== -1) return { found: true, words: line.argv, argsFrom, how: 'argv', entrypointAssumed: true };
    return {
      found: false,
      reason:
        'the container sets no command, its args do not start the server, and its image is not one whose entrypoint is known to start it',
    };
  }
  const own = inCommandLine(line, points);
  if (own.found || !line.file?.parsed.ok) return own;
  // The command runs a script file from a ConfigMap of the input: the server may start there.
  const matches = line.file.parsed.calls.filter((call) => serverArgsStart(fileTokens(call), points) !== -1);
  if (matches.length !== 1) return own;
  const words = fileTokens(matches[0]);
  return { found: true, words, argsFrom: serverArgsStart(words, points), how: 'file', call: matches[0] };
}

/** The words of a statement of a script file: read, never edited in place (the file is a ConfigMap's). */
function fileTokens(call: ScriptCall): Token[] {
  return call.words.map((w) => ({
    text: w.literal ?? w.source,
    list: 'args' as const,
    index: -1,
    start: w.start,
    end: w.end,
    literal: w.literal !== undefined,
    editable: false,
  }));
}

/** The server's invocation in the container's own command line (argv, or its `-c` script). */
function inCommandLine(line: CommandLine, points: readonly EntryPoint[]): Invocation {
  if (line.script) {
    const { parsed } = line.script;
    if (!parsed.ok) return { found: false, reason: `its script does not parse (${parsed.message})` };
    const matches = parsed.calls.filter((call) => serverArgsStart(callTokens(line.script!, call), points) !== -1);
    if (matches.length === 1) {
      const words = callTokens(line.script, matches[0]);
      return { found: true, words, argsFrom: serverArgsStart(words, points), how: 'script', call: matches[0] };
    }
    return {
      found: false,
      reason:
        matches.length > 1
          ? `its script starts the server in ${matches.length} places`
          : mentions(line, points)
            ? 'its script starts the server only inside a substitution, a function or another program\u2019s argument'
            : 'its script does not start the server itself',
    };
  }
  const argsFrom = serverArgsStart(line.argv, points);
  if (argsFrom !== -1) return { found: true, words: line.argv, argsFrom, how: 'argv' };
  return {
    found: false,
    reason: `its command starts ${JSON.stringify(basename(line.argv[0]?.text ?? ''))}, not the server`,
  };
}

/** The words that start the server, as written, without an `exec`: `vllm serve`, `python3 -m sglang.launch_server`. */
export function invocationText(invocation: Invocation & { found: true }): string {
  const { words, argsFrom } = invocation;
  return words
    .slice(words[0].text === 'exec' ? 1 : 0, argsFrom)
    .map((w) => w.text)
    .join(' ');
}

/** The server's own arguments. */
export function serverArgs(invocation: Invocation & { found: true }): Token[] {
  return invocation.words.slice(invocation.argsFrom);
}

/** A flag edit, or why there is none. */
export type FlagEdit = { ok: true; edit: Edit } | { ok: false; reason: string };

/**
 * The edit that makes a flag read `--flag=value` in the server's own invocation: an existing literal use is
 * rewritten in place; otherwise the flag is added after the invocation's last word (in a script) or to
 * `args` (argv). A use whose value the shell decides is not touched.
 */
export function flagEdit(
  line: CommandLine,
  invocation: Invocation & { found: true },
  containerPath: Segment[],
  flag: string,
  value: string,
): FlagEdit {
  if (invocation.how === 'file' && line.file)
    return {
      ok: false,
      reason: `it is a ConfigMap's (${line.file.configMap.name}), which other workloads may share and running pods read only when they restart`,
    };
  const use = findFlag(serverArgs(invocation), flag);
  const setItem = (token: Token, text: string): FlagEdit => ({
    ok: true,
    edit: { op: 'set', document: 0, path: [...containerPath, token.list, token.index], value: text },
  });
  if (use && !use.flag.literal) return { ok: false, reason: `${flag} is set by the shell (${use.flag.text})` };
  if (use?.valueToken && !use.valueToken.literal)
    return { ok: false, reason: `the value of ${flag} is set by the shell (${use.valueToken.text})` };
  const expanded = [use?.flag, use?.valueToken].find((t) => t && !t.editable);
  if (expanded)
    return {
      ok: false,
      reason: `its value comes from ${expanded.references?.map((r) => `$(${r})`).join(', ') || 'a $(VAR)'}, which the kubelet fills in from the container\u2019s env: change ${expanded.references?.length === 1 ? `${expanded.references[0]}\u2019s value` : 'the variable'}, or write the value in its place`,
    };
  if (invocation.how === 'script' && line.script) {
    const item = invocation.words[0];
    const spliceAt = (start: number, end: number, text: string): FlagEdit => ({
      ok: true,
      edit: { op: 'splice', document: 0, path: [...containerPath, item.list, item.index], value: text, start, end },
    });
    if (use) {
      if (use.inline) return spliceAt(use.flag.start, use.flag.end, `${flag}=${value}`);
      if (use.valueToken) return spliceAt(use.valueToken.start, use.valueToken.end, value);
      return spliceAt(use.flag.end, use.flag.end, ` ${value}`);
    }
    // After the last word as the shell reads it, mapped to the item as written (undefined: inside a value the
    // kubelet put in place of a $(VAR)).
    const lastEnd = invocation.call?.words.at(-1)?.end;
    const at = lastEnd === undefined ? undefined : line.script.expanded.toSource(lastEnd);
    if (at === undefined)
      return { ok: false, reason: 'the server\u2019s last argument ends inside a $(VAR) the kubelet puts in place' };
    return spliceAt(at, at, ` ${flag}=${value}`);
  }
  if (use) {
    if (use.valueToken && !use.inline) return setItem(use.valueToken, value);
    return setItem(use.flag, `${flag}=${value}`);
  }
  const list = line.hasArgs || !line.hasCommand ? 'args' : 'command';
  return { ok: true, edit: { op: 'append', document: 0, path: [...containerPath, list], value: `${flag}=${value}` } };
}
