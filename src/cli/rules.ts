/** `hitless rules`: list the checker's rules from its registry: code, severity and what each looks for. */
import { RULES } from '../drain/check/findings.ts';
import { parseArgs, UsageError } from './args.ts';

const USAGE = `Usage: hitless rules [--format text|json|markdown]

Lists every rule of hitless check: its code (as findings and hitless.dev/ignore name it), its severity and what it
looks for.`;

/** Run `hitless rules`; returns the exit code. */
export async function runRules(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const args = parseArgs(argv, ['format']);
  const format = args.options.format ?? 'text';
  if (args.positional.length > 0) throw new UsageError(`rules takes no arguments (got ${JSON.stringify(args.positional[0])})`);
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(RULES, null, 2)}\n`);
  } else if (format === 'markdown') {
    const cell = (t: string) => t.replaceAll('|', '\\|');
    process.stdout.write(`| Code | Severity | Checks |\n| --- | --- | --- |\n${RULES.map((r) => `| \`${r.code}\` | ${cell(r.severity)} | ${cell(r.checks)} |`).join('\n')}\n`);
  } else if (format === 'text') {
    const width = Math.max(...RULES.map((r) => r.code.length));
    process.stdout.write(`${RULES.map((r) => `${r.code.padEnd(width)}  ${r.checks}\n${' '.repeat(width + 2)}severity: ${r.severity}`).join('\n')}\n`);
  } else {
    throw new UsageError(`--format must be one of text, json, markdown (got ${JSON.stringify(format)})`);
  }
  return 0;
}
