/** The manifest checker: manifest text and drain settings in, findings and a fixed manifest out. */
export { checkManifest, explainManifest, type CheckReport, type CheckResult } from './check.ts';
export { explanationText, type Explanation } from './explain.ts';
export { fixManifest, type FixedManifest } from './fix/fix.ts';
export {
  countFindings,
  describeCounts,
  type Finding,
  type FindingCode,
  type Fix,
  type Severity,
} from './rules/findings.ts';
export { RULES, ruleFor, ruleRows, type RuleRow } from './rules/index.ts';
export type { Rule } from './rules/rule.ts';
export type { InputProblem } from './read/guard-input.ts';
export { utf8Length, tooLarge } from './read/guard-input.ts';
export { MAX_INPUT_BYTES, formatKiB } from './read/limits.ts';
export {
  CHECK_SETTING_FLAGS,
  describeCheckedFor,
  settingErrors,
  type CheckedFor,
  type FoundSetting,
} from './workload/settings.ts';
