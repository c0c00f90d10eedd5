/**
 * A rule of the checker as a unit (kube-linter's templates, Polaris's checks): its code, how severe its findings
 * are, what it looks for and what to do about it. Each rule lives in `rules/<code>/` beside its fixtures:
 * `fires.yaml` (a manifest it reports on), `does-not-fire.yaml` (one it does not), and for a fix the checker writes,
 * `fixed.yaml` (what fixing `fires.yaml` must give, byte for byte). tests/unit/check-rules.test.ts runs them all.
 */
import type { CheckCode } from './findings.ts';

/** One rule's metadata. */
export interface Rule {
  code: CheckCode;
  /** Its severity as `hitless rules` shows it, with when it changes: "error below the removal p99; warning …". */
  severity: string;
  /** What it looks for, in one line. */
  summary: string;
  /** What to do about a finding, in one line. */
  remediation: string;
  /** `applied`: the fixed manifest carries the fix for `fires.yaml` (golden `fixed.yaml`). `manual`: the reader acts. */
  fix: 'applied' | 'manual';
  /** The modules (under src/drain/check/) whose logic reports it; rules of one part of the pod share them. */
  checkedIn: string[];
  /** Check settings for its fixtures, over the tests' CHECK_TEST_SETTINGS (`{ gateway: 'gke' }`). */
  fixtureSettings?: Readonly<Record<string, string>>;
}

/** Declare a rule (typed, so that a missing field fails the typecheck as well as the meta-test). */
export function defineRule(rule: Rule): Rule {
  return rule;
}
