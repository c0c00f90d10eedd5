/**
 * The findings of a large input, kept out of memory until they are printed. The output lists them sorted (errors
 * first, then by document and line) after a summary that counts them, so none can be printed before the last batch
 * is checked; each is written as it will be printed, as soon as its batch is checked, to a temporary store
 * (byte-store.ts), with only what sorts it kept in memory (about 30 bytes a finding, where the finding itself held
 * about 800). Repeats are left out and the rest counted as `dedupe` and `countFindings` would.
 */
import { deduper } from '../drain/check/check.ts';
import { SEVERITY_ORDER, type Finding, type Severity } from '../drain/check/findings.ts';
import { openByteStore, type ByteStore } from './byte-store.ts';

/** Findings as printed, in a store, with their counts. */
export interface FindingStore {
  /** Take a finding (in the order the check makes them); a repeat of one taken before is left out. */
  add(finding: Finding): void;
  counts: Record<Severity, number>;
  /** The printed findings, sorted as `sortFindings` sorts the findings, in pieces. */
  sorted(): Generator<string>;
  close(): void;
}

/** A store whose findings are printed by `print`. */
export function storeFindings(print: (finding: Finding) => string, store: ByteStore = openByteStore()): FindingStore {
  const keep = deduper();
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  const ranks: number[] = [];
  const documents: number[] = [];
  const lines: number[] = [];
  return {
    add(finding) {
      if (!keep(finding)) return;
      counts[finding.severity]++;
      store.append(print(finding));
      ranks.push(SEVERITY_ORDER[finding.severity]);
      documents.push(finding.document ?? 0);
      lines.push(finding.line ?? 0);
    },
    counts,
    sorted() {
      const order = Array.from({ length: store.size }, (_, i) => i).sort(
        (a, b) => ranks[a] - ranks[b] || documents[a] - documents[b] || lines[a] - lines[b] || a - b,
      );
      return store.texts(order);
    },
    close: () => store.close(),
  };
}
