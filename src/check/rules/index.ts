/**
 * The registry: every rule folder `rules/<code>/` (registry.gen.ts, written by scripts/gen-rules.ts), in the order
 * the rules run and are listed. `hitless rules`, the /checker/ page and the meta-test list them from here.
 */
import type { CheckCode } from './codes.gen.ts';
import { RULE_FOLDERS } from './registry.gen.ts';
import { describeSeverity, type Rule } from './rule.ts';

/** Every rule, in order. */
export const RULES: readonly Rule<CheckCode>[] = [...RULE_FOLDERS].sort(
  (a, b) => a.order - b.order || (a.code < b.code ? -1 : 1),
);

/** The rule with a code, or undefined. */
export function ruleFor(code: string): Rule<CheckCode> | undefined {
  return RULES.find((r) => r.code === code);
}

/** One row of the rule list (`hitless rules`, the /checker/ page): the metadata, its severity in words. */
export type RuleRow = ReturnType<typeof ruleRows>[number];

/** The rule list, in order. */
export function ruleRows() {
  return RULES.map((r) => ({
    code: r.code,
    severity: describeSeverity(r),
    summary: r.summary,
    remediation: r.remediation,
    fix: r.remedy,
  }));
}
