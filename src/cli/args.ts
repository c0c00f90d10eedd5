/**
 * Parse the CLI's arguments: `--flag value`, `--flag=value`, and boolean flags as `--flag`, `--flag=true|false`
 * or `--flag true|false`. A blank value (`--replicas ''`, `--replicas=`) is an error naming the flag, never a
 * silent default. `--` ends the options: every argument after it is positional (a file named `--help`).
 */
import { FIELDS, fieldFor } from '../model/fields.ts';

/** The arguments before `--`, the end of options: the only ones that can be flags. */
function optionsPart(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--');
  return end === -1 ? argv : argv.slice(0, end);
}

/** Whether the command is asked for its help (`--help` or `-h` before any `--`). */
export function asksForHelp(argv: readonly string[]): boolean {
  const options = optionsPart(argv);
  return options.includes('--help') || options.includes('-h');
}

/**
 * The candidate closest to a mistyped word, for "did you mean": at most a third of its letters apart
 * (Levenshtein distance, an adjacent swap counting once), or a unique candidate it is the start of.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const distance = (a: string, b: string): number => {
    const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
    for (let j = 1; j <= b.length; j++) d[0][j] = j;
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++) {
        d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    return d[a.length][b.length];
  };
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(word.length / 3)) + 1;
  for (const c of candidates) {
    const n = distance(word.toLowerCase(), c.toLowerCase());
    if (n < bestDistance) [best, bestDistance] = [c, n];
  }
  const prefixed = candidates.filter((c) => word.length >= 3 && c.startsWith(word));
  return best ?? (prefixed.length === 1 ? prefixed[0] : undefined);
}

/** " Did you mean X?" for a mistyped word, or nothing. */
export function didYouMean(word: string, candidates: readonly string[], prefix = ''): string {
  const match = closest(word, candidates);
  return match === undefined ? '' : ` Did you mean ${prefix}${match}?`;
}

/** A usage error: the CLI prints it and exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ParsedArgs {
  /** Drain-model inputs by flag name. */
  inputs: Record<string, string>;
  /** Options of the command itself (format, scenario, …) by name. */
  options: Record<string, string>;
  /** Positional arguments (files for `check`). */
  positional: string[];
}

/** The words a boolean flag takes after `=`: as the core reads them (`1` and `0` too, as in the site's links). */
const BOOLEAN_INLINE = ['true', 'false', '1', '0'];
/** The words taken as a boolean flag's value when they follow it as the next argument. */
const BOOLEAN_NEXT = ['true', 'false'];

/** The value of a boolean flag: `true` when bare, else its inline value or a following `true`/`false`. */
function booleanValue(
  name: string,
  inline: string | undefined,
  next: string | undefined,
): { value: string; usesNext: boolean } {
  if (inline !== undefined) {
    if (!BOOLEAN_INLINE.includes(inline))
      throw new UsageError(`--${name} must be true or false (got ${JSON.stringify(inline)})`);
    return { value: inline, usesNext: false };
  }
  if (next !== undefined && BOOLEAN_NEXT.includes(next)) return { value: next, usesNext: true };
  return { value: 'true', usesNext: false };
}

/**
 * Split argv into drain-model inputs (any flag of the field table), the command's own options
 * (named in `optionNames`; those in `booleanOptions` take true or false, and are stored as `'true'` or
 * `'false'`) and positional arguments.
 */
export function parseArgs(
  argv: string[],
  optionNames: readonly string[],
  booleanOptions: readonly string[] = [],
): ParsedArgs {
  const result: ParsedArgs = { inputs: {}, options: {}, positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      // The end of options: every argument after it is positional, even one that starts with --.
      result.positional.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-' || !arg.startsWith('--')) {
      result.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const inline = eq === -1 ? undefined : arg.slice(eq + 1);
    const field = fieldFor(name);
    const isInput = field !== undefined && field.flag === name;
    if (!isInput && !optionNames.includes(name) && !booleanOptions.includes(name)) {
      const known = [...optionNames, ...booleanOptions, ...FIELDS.map((f) => f.flag)];
      throw new UsageError(`--${name} is not an option of this command (see --help).${didYouMean(name, known, '--')}`);
    }
    let value: string;
    if (booleanOptions.includes(name) || (isInput && field.kind === 'bool')) {
      if (inline?.trim() === '') throw new UsageError(`--${name} needs a value after = (true or false)`);
      const parsed = booleanValue(name, inline, argv[i + 1]);
      value = isInput ? parsed.value : String(parsed.value === 'true' || parsed.value === '1');
      if (parsed.usesNext) i++;
    } else if (inline !== undefined) {
      value = inline;
    } else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) {
      value = argv[++i];
    } else {
      throw new UsageError(`--${name} needs a value`);
    }
    if (value.trim() === '')
      throw new UsageError(`--${name} needs a value (got ${value === '' ? 'an empty one' : 'only spaces'})`);
    const into = isInput ? result.inputs : result.options;
    if (name in into) throw new UsageError(`--${name} is given twice`);
    into[name] = value;
  }
  return result;
}

/** A command's option that takes one of `allowed` (its default when not given); anything else is a usage error. */
export function choiceOption<T extends string>(args: ParsedArgs, name: string, allowed: readonly T[], fallback: T): T {
  const value = (args.options[name] ?? fallback) as T;
  if (!allowed.includes(value))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')} (got ${JSON.stringify(value)})`);
  return value;
}

/** Refuse positional arguments: `command` takes none (`what` they would be). */
export function noPositional(args: ParsedArgs, command: string, what = 'file arguments'): void {
  if (args.positional.length > 0)
    throw new UsageError(`${command} takes no ${what} (got ${JSON.stringify(args.positional[0])})`);
}

/** A number flag within [min, max] (a whole one unless `whole` is false), or its default when not given. */
export function numberOption(
  value: string | undefined,
  flag: string,
  [min, max, fallback]: readonly [number, number, number],
  whole = true,
): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!(whole ? /^\d+$/ : /^\d+(\.\d+)?$/).test(value) || !Number.isFinite(n) || n < min || n > max) {
    throw new UsageError(
      `--${flag} must be ${whole ? 'a whole number' : 'a number'} from ${min} to ${max} (got ${JSON.stringify(value)})`,
    );
  }
  return n;
}
