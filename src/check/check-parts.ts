/**
 * Check an input of any size (the CLI's: a repository's manifests) in parts, with memory that does not grow with
 * the parsed input. A first pass (part-index.ts) reads each part alone and keeps a compact index: what each object
 * needs to be related to others (a pool's selector, a workload's pod labels, the pool a policy or route names) and
 * what the whole input says about the gateway. Related parts form groups; groups are checked in batches of a bounded
 * size with `checkManifest`, each batch's parts asked for (`partAt`) and its parsed trees released before the next,
 * and the findings mapped back to the input's documents and lines and handed on one by one (`emit`), so that
 * neither the input nor its findings need be held. The few results that depend on the whole input are made whole
 * here:
 *   - the gateway and model server the input names (given to every batch);
 *   - a pool that selects no workload, and a policy or route that names no pool in the input, are checked with the
 *     workloads the whole check would relate them to (the first model-server workload, or the pool's namesake);
 *   - "no pool", "nothing to check" and the ignored-kind notes are said once, for the whole input.
 * Both passes read a document in the plain style most manifests are written in with the quick reader
 * (read-plain-yaml.ts: the same objects as the full parse, and the line of each node), and any other with `yaml`.
 */
import type { Profiles } from '../facts/profiles.ts';
import { checkManifest, checkRead, type CheckReport, type WholeInput } from './check.ts';
import type { RepoConfig } from './config.ts';
import type { Finding } from './rules/findings.ts';
import type { InputProblem } from './read/guard-input.ts';
import { GROUP_LIMITS } from './read/limits.ts';
import { selects } from './workload/locate.ts';
import { problemInInput, type PartIndex, type PartsIndexer } from './part-index.ts';
import { readPlainManifest } from './read/read-plain-manifest.ts';
import { pieceAt } from './read/split-documents.ts';

/** Bounds on one batch: parts are added until either is reached (a group is never split). */
export interface BatchLimits {
  bytes: number;
  parts: number;
}

/**
 * Small batches: what a batch holds while it is checked survives the young generation's collections, and the more
 * survives, the larger V8 grows that generation. With 64 parts a batch, peak RSS on the bench's input went from about
 * 140 MB at 2,000 documents to 300–370 MB at 10,000; with 8, to about 215 MB, for the same CPU time.
 */
const DEFAULT_LIMITS: BatchLimits = { bytes: 8 * 1024, parts: 8 };

/** Union-find over part indices. */
function unionFind(size: number): { find: (i: number) => number; union: (a: number, b: number) => void } {
  const parent = Array.from({ length: size }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  return {
    find,
    union: (a, b) => {
      const [x, y] = [find(a), find(b)];
      if (x !== y) parent[Math.max(x, y)] = Math.min(x, y);
    },
  };
}

/** Whether something indexed can be in a namespace: either leaves it unset (the one it is applied to), or they agree. */
function inNamespace(indexed: { namespace?: string }, namespace: string | undefined): boolean {
  return indexed.namespace === undefined || namespace === undefined || indexed.namespace === namespace;
}

/** A batch of parts checked together (in input order), with what maps its lines and documents back. */
type BatchResult =
  | { report: CheckReport; findings: Finding[]; workloadDocuments: number[] }
  | { problem: InputProblem };

function checkBatch(
  partAt: (part: number) => string,
  batch: Iterable<number>,
  indexes: readonly PartIndex[],
  settings: Record<string, string>,
  profiles: Profiles,
  whole: WholeInput,
  config?: RepoConfig,
): BatchResult {
  const members = [...batch].sort((a, b) => a - b);
  // A batch whose parts are all in the plain style is read by the quick reader; any other, by the full parse.
  const texts = members.map(partAt);
  const plain = readPlainManifest(texts);
  const result = plain
    ? checkRead(plain, settings, profiles, whole, plain.text, config)
    : checkManifest(texts.join(''), settings, profiles, whole, GROUP_LIMITS, config);
  if (!result.ok) {
    // Each part was read alone in the first pass, so this is not expected; say where, all the same.
    return { problem: problemInInput(result.problem, indexes[members[0]]) };
  }
  const lineStarts: number[] = [];
  const documentStarts: number[] = [];
  let line = 1;
  let document = 0;
  for (const i of members) {
    lineStarts.push(line);
    documentStarts.push(document);
    line += indexes[i].lines;
    document += indexes[i].documents;
  }
  const memberAt = (starts: number[], at: number) => pieceAt(starts.length, at, (k) => starts[k]);
  const mapDocument = (d: number) => {
    const k = memberAt(documentStarts, d);
    return indexes[members[k]].document + d - documentStarts[k];
  };
  const findings = result.report.findings.map((source): Finding => {
    // A large input is not fixed in one piece, so a fix keeps its text, not its edits (which would only hold memory).
    const f: Finding = { ...source };
    if (source.fix) f.fix = { text: source.fix.text, edits: [] };
    if (f.document === undefined) return f;
    f.document = mapDocument(f.document - 1) + 1;
    if (f.line !== undefined) {
      const m = memberAt(lineStarts, f.line);
      const line = indexes[members[m]].line + f.line - lineStarts[m];
      // A refused document's message names the line of its error, in the same part.
      if (!f.object) f.message = f.message.replace(/\bline (\d+)/g, (_, n) => `line ${line + Number(n) - f.line!}`);
      f.line = line;
    }
    if (!f.object) f.message = f.message.replace(/^Document \d+ /, `Document ${f.document} `);
    return f;
  });
  return { report: result.report, findings, workloadDocuments: result.report.workloadDocuments.map(mapDocument) };
}

const AGGREGATE_NOTES = new Set(['unknown-kind', 'serving-kind-unread']);

/** What a check in parts gives besides its findings: the report (as `checkManifest` gives it) without them. */
export type IndexedResult =
  | { ok: true; report: Omit<CheckReport, 'findings' | 'counts'> }
  | { ok: false; problem: InputProblem };

/**
 * Check the parts of an input, indexed in input order (`indexParts`), as `checkManifest` checks the whole text: findings
 * carry the input's documents and lines. `partAt` gives a part's text when its batch is checked, and `emit` takes each
 * finding as it is made. A finding may be emitted more than once (`dedupe` keeps the first), and they come in no
 * particular order (`sortFindings` orders them); the report counts none of them. `limits` bound a batch (tests make
 * them small).
 */
export function checkIndexedParts(
  indexer: PartsIndexer,
  partAt: (part: number) => string,
  settings: Record<string, string>,
  profiles: Profiles,
  emit: (finding: Finding) => void,
  limits: BatchLimits = DEFAULT_LIMITS,
  config?: RepoConfig,
): IndexedResult {
  const { indexes } = indexer;
  const whole = indexer.whole();
  const anyChecked = indexes.some((x) => x.checked > 0);
  if (!indexes.some((x) => x.objects > 0)) {
    // No Kubernetes object at all: the whole check's own message, from the part with the first stray document.
    const first = Math.max(
      0,
      indexes.findIndex((x) => x.strays),
    );
    const result = checkManifest(partAt(first), settings, profiles, whole, undefined, config);
    if (!result.ok) return { ok: false, problem: problemInInput(result.problem, indexes[first]) };
  }
  /** The part that holds a document of the input. */
  const partOf = (document: number) => pieceAt(indexes.length, document, (i) => indexes[i].document);
  const add = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
    const list = map.get(key);
    if (list) list.push(value);
    else map.set(key, [value]);
  };

  // Relate the parts: a pool with the workloads it selects, a policy or route with the pools it names.
  const groups = unionFind(indexes.length);
  const byLabel = new Map<string, number[]>();
  indexes.forEach((x, i) =>
    x.workloads.forEach((w) => {
      for (const [k, v] of Object.entries(w.labels)) add(byLabel, `${k}=${v}`, i);
    }),
  );
  const poolsByName = new Map<string, { part: number; namespace?: string }[]>();
  const unmatchedPools = new Set<number>();
  indexes.forEach((x, i) =>
    x.pools.forEach((pool) => {
      add(poolsByName, pool.name, { part: i, namespace: pool.namespace });
      // The workloads that carry the selector's rarest label are the only ones it can select.
      const candidates =
        Object.entries(pool.selector)
          .map(([k, v]) => byLabel.get(`${k}=${v}`) ?? [])
          .reduce<number[] | undefined>(
            (least, list) => (least === undefined || list.length < least.length ? list : least),
            undefined,
          ) ?? [];
      let matched = false;
      for (const c of new Set(candidates)) {
        if (indexes[c].workloads.some((w) => inNamespace(w, pool.namespace) && selects(pool.selector, w.labels))) {
          groups.union(i, c);
          matched = true;
        }
      }
      if (!matched) unmatchedPools.add(i);
    }),
  );
  // Parts that need the whole check's "first workload" or a pool's namesake: checked last, with those workloads.
  const needsWhole = new Set<number>(unmatchedPools);
  indexes.forEach((x, i) => {
    if (x.unnamedRef) needsWhole.add(i);
    for (const ref of x.refs) {
      const pools = (poolsByName.get(ref.name) ?? []).filter((p) => inNamespace(p, ref.namespace));
      if (pools.length === 0) needsWhole.add(i);
      for (const p of pools) groups.union(i, p.part);
    }
  });
  // A part without objects (a comment, a stray value) is checked with the part before it that has some (or the first
  // one), since a check needs an object; its notes are the same in any company.
  const withObjects = indexes.findIndex((x) => x.objects > 0);
  let previous = withObjects;
  indexes.forEach((x, i) => {
    if (x.objects > 0) previous = i;
    else if (previous !== -1) groups.union(i, previous);
  });
  const lateRoots = new Set([...needsWhole].map(groups.find));

  // Second pass: the groups in batches, in input order.
  const members = new Map<number, number[]>();
  indexes.forEach((_, i) => add(members, groups.find(i), i));
  const workloadDocuments: number[] = [];
  let workloads = 0;
  let firstReport: CheckReport | undefined;
  let firstWorkloadReport: { report: CheckReport; document: number } | undefined;
  const globalNotes = new Map<string, Finding>();
  /** Take a batch's findings (those `own` passes) and its workloads (`documents`: the batch's own workloads). */
  const keep = (
    batch: { report: CheckReport; findings: Finding[] },
    documents: number[],
    own: (f: Finding) => boolean = () => true,
  ) => {
    for (const f of batch.findings) {
      if (!own(f)) continue;
      if (f.document === undefined && (f.code === 'no-pool' || f.code === 'workload-skipped'))
        globalNotes.set(f.code, f);
      else if (!(AGGREGATE_NOTES.has(f.code) && f.object)) emit(f);
    }
    firstReport ??= batch.report;
    workloads += documents.length;
    workloadDocuments.push(...documents);
    if (documents.length > 0 && (!firstWorkloadReport || documents[0] < firstWorkloadReport.document))
      firstWorkloadReport = { report: batch.report, document: documents[0] };
  };
  let batch: number[] = [];
  let bytes = 0;
  const flush = (): InputProblem | undefined => {
    if (batch.length === 0) return undefined;
    const checked = checkBatch(partAt, batch, indexes, settings, profiles, whole, config);
    batch = [];
    bytes = 0;
    if ('problem' in checked) return checked.problem;
    keep(checked, checked.workloadDocuments);
    return undefined;
  };
  for (const [root, group] of members) {
    if (lateRoots.has(root)) continue;
    const size = group.reduce((n, i) => n + indexes[i].chars, 0);
    if (batch.length > 0 && (bytes + size > limits.bytes || batch.length + group.length > limits.parts)) {
      const problem = flush();
      if (problem) return { ok: false, problem };
    }
    batch.push(...group);
    bytes += size;
  }
  const problem = flush();
  if (problem) return { ok: false, problem };

  // The late batch: the groups that need the whole input, the workloads the whole check relates them to, and the
  // first three objects of each ignored kind (for the one note per kind).
  const late = new Set<number>();
  for (const root of lateRoots) for (const i of members.get(root)!) late.add(i);
  const lateOwn = new Set(late);
  const withGroup = (part: number) => {
    for (const i of members.get(groups.find(part))!) late.add(i);
  };
  if (lateOwn.size > 0) {
    const contexts = [...workloadDocuments].sort((a, b) => a - b);
    const isContext = new Set(contexts);
    if (contexts.length > 0) withGroup(partOf(contexts[0]));
    else {
      const firstWorkload = indexes.findIndex((x) => x.workloads.length > 0);
      if (firstWorkload !== -1) withGroup(firstWorkload);
    }
    for (const i of unmatchedPools) {
      for (const pool of indexes[i].pools) {
        const near = contexts
          .flatMap((d) => indexes[partOf(d)].workloads.filter((w) => w.document === d))
          .filter((w) => isContext.has(w.document) && inNamespace(w, pool.namespace));
        const target = near.find((w) => w.name === pool.name) ?? near[0];
        if (target) withGroup(partOf(target.document));
      }
    }
  }
  const ignoredSeen = new Map<string, number>();
  const ignoredCounts = new Map<string, number>();
  indexes.forEach((x, i) =>
    x.ignored.forEach((key) => {
      ignoredCounts.set(key, (ignoredCounts.get(key) ?? 0) + 1);
      const seen = ignoredSeen.get(key) ?? 0;
      if (seen < 3) late.add(i);
      ignoredSeen.set(key, seen + 1);
    }),
  );
  if (late.size > 0) {
    const checked = checkBatch(partAt, late, indexes, settings, profiles, whole, config);
    if ('problem' in checked) return { ok: false, problem: checked.problem };
    const findingPart = (f: Finding) => (f.document === undefined ? -1 : partOf(f.document - 1));
    // The ignored-kind notes name the first three objects of a kind and count the rest: the whole input's rest.
    const counted = checked.findings.map((f) => {
      if (!AGGREGATE_NOTES.has(f.code) || !f.object) return f;
      const kind = f.object.slice(0, f.object.indexOf('/'));
      const key = indexes[findingPart(f)]?.ignored.find((k) => k.endsWith(` ${kind}`));
      const more = key ? (ignoredCounts.get(key) ?? 0) - 3 : 0;
      if (more <= 0) return f;
      const message = / and \d+ more/.test(f.message)
        ? f.message.replace(/ and \d+ more/, ` and ${more} more`)
        : f.message.replace(/^(Ignored )?((?:[^,]+, ){2}[^ :]+)/, `$1$2 and ${more} more`);
      return { ...f, message };
    });
    keep(
      { ...checked, findings: counted },
      checked.workloadDocuments.filter((d) => lateOwn.has(partOf(d))),
      (f) => f.document === undefined || lateOwn.has(findingPart(f)),
    );
    for (const f of counted) if (AGGREGATE_NOTES.has(f.code) && f.object) emit(f);
  }

  // "No pool" and "nothing to check" hold for the whole input or not at all.
  const anyPool = indexes.some((x) => x.pools.length > 0);
  if (globalNotes.has('no-pool') && !anyPool && workloads > 0) emit(globalNotes.get('no-pool')!);
  if (globalNotes.has('workload-skipped') && !anyChecked) emit(globalNotes.get('workload-skipped')!);

  const base = firstWorkloadReport?.report ?? firstReport;
  if (!base) return { ok: false, problem: { message: 'The input has no YAML documents.' } };
  const { findings: _findings, counts: _counts, ...rest } = base;
  return {
    ok: true,
    report: { ...rest, workloads, workloadDocuments: workloadDocuments.sort((a, b) => a - b) },
  };
}
