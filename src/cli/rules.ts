/** `hitless rules`: list the checker's rules from its registry: code, severity and what each looks for. */
import { ruleRows } from '../check/rules/index.ts';
import { choiceOption, noPositional, parseArgs } from './args.ts';

export const RULES_HELP = `Usage: hitless rules [--format text|json|markdown]

Lists every rule of hitless check: its code (as findings and hitless.dev/ignore name it), its severity, what it
looks for, what to do about it, and whether its fix can be written for you (applied: hitless check --format diff)
or you act (manual).`;

export async function runRules(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['format']);
  noPositional(args, 'rules', 'arguments');
  const format = choiceOption(args, 'format', ['text', 'json', 'markdown'], 'text');
  const rules = ruleRows();
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(rules, null, 2)}\n`);
  } else if (format === 'markdown') {
    const cell = (t: string) => t.replaceAll('|', '\\|');
    process.stdout.write(
      `| Code | Severity | Checks | Remedy |\n| --- | --- | --- | --- |\n${rules.map((r) => `| \`${r.code}\` | ${cell(r.severity)} | ${cell(r.summary)} | ${cell(r.remediation)} (${r.fix}) |`).join('\n')}\n`,
    );
  } else {
    const width = Math.max(...rules.map((r) => r.code.length));
    const pad = ' '.repeat(width + 2);
    process.stdout.write(
      `${rules.map((r) => `${r.code.padEnd(width)}  ${r.summary}\n${pad}severity: ${r.severity}\n${pad}remedy (${r.fix}): ${r.remediation}`).join('\n')}\n`,
    );
  }
  return 0;
}
