/** Parse `--flag value`, `--flag=value` and bare boolean `--flag` arguments for the CLI. */
import { fieldFor } from '../drain/fields.ts';

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

/**
 * Split argv into drain-model inputs (any flag of the field table), the command's own options
 * (named in `optionNames`; those in `booleanOptions` take no value) and positional arguments.
 */
export function parseArgs(argv: string[], optionNames: readonly string[], booleanOptions: readonly string[] = []): ParsedArgs {
  const result: ParsedArgs = { inputs: {}, options: {}, positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-' || !arg.startsWith('--')) {
      result.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const inline = eq === -1 ? undefined : arg.slice(eq + 1);
    const field = fieldFor(name);
    const isBoolean = booleanOptions.includes(name) || field?.kind === 'bool';
    let value: string;
    if (inline !== undefined) value = inline;
    else if (isBoolean) value = 'true';
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) value = argv[++i];
    else throw new UsageError(`--${name} needs a value`);
    if (field && field.flag === name) {
      if (name in result.inputs) throw new UsageError(`--${name} is given twice`);
      result.inputs[name] = value;
    } else if (optionNames.includes(name) || booleanOptions.includes(name)) {
      result.options[name] = value;
    } else {
      throw new UsageError(`--${name} is not an option of this command (see hitless --help)`);
    }
  }
  return result;
}
