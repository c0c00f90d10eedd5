/**
 * A container's command line: `command` and `args` as the kubelet passes them (argv, after its `$(VAR)`
 * expansion: env-expansion.ts), and, when PID 1 is a shell running a `-c` script, the script parsed with a real
 * shell parser (see shell/parse-script.ts).
 */
import { envValues, expand, type Expanded } from './env-expansion.ts';
import type { ManifestObject } from '../read/read-manifest.ts';
import { parseScript, type ParsedScript, type ScriptCall } from './shell/parse-script.ts';

/** One word of the command line and where it sits. */
export interface Token {
  /** The word's value (after quote removal in a script; the raw text when it expands a variable). */
  text: string;
  list: 'command' | 'args';
  /** Index of the item in its list. */
  index: number;
  /** Offsets of the word inside a script item; 0 and the item's length otherwise. */
  start: number;
  end: number;
  /**
   * False when the word's value is decided when the container starts: by the shell (`$X`, `$(…)`) or by the
   * kubelet from a variable the manifest does not give (`$(VAR)` of an env valueFrom, envFrom): it cannot be read
   * or rewritten.
   */
  literal: boolean;
  /**
   * False when the word holds a value the kubelet put in place of `$(VAR)`: it is read as expanded, but an edit of
   * it would have to change the variable, so none is made. Offsets (start, end) are in the item as written.
   */
  editable: boolean;
  /** The `$(VAR)` references the word holds, when it holds any. */
  references?: string[];
}

/** The shell script PID 1 runs with `-c`. */
export interface Script {
  list: 'command' | 'args';
  index: number;
  /** The shell's path as written (`/bin/bash`). */
  shell: string;
  parsed: ParsedScript;
  /** The script item as written. */
  written: string;
  /** The script as the kubelet expands it (its `$(VAR)` references) before the shell reads it. */
  expanded: Expanded;
}

/** The command line of one container. */
export interface CommandLine {
  /** The container's argv items (command, then args), the script item included as one token. */
  argv: Token[];
  script?: Script;
  /** A script file the command runs, read from a ConfigMap of the input (script-file.ts). */
  file?: ScriptFile;
  /** Whether the container sets `args` / `command`. */
  hasArgs: boolean;
  hasCommand: boolean;
}

export const SHELLS = /(^|\/)(sh|bash|dash|ash|zsh)$/;

/** A script file from a ConfigMap, and how the container's PID 1 comes to run it. */
export interface ScriptFile {
  configMap: ManifestObject;
  key: string;
  /** The path the container runs it at. */
  path: string;
  text: string;
  parsed: ParsedScript;
  /**
   * `pid1`: PID 1 interprets it (it is the command, or the `-c` script sources or execs it, or runs it as bash's last
   * simple command); `maybe`: the `-c` script's last command, which bash as /bin/sh runs without a fork and dash forks
   * for, or the last of a `&&`/`||`/`;` list, which bash 5.2 runs without a fork (builtins/evalstring.c
   * can_optimize_connection) and bash 5.1 and dash fork for; `child`: another process runs it.
   */
  runs: 'pid1' | 'maybe' | 'child';
}

/**
 * Whether a command only keeps its process alive: `tail -f FILE`, `sleep infinity`, or with `seconds` also `sleep N`.
 * `words` are literal values (undefined where a word expands).
 */
export function keepsAlive(words: readonly (string | undefined)[], { seconds = false } = {}): boolean {
  const [first, ...rest] = words;
  if (first === undefined) return false;
  const name = basename(first);
  if (name === 'tail') return rest.some((w) => w !== undefined && /^-[A-Za-z]*[fF]/.test(w));
  return (
    name === 'sleep'
    && rest.length === 1
    && rest[0] !== undefined
    && (seconds ? /^(infinity|\d+)$/ : /^infinity$/).test(rest[0])
  );
}

/** The file name of a path (`/usr/bin/python3` → `python3`). */
export function basename(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : String(v))) : undefined;
}

/** The `$(VAR)` references of an item as written (`$$(X)` is an escaped `$(X)`, not one). */
function referencesIn(text: string): string[] {
  return [...text.matchAll(/\$(\$|\(([A-Za-z_][A-Za-z0-9_.-]*)\))/g)].flatMap((m) => (m[2] ? [m[2]] : []));
}

/** The tokens of one statement of a script. */
export function callTokens(script: Script, call: ScriptCall): Token[] {
  const { toSource, text } = script.expanded;
  return call.words.map((w) => {
    const start = toSource(w.start);
    const end = toSource(w.end);
    const written = start !== undefined && end !== undefined ? script.written.slice(start, end) : undefined;
    const references = written === undefined ? [] : referencesIn(written);
    return {
      text: w.literal ?? w.source,
      list: script.list,
      index: script.index,
      start: start ?? w.start,
      end: end ?? w.end,
      literal: w.literal !== undefined,
      // A word the kubelet's expansion changed is read as expanded but not rewritten.
      editable: written !== undefined && written === text.slice(w.start, w.end),
      ...(references.length > 0 ? { references } : {}),
    };
  });
}

/** Read a container's command line. */
export function commandLineOf(container: Record<string, unknown>): CommandLine {
  const command = strings(container.command);
  const args = strings(container.args);
  const values = envValues(container);
  const items = (list: Token['list'], texts: string[] = []): Token[] =>
    texts.map((text, index) => {
      const e = expand(text, values);
      const editable = !e.changed && e.known;
      const references = editable ? [] : referencesIn(text);
      return {
        text: e.known ? e.text : text,
        list,
        index,
        start: 0,
        end: text.length,
        literal: e.known,
        editable,
        ...(references.length > 0 ? { references } : {}),
      };
    });
  const argv = [...items('command', command), ...items('args', args)];
  // `sh -c SCRIPT` or `bash -exc SCRIPT`: options first, the script is the next item after them.
  let script: Script | undefined;
  if (argv.length > 0 && SHELLS.test(argv[0].text)) {
    let i = 1;
    while (i < argv.length && /^[-+][a-zA-Z]+$/.test(argv[i].text) && !/c/.test(argv[i].text)) i++;
    if (i < argv.length && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(argv[i].text) && i + 1 < argv.length) {
      const item = argv[i + 1];
      const written = (item.list === 'command' ? command : args)![item.index];
      // The kubelet expands the script's `$(VAR)` references before the shell runs it; references it cannot
      // resolve stay as written, where the shell reads them as command substitutions.
      const expanded = expand(written, values);
      script = {
        list: item.list,
        index: item.index,
        shell: argv[0].text,
        parsed: parseScript(expanded.text),
        written,
        expanded,
      };
    }
  }
  return {
    argv,
    script,
    hasArgs: args !== undefined,
    hasCommand: command !== undefined,
  };
}

/** Where a flag is set: its token, and its value and the token holding it. */
export interface FlagUse {
  flag: Token;
  /** The value; undefined when the flag has none or the shell decides it. */
  value?: string;
  valueToken?: Token;
  inline: boolean;
}

/** Compare flag names the way argparse-style servers accept them: `--shutdown_timeout` = `--shutdown-timeout`. */
function sameFlag(word: string, flag: string): boolean {
  return word.replaceAll('_', '-') === flag;
}

/** The last use of a flag (`--flag=V` or `--flag V`) among some words, since the last one wins. */
export function findFlag(tokens: readonly Token[], flag: string): FlagUse | undefined {
  let found: FlagUse | undefined;
  tokens.forEach((token, i) => {
    const eq = token.text.indexOf('=');
    if (eq !== -1 && sameFlag(token.text.slice(0, eq), flag)) {
      found = {
        flag: token,
        value: token.literal ? token.text.slice(eq + 1) : undefined,
        valueToken: token,
        inline: true,
      };
    } else if (sameFlag(token.text, flag)) {
      const next = tokens[i + 1];
      const hasValue = next && !next.text.startsWith('-');
      found = {
        flag: token,
        value: hasValue && next.literal ? next.text : undefined,
        valueToken: hasValue ? next : undefined,
        inline: false,
      };
    }
  });
  return found;
}
