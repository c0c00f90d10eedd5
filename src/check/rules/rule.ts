/**
 * A rule of the checker as a unit (kube-linter's templates, Polaris's checks): one folder `rules/<code>/` holds its
 * `rule.ts` (what it looks for, how severe, what it applies to, its check and its fix) beside its fixtures:
 * `fires.yaml` (a manifest it reports on), `does-not-fire.yaml` (one it does not), and for a fix the checker writes,
 * `fixed.yaml` (what fixing `fires.yaml` must give, byte for byte). scripts/gen-rules.ts registers every folder.
 */
import type { Segment } from '../read/path.ts';
import type { ManifestObject } from '../read/read-manifest.ts';
import type { InputContext, WorkloadContext } from './context.ts';
import type { Fix, Severity } from './findings.ts';
import type { Basis } from '../workload/assumed.ts';

/**
 * How severe a rule's findings are: one level, or each level it reports with the condition for it, the usual level
 * first ('' when it needs none): `{ error: 'below the longest request', warning: 'below the drain budget' }`.
 */
export type SeverityRule = Severity | Partial<Record<Severity, string>>;

/** What a rule's check found: how severe, where and what happens. */
export interface Verdict {
  severity: Severity;
  /** Path inside the object; [] for the object itself. */
  path: Segment[];
  message: string;
  /** The object it is about: a workload rule's workload unless set; null for a note about the input as a whole. */
  object?: ManifestObject | null;
  /** A note about a document that holds no object: its number (from 0) and first line. */
  stray?: { document: number; line?: number };
  /** The inputs this verdict rests on, where fewer than the rule's `restsOn` (a value the manifest states replaces one). */
  restsOn?: readonly Basis[];
}

/** A verdict about an object named in it, carrying its own fix (`fix: (_ctx, verdict) => verdict.planned`). */
export interface PlannedVerdict extends Verdict {
  object: ManifestObject;
  planned: Fix;
}

/** What every rule declares, whatever it applies to. */
interface RuleMetadata<C extends string> {
  code: C;
  severity: SeverityRule;
  /** What it looks for, in one line. */
  summary: string;
  /** What to do about a finding, in one line ending in a period. */
  remediation: string;
  /** `applied`: the fixed manifest carries the fix for `fires.yaml` (golden `fixed.yaml`). `manual`: the reader acts. */
  remedy: 'applied' | 'manual';
  /** Where it runs and is listed: rules run (and findings on one line are listed) in increasing order. */
  order: number;
  /**
   * The inputs its errors rest on (workload/assumed.ts): an error whose input the check assumed (a default the
   * manifest does not state and the reader did not give) is reported as a warning that names what to set.
   */
  restsOn?: readonly Basis[];
  /** Check settings for its fixtures, over the tests' CHECK_TEST_SETTINGS (`{ gateway: 'gke' }`). */
  fixtureSettings?: Readonly<Record<string, string>>;
}

/** A rule run once for each model-server workload. */
export interface WorkloadRule<C extends string = string, V extends Verdict = Verdict> extends RuleMetadata<C> {
  scope: 'workload';
  /** Whether it applies to this workload at all (the server known, a LeaderWorkerSet, …); always when left out. */
  appliesTo?: (ctx: WorkloadContext) => boolean;
  check: (ctx: WorkloadContext) => V[];
  /** The fix for a verdict: edits and what they write, or the text of a manual fix. */
  fix?: (ctx: WorkloadContext, verdict: V) => Fix | undefined;
}

/** A rule run once over the whole input: pools, gateway policies and routes, values, objects it ignores. */
export interface ManifestRule<C extends string = string, V extends Verdict = Verdict> extends RuleMetadata<C> {
  scope: 'manifest';
  appliesTo?: (ctx: InputContext) => boolean;
  check: (ctx: InputContext) => V[];
  fix?: (ctx: InputContext, verdict: V) => Fix | undefined;
}

/** Any rule. */
// biome-ignore lint/suspicious/noExplicitAny: a rule's verdicts carry what its own fix needs; the runner passes them back.
export type Rule<C extends string = string> = WorkloadRule<C, any> | ManifestRule<C, any>;

/** Declare a rule (typed: its code is the literal, its fix gets the verdicts its check returns). */
export function defineRule<const C extends string, V extends Verdict>(rule: WorkloadRule<C, V>): WorkloadRule<C, V>;
export function defineRule<const C extends string, V extends Verdict>(rule: ManifestRule<C, V>): ManifestRule<C, V>;
export function defineRule(rule: Rule): Rule {
  return rule;
}

/** The severities a rule declares, its usual one first. */
export function severitiesOf(rule: Pick<Rule, 'severity'>): Severity[] {
  return typeof rule.severity === 'string' ? [rule.severity] : (Object.keys(rule.severity) as Severity[]);
}

/** A rule's severity in words, each level with its condition: "error below the longest request; warning …". */
export function describeSeverity(rule: Pick<Rule, 'severity' | 'restsOn'>): string {
  const levels =
    typeof rule.severity === 'string'
      ? rule.severity
      : Object.entries(rule.severity)
          .map(([level, when]) => (when ? `${level} ${when}` : level))
          .join('; ');
  return rule.restsOn
    ? `${levels} (the error a warning while the ${rule.restsOn.join(' or the ')} is assumed)`
    : levels;
}
