/**
 * The findings of a large input, kept out of memory until they are printed. The output lists them sorted (errors
 * first, then by document and line) after a summary that counts them, so none can be printed before the last batch
 * is checked; each is written as it will be printed, as soon as its batch is checked, to a temporary store
 * (byte-store.ts), with only what sorts it kept in memory. Repeats are left out and the rest counted as `dedupe` and
 * `countFindings` would: the key that tells a repeat (`repeatKey`) is stored too, and only its hash is kept in
 * memory (a key held in memory for each of 35,000 findings made V8 grow its young generation to 128 MB).
 */
import { repeatKey } from '../check/check.ts';
import { SEVERITY_ORDER, type Finding, type Severity } from '../check/rules/findings.ts';
import { Numbers, openByteStore, type ByteStore } from './byte-store.ts';
import { hashText } from './hash-text.ts';

/** Findings as printed, in a store, with their counts. */
export interface FindingStore {
  /** Take a finding (in the order the check makes them); a repeat of one taken before is left out. */
  add(finding: Finding): void;
  counts: Record<Severity, number>;
  /** The printed findings, sorted as `sortFindings` sorts the findings, in pieces. */
  sorted(): Generator<string>;
  close(): void;
}

/** A filter that passes the first finding of each `repeatKey`, with the keys in `keys` and their hashes in memory. */
function storedDeduper(keys: ByteStore, hash: (key: string) => number): (f: Finding) => boolean {
  const byHash = new Map<number, number | number[]>();
  return (f) => {
    const key = repeatKey(f);
    const h = hash(key);
    const known = byHash.get(h);
    if (known === undefined) {
      byHash.set(h, keys.append(key));
      return true;
    }
    // The same hash: a repeat if the same key was stored (another key with that hash is not).
    const entries = typeof known === 'number' ? [known] : known;
    if (entries.some((entry) => keys.text(entry) === key)) return false;
    byHash.set(h, [...entries, keys.append(key)]);
    return true;
  };
}

/**
 * A store whose findings are printed by `print`. `hash` hashes the keys that tell repeats (tests make every key
 * collide); `open` opens a store (a temporary file).
 */
export function storeFindings(
  print: (finding: Finding) => string,
  options: { hash?: (key: string) => number; open?: () => ByteStore } = {},
): FindingStore {
  const open = options.open ?? openByteStore;
  const printed = open();
  const keys = open();
  const keep = storedDeduper(keys, options.hash ?? hashText);
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  const ranks = new Numbers();
  const documents = new Numbers();
  const lines = new Numbers();
  return {
    add(finding) {
      if (!keep(finding)) return;
      counts[finding.severity]++;
      printed.append(print(finding));
      ranks.push(SEVERITY_ORDER[finding.severity]);
      documents.push(finding.document ?? 0);
      lines.push(finding.line ?? 0);
    },
    counts,
    sorted() {
      const [r, d, l] = [ranks.values, documents.values, lines.values];
      const order = Array.from({ length: printed.size }, (_, i) => i).sort(
        (a, b) => r[a] - r[b] || d[a] - d[b] || l[a] - l[b] || a - b,
      );
      return printed.texts(order);
    },
    close() {
      printed.close();
      keys.close();
    },
  };
}
