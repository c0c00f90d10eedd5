/**
 * A container's command line: `command` and `args` as tokens, including the words of a `sh -c` script,
 * so that flags can be read and changed wherever the reader wrote them.
 */
import type { Edit } from './edit.ts';
import type { Segment } from './path.ts';

/** One word of the command line and where it sits. */
export interface Token {
  text: string;
  list: 'command' | 'args';
  /** Index of the item in its list. */
  index: number;
  /** Offsets of the word inside a script item; 0 and the item's length otherwise. */
  start: number;
  end: number;
  inScript: boolean;
}

/** The command line of one container. */
export interface CommandLine {
  tokens: Token[];
  /** The `sh -c` script item, when the container runs one. */
  script?: { list: 'command' | 'args'; index: number; text: string };
  /** Whether the container sets `args` (a new flag goes there). */
  hasArgs: boolean;
  hasCommand: boolean;
}

const SHELLS = /(^|\/)(sh|bash|dash|ash|zsh)$/;

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : String(v))) : undefined;
}

/** Split a shell script into words with their offsets; quotes group words but are kept in the text. */
function scriptWords(script: string): { text: string; start: number; end: number }[] {
  const words: { text: string; start: number; end: number }[] = [];
  let i = 0;
  while (i < script.length) {
    while (i < script.length && /\s/.test(script[i])) i++;
    if (i >= script.length) break;
    const start = i;
    let quote = '';
    while (i < script.length && (quote || !/\s/.test(script[i]))) {
      const c = script[i];
      if (quote) { if (c === quote) quote = ''; } else if (c === '"' || c === "'") quote = c;
      i++;
    }
    words.push({ text: script.slice(start, i).replace(/^(["'])(.*)\1$/, '$2'), start, end: i });
  }
  return words;
}

/** Read a container's command line. */
export function commandLineOf(container: Record<string, unknown>): CommandLine {
  const command = strings(container.command);
  const args = strings(container.args);
  const tokens: Token[] = [];
  let script: CommandLine['script'];
  const all: [Token['list'], string][] = [...(command ?? []).map((t) => ['command', t] as [Token['list'], string]), ...(args ?? []).map((t) => ['args', t] as [Token['list'], string])];
  const shellAt = all.findIndex(([, t], i) => i + 1 < all.length && SHELLS.test(t) && /^-[a-z]*c[a-z]*$/.test(all[i + 1][1]));
  let position = 0;
  for (const [list, text] of all) {
    const index = list === 'command' ? position : position - (command?.length ?? 0);
    if (shellAt !== -1 && position === shellAt + 2) {
      script = { list, index, text };
      for (const w of scriptWords(text)) tokens.push({ text: w.text, list, index, start: w.start, end: w.end, inScript: true });
    } else {
      tokens.push({ text, list, index, start: 0, end: text.length, inScript: false });
    }
    position++;
  }
  return { tokens, script, hasArgs: args !== undefined, hasCommand: command !== undefined };
}

/** Where a flag is set: its token, and its value and the token holding it. */
export interface FlagUse {
  flag: Token;
  value?: string;
  valueToken?: Token;
  inline: boolean;
}

/** Compare flag names the way argparse-style servers accept them: `--shutdown_timeout` = `--shutdown-timeout`. */
function sameFlag(word: string, flag: string): boolean {
  return word.replaceAll('_', '-') === flag;
}

/** The last use of a flag (`--flag=V` or `--flag V`), since the last one wins. */
export function findFlag(line: CommandLine, flag: string): FlagUse | undefined {
  let found: FlagUse | undefined;
  line.tokens.forEach((token, i) => {
    const eq = token.text.indexOf('=');
    if (eq !== -1 && sameFlag(token.text.slice(0, eq), flag)) {
      found = { flag: token, value: token.text.slice(eq + 1), valueToken: token, inline: true };
    } else if (sameFlag(token.text, flag)) {
      const next = line.tokens[i + 1];
      const hasValue = next && !next.text.startsWith('-');
      found = { flag: token, value: hasValue ? next.text : undefined, valueToken: hasValue ? next : undefined, inline: false };
    }
  });
  return found;
}

/** The end of the command that starts at `from` in a script: before `&&`, `;`, `|`, `&` or an unescaped newline. */
function commandEnd(script: string, from: number): number {
  let quote = '';
  let i = from;
  for (; i < script.length; i++) {
    const c = script[i];
    if (quote) { if (c === quote) quote = ''; continue; }
    if (c === '"' || c === "'") quote = c;
    else if (c === '\\' && script[i + 1] === '\n') i++;
    else if (c === '\n' || c === ';' || c === '&' || c === '|' || c === ')') break;
  }
  while (i > from && /[ \t]/.test(script[i - 1])) i--;
  return i;
}

/**
 * The edit that makes a flag read `--flag=value`: the existing use is rewritten in place; otherwise the
 * flag is added to `args` (or to a script, after the command at `anchor`, the token that starts the server).
 */
export function flagEdit(line: CommandLine, document: number, containerPath: Segment[], flag: string, value: string, anchor?: Token): Edit {
  const use = findFlag(line, flag);
  const setItem = (token: Token, text: string): Edit => ({ op: 'set', document, path: [...containerPath, token.list, token.index], value: text });
  if (use && use.flag.inScript && line.script) {
    const s = line.script.text;
    const target = use.inline ? use.flag : use.valueToken;
    const replaced = target
      ? `${s.slice(0, target.start)}${use.inline ? `${flag}=` : ''}${value}${s.slice(target.end)}`
      : `${s.slice(0, use.flag.end)} ${value}${s.slice(use.flag.end)}`;
    return setItem(use.flag, replaced);
  }
  if (use) {
    if (use.valueToken && !use.inline && !use.valueToken.inScript) return setItem(use.valueToken, value);
    return setItem(use.flag, `${flag}=${value}`);
  }
  if (line.script) {
    const s = line.script.text;
    const scriptTokens = line.tokens.filter((t) => t.inScript);
    const from = (anchor && anchor.inScript ? anchor : scriptTokens[0])?.end ?? 0;
    const at = commandEnd(s, from);
    return setItem({ ...scriptTokens[0], list: line.script.list, index: line.script.index }, `${s.slice(0, at)} ${flag}=${value}${s.slice(at)}`);
  }
  const list = line.hasArgs || !line.hasCommand ? 'args' : 'command';
  return { op: 'append', document, path: [...containerPath, list], value: `${flag}=${value}` };
}
