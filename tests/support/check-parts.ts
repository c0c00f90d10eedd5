// A check in parts of parts already split and held in memory: what `hitless check` does with a large input, with its
// findings deduped, sorted and counted as `checkManifest` gives them, so that tests can compare the two reports.
import { dedupe, type CheckReport } from '../../src/check/check.ts';
import { checkIndexedParts, type BatchLimits } from '../../src/check/check-parts.ts';
import type { InputProblem } from '../../src/check/read/guard-input.ts';
import type { Part } from '../../src/check/read/split-documents.ts';
import { countFindings, sortFindings, type Finding } from '../../src/check/rules/findings.ts';
import { indexParts } from '../../src/check/part-index.ts';
import type { Profiles } from '../../src/facts/profiles.ts';

/** The report (as `checkManifest` gives it, for the whole input) or the first problem. */
export type PartsResult = { ok: true; report: CheckReport } | { ok: false; problem: InputProblem };

/** Check the parts of an input (from `splitDocuments`, in input order) as `checkManifest` checks the whole text. */
export function checkParts(
  parts: Part[],
  settings: Record<string, string>,
  profiles: Profiles,
  limits?: BatchLimits,
): PartsResult {
  const indexer = indexParts(profiles);
  for (const part of parts) {
    const problem = indexer.add(part);
    if (problem) return { ok: false, problem };
  }
  const findings: Finding[] = [];
  const result = checkIndexedParts(
    indexer,
    (i) => parts[i].text,
    settings,
    profiles,
    (f) => findings.push(f),
    limits,
  );
  if (!result.ok) return result;
  const sorted = sortFindings(dedupe(findings));
  return { ok: true, report: { ...result.report, findings: sorted, counts: countFindings(sorted) } };
}
