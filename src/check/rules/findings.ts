/**
 * What the checker reports. Every finding has a stable `code` (tests, CI and the page rely on it), a
 * severity, the object and path it is about, what will happen during a rollout, and, where the checker
 * can say, the fix as a value or a YAML snippet with the edits that apply it.
 */
import type { WarningCode } from '../../model/warnings.ts';
import type { Edit } from '../fix/edit.ts';
import type { CheckCode } from './codes.gen.ts';

/** `error`: a request the settings say can happen is dropped or the rollout breaks. `warning`: a margin
 * the drain model adds is missing, or a rollout degrades. `info`: something to know or to check by hand. */
export type Severity = 'error' | 'warning' | 'info';

/** The checker's own codes (one for each rule folder, see codes.gen.ts); plan warnings keep theirs from `warnings.ts`. */
export type { CheckCode };

export type FindingCode = CheckCode | WarningCode;

/** A fix: what to write (a value or a YAML snippet), and the edits that write it. */
export interface Fix {
  text: string;
  edits: Edit[];
}

/** A fix the reader makes by hand: "Manual: " and what to do, with no edits. */
export function manualFix(todo: string): Fix {
  return { text: `Manual: ${todo}`, edits: [] };
}

/** One finding about the manifest. */
export interface Finding {
  code: FindingCode;
  severity: Severity;
  /** `Kind/name` of the object, or '' for notes about the settings. */
  object: string;
  /** YAML document number, from 1. */
  document?: number;
  /** Path inside the document, as `spec.template.spec.containers[0].lifecycle`; '' for notes about the settings. */
  path: string;
  /** 1-based line of the path (or of its nearest part that exists). */
  line?: number;
  /** What will happen during a rollout, in a sentence or two. */
  message: string;
  fix?: Fix;
  /** `applied`: the fixed manifest carries the fix. `manual`: the fix (or the message) says what to do by hand. */
  remedy: 'applied' | 'manual';
  /**
   * An error that rests on inputs the check assumed, reported as a warning: the settings that would make it known
   * (`--strict` counts it as an error).
   */
  assumed?: string[];
  /** The inputs the rule's verdict rests on (its `restsOn`), each read, given or assumed, with the settings. */
  rests?: { basis: string; source: 'read' | 'given' | 'assumed'; settings: readonly string[] }[];
  /** Set when the workload's `hitless.dev/ignore` annotation names this code: the reason given there. */
  suppressed?: string;
}

/** The order findings are listed in: errors first. */
export const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Sort findings by severity, then by document and line, keeping rule order otherwise. */
export function sortFindings(findings: Finding[]): Finding[] {
  return findings
    .map((f, i) => [f, i] as const)
    .sort(
      ([a, i], [b, j]) =>
        SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]
        || (a.document ?? 0) - (b.document ?? 0)
        || (a.line ?? 0) - (b.line ?? 0)
        || i - j,
    )
    .map(([f]) => f);
}

/** Counts by severity. */
export function countFindings(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

/** "2 errors, 1 warning, 3 notes", or "No findings". */
export function describeCounts(counts: Record<Severity, number>): string {
  const parts: string[] = [];
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (counts.error) parts.push(plural(counts.error, 'error'));
  if (counts.warning) parts.push(plural(counts.warning, 'warning'));
  if (counts.info) parts.push(plural(counts.info, 'note'));
  return parts.length ? parts.join(', ') : 'No findings';
}
