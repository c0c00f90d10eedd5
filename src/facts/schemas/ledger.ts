/**
 * The facts ledger: every fact in a profile names at least one source, every source says what it was checked against
 * and when, and every per-release fact says which releases it holds for. gateway.ts and model-server.ts list their
 * facts as entries; their schemas refuse a file with a problem, and tests call them on mutated copies.
 */
import type { z } from 'zod';
import { DATE, refuse, type ReleaseRange } from './common.ts';

/** One fact of a profile as the ledger sees it: where it is, what it cites, and its range when it has one. */
export interface LedgerEntry {
  path: string;
  sources: readonly string[];
  range?: ReleaseRange & { rangeNote?: string };
}

/** What the ledger finds wrong with a profile's sources and entries (empty when every fact is sourced). */
export function ledgerProblems(
  entries: readonly LedgerEntry[],
  sources: readonly { id: string; at?: string; checked?: string }[],
): string[] {
  const problems: string[] = [];
  sources.forEach((s, i) => {
    if (!s.at?.trim())
      problems.push(`sources[${i}].at is missing: say which tag, commit or docs version "${s.id}" was read at`);
    if (!DATE.test(s.checked ?? ''))
      problems.push(`sources[${i}].checked is missing: give the date "${s.id}" was checked (YYYY-MM-DD)`);
  });
  const known = new Set(sources.map((s) => s.id));
  for (const entry of entries) {
    if (entry.sources.length === 0) problems.push(`${entry.path}: the fact names no source`);
    for (const ref of entry.sources) {
      if (!known.has(ref))
        problems.push(`${entry.path}: names source "${ref}", which the file's sources list does not declare`);
    }
    const range = entry.range;
    if (range && range.since === undefined && range.until === undefined && !range.rangeNote?.trim()) {
      problems.push(
        `${entry.path}: a per-release fact needs since and/or until, or a rangeNote saying why no release bound is known`,
      );
    }
  }
  return problems;
}

/** A refinement that refuses a profile the ledger finds a problem with, naming the first. */
export function checkLedger<T>(problemsOf: (profile: T) => string[]) {
  return (profile: T, ctx: z.RefinementCtx): void => {
    const problems = problemsOf(profile);
    if (problems.length > 0) refuse(ctx, [], `fails the facts ledger: ${problems[0]}`);
  };
}
