import { checkManifest, fixManifest } from '../../src/check/index.ts';
import { severitiesOf, type Rule } from '../../src/check/rules/rule.ts';
import { CHECK_TEST_SETTINGS, profiles } from './check.ts';
import { readRuleFixtures } from './rule-fixtures.ts';

const CHECK_DIR = new URL('../../src/check/', import.meta.url);

/** A rule's fixture files, as far as they exist. */
export interface RuleFiles {
  fires?: string;
  doesNotFire?: string;
  fixed?: string;
}

/**
 * Read the fixtures of the rule folder `rules/<code>/`, composed (tests/support/rule-fixtures.ts): fires and
 * does-not-fire on their base manifest, and `fixed` as the golden fixed.diff applied to the composed fires text.
 */
export function readRuleFiles(code: string): RuleFiles {
  return readRuleFixtures(new URL(`rules/${code}/`, CHECK_DIR));
}

/** The first line where two texts differ, for a message. */
function firstDifference(actual: string, expected: string): string {
  const a = actual.split('\n');
  const e = expected.split('\n');
  for (let i = 0; i < Math.max(a.length, e.length); i++) {
    if (a[i] !== e[i])
      return `line ${i + 1}: the fix writes ${JSON.stringify(a[i] ?? '(end)')}, the golden has ${JSON.stringify(e[i] ?? '(end)')}`;
  }
  return 'they differ';
}

function metadataProblems(rule: Rule): string[] {
  const problems: string[] = [];
  const line = (key: 'summary' | 'remediation') => {
    const value = rule[key];
    if (typeof value !== 'string' || value.trim() === '') problems.push(`${key} is missing`);
    else if (value.includes('\n') || !/\.$/.test(value)) problems.push(`${key} is not one line ending in a period`);
  };
  if (!/^[a-z][a-z0-9-]*$/.test(rule.code ?? ''))
    problems.push(`code ${JSON.stringify(rule.code)} is not a lowercase code`);
  const levels = rule.severity ? severitiesOf(rule) : [];
  if (levels.length === 0 || levels.some((l) => !['error', 'warning', 'info'].includes(l)))
    problems.push('severity is missing (it starts with error, warning or info)');
  line('summary');
  line('remediation');
  if (rule.remedy !== 'applied' && rule.remedy !== 'manual') problems.push('remedy is neither applied nor manual');
  if (rule.remedy === 'applied' && typeof rule.fix !== 'function')
    problems.push('remedy is applied, but the rule has no fix');
  return problems;
}

/** Everything wrong with one rule unit. */
export function auditRule(rule: Rule, files: RuleFiles): string[] {
  const problems = metadataProblems(rule);
  if (files.fires === undefined) problems.push('fires.yaml is missing');
  if (files.doesNotFire === undefined) problems.push('does-not-fire.yaml is missing');
  if (rule.remedy === 'applied' && files.fixed === undefined)
    problems.push('fixed.yaml is missing (the rule says the checker applies its fix)');
  if (rule.remedy === 'manual' && files.fixed !== undefined)
    problems.push('fixed.yaml is there, but the rule says its fix is manual');
  const settings = { ...CHECK_TEST_SETTINGS, ...rule.fixtureSettings };
  const run = (name: string, text: string) => {
    const result = checkManifest(text, settings, profiles);
    if (!result.ok) problems.push(`${name} cannot be checked: ${result.problem.message}`);
    return result.ok ? result : undefined;
  };
  const ours = (result: ReturnType<typeof run>) =>
    result ? result.report.findings.filter((f) => f.code === rule.code) : [];
  if (files.doesNotFire !== undefined) {
    const quiet = run('does-not-fire.yaml', files.doesNotFire);
    if (quiet && ours(quiet).length > 0)
      problems.push(`does-not-fire.yaml reports ${rule.code}: ${ours(quiet)[0].message}`);
  }
  if (files.fires === undefined) return problems;
  const fires = run('fires.yaml', files.fires);
  if (!fires) return problems;
  const found = ours(fires);
  if (found.length === 0) return [...problems, `fires.yaml does not report ${rule.code}`];
  const remedies = [...new Set(found.map((f) => f.remedy))];
  if (remedies.length !== 1 || remedies[0] !== rule.remedy)
    problems.push(
      `fires.yaml gets ${rule.code} with remedy ${remedies.join(' and ')}, but the rule says ${rule.remedy}`,
    );
  for (const severity of new Set(found.map((f) => f.severity)))
    if (!severitiesOf(rule).includes(severity))
      problems.push(`fires.yaml gets ${rule.code} as ${severity}, which the rule's severity does not declare`);
  if (rule.remedy !== 'applied' || files.fixed === undefined) return problems;
  const out = fixManifest(fires.manifest, fires.report.findings).text;
  if (out !== files.fixed)
    problems.push(`fixing fires.yaml does not give fixed.yaml: ${firstDifference(out, files.fixed)}`);
  const again = run('fixed.yaml', files.fixed);
  if (!again) return problems;
  if (ours(again).length > 0) problems.push(`fixed.yaml still reports ${rule.code}: ${ours(again)[0].message}`);
  if (fixManifest(again.manifest, again.report.findings).text !== files.fixed)
    problems.push('fixing fixed.yaml changes it again: the fix does not converge');
  return problems;
}
