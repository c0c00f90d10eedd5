/**
 * The facts ledger: every fact in a profile names at least one source, every source says what it was checked against
 * and when, and every per-release model-server fact says which releases it holds for. The readers call these on each
 * profile they load; tests call them on mutated copies to show they catch what they should.
 */
import type { GatewayProfile, ModelServerProfile, ReleaseRange, Source } from './profiles.ts';

/** One fact of a profile as the ledger sees it: where it is, what it cites, and its range when it has one. */
interface LedgerEntry {
  path: string;
  sources: readonly string[];
  range?: ReleaseRange & { rangeNote?: string };
}

/**
 * Every fact of a gateway profile that must cite a source. Gaps that report a missing source need none, and neither
 * does the status of a profile with no GatewayClass (the custom profile, whose status is Hitless's own).
 */
function gatewayEntries(g: GatewayProfile): LedgerEntry[] {
  const entries: LedgerEntry[] = [{ path: 'mechanismSources', sources: g.mechanismSources }];
  if (g.gatewayClassNames.length > 0) entries.push({ path: 'statusSources', sources: g.statusSources });
  entries.push(
    { path: 'detection.sources', sources: g.detection.sources },
    { path: 'removal.sources', sources: g.removal.sources },
  );
  if (g.healthCheck) entries.push({ path: 'healthCheck.sources', sources: g.healthCheck.sources });
  if (g.requestTimeout) entries.push({ path: 'requestTimeout.sources', sources: g.requestTimeout.sources });
  if (g.connectionDraining) entries.push({ path: 'connectionDraining.sources', sources: g.connectionDraining.sources });
  g.knobs.forEach((k, i) => entries.push({ path: `knobs[${i}].sources`, sources: k.sources }));
  g.extraManifests.forEach((e, i) => entries.push({ path: `extraManifests[${i}].sources`, sources: e.sources }));
  g.gaps.forEach((gap, i) => {
    if (gap.kind === 'conflict') entries.push({ path: `gaps[${i}].sources`, sources: gap.sources });
  });
  return entries;
}

/** Every fact of a model-server profile that must cite a source; the per-release facts also need a range. */
function modelServerEntries(m: ModelServerProfile): LedgerEntry[] {
  const entries: LedgerEntry[] = [
    { path: 'drain.sources', sources: m.drain.sources },
    { path: 'probes.sources', sources: m.probes.sources },
  ];
  // Timing that is an estimate or an example has no source by definition; its basis badge says so.
  if (m.probes.timing.basis === 'documented' || m.probes.timing.basis === 'observed') {
    entries.push({ path: 'probes.timing.sources', sources: m.probes.timing.sources });
  }
  (m.entryPoints ?? []).forEach((e, i) => entries.push({ path: `entryPoints[${i}].sources`, sources: e.sources }));
  m.facts.forEach((f, i) =>
    entries.push({
      path: `facts[${i}]`,
      sources: f.sources,
      range: { since: f.since, until: f.until, rangeNote: f.rangeNote },
    }),
  );
  return entries;
}

function sourceProblems(sources: readonly Source[]): string[] {
  const problems: string[] = [];
  sources.forEach((s, i) => {
    if (!s.at?.trim())
      problems.push(`sources[${i}].at is missing: say which tag, commit or docs version "${s.id}" was read at`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(s.checked ?? ''))
      problems.push(`sources[${i}].checked is missing: give the date "${s.id}" was checked (YYYY-MM-DD)`);
  });
  return problems;
}

function entryProblems(entries: readonly LedgerEntry[], sources: readonly Source[]): string[] {
  const known = new Set(sources.map((s) => s.id));
  const problems: string[] = [];
  for (const entry of entries) {
    if (entry.sources.length === 0) problems.push(`${entry.path}: the fact names no source`);
    for (const id of entry.sources) {
      if (!known.has(id))
        problems.push(`${entry.path}: names source "${id}", which the file's sources list does not declare`);
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

/** What the ledger finds wrong with a gateway profile (empty when every fact is sourced). */
export function gatewayLedgerProblems(g: GatewayProfile): string[] {
  return [...sourceProblems(g.sources), ...entryProblems(gatewayEntries(g), g.sources)];
}

/** What the ledger finds wrong with a model-server profile (empty when every fact is sourced and ranged). */
export function modelServerLedgerProblems(m: ModelServerProfile): string[] {
  return [...sourceProblems(m.sources), ...entryProblems(modelServerEntries(m), m.sources)];
}
