/**
 * The first pass of a check in parts (check-parts.ts): each part of the input is read alone, as it arrives, and
 * what relates its objects to others is kept in a compact index, with what the whole input says about the gateway
 * and the model server. The part's text and parsed tree are not kept.
 */
import type { Profiles } from '../facts/profiles.ts';
import type { WholeInput } from './check.ts';
import type { InputProblem } from './read/guard-input.ts';
import { formatKiB, MAX_INPUT_BYTES } from './read/limits.ts';
import { locate } from './workload/locate.ts';
import { objectFrom, readManifest, type ManifestObject } from './read/read-manifest.ts';
import { readPlainYaml } from './read/read-plain-yaml.ts';
import { detectGateway, headerSettings, type FoundSetting } from './workload/settings.ts';
import { lineBreaks, type Part } from './read/split-documents.ts';
import { policyPool, routePools } from './rules/shared/gateway.ts';

/** What the first pass keeps of one part. */
export interface PartIndex {
  /** The part's documents start at this document of the input (from 0). */
  document: number;
  documents: number;
  /** The line of the input the part starts on, its lines, and its length in UTF-16 units. */
  line: number;
  lines: number;
  chars: number;
  workloads: { namespace?: string; labels: Record<string, string>; name: string; document: number }[];
  pools: { namespace?: string; name: string; selector: Record<string, string> }[];
  /** Pools named by the part's policies and routes: name and namespace (undefined: any). */
  refs: { name: string; namespace?: string }[];
  /** Whether a policy or route here points at no InferencePool by name (the check then uses the first workload's plan). */
  unnamedRef: boolean;
  /** `apiVersion kind` of each object the checker ignores. */
  ignored: string[];
  /** Objects of any kind, and those the checker reads (workloads, pools, policies, routes). */
  objects: number;
  checked: number;
  /** Whether a document holds something other than a Kubernetes object. */
  strays: boolean;
}

/** Move a problem found in one part (which starts at `at`'s line and document) to the input's lines and documents. */
export function problemInInput(problem: InputProblem, at: { line: number; document: number }): InputProblem {
  const line = problem.line === undefined ? undefined : at.line + problem.line - 1;
  const message = problem.message
    .replace(/^Document (\d+)/, (_, n: string) => `Document ${at.document + Number(n)}`)
    .replace(/\(document (\d+) is/, (_, n: string) => `(document ${at.document + Number(n)} is`)
    .replace(/at line \d+, column/, `at line ${line}, column`);
  return line === undefined ? { ...problem, message } : { ...problem, message, line };
}

/** What the index needs of a part's documents. */
type PartRead =
  | { ok: true; documents: number; objects: ManifestObject[]; strays: number }
  | { ok: false; problem: InputProblem };

/**
 * Read one part for the index: a document in the plain style most manifests are written in is read by the quick
 * reader (read-plain-yaml.ts), which gives the same object as the full parse; anything else is parsed in full.
 */
function readPart(text: string): PartRead {
  const value = readPlainYaml(text);
  const object = value === undefined ? undefined : objectFrom(value, 0, []);
  if (object !== undefined && typeof object !== 'string' && object.kind !== 'List')
    return { ok: true, documents: 1, objects: [object], strays: 0 };
  const read = readManifest(text);
  if (!read.ok) return read;
  const { documents, objects, strays } = read.manifest;
  return { ok: true, documents: documents.length, objects, strays: strays.length };
}

/** What one part says about the gateway: a gateway policy's; a Gateway's class or a kind only one gateway defines. */
interface GatewayHints {
  policy?: FoundSetting;
  gateway?: FoundSetting;
}

/** The index of one part, or the problem that stops the check. */
function indexPart(
  part: Part,
  document: number,
  profiles: Profiles,
): { index: PartIndex; gateway: GatewayHints; header?: WholeInput } | { problem: InputProblem } {
  // A UTF-16 unit is at most 3 bytes of UTF-8: only a part that could be over the limit is encoded to count them.
  const bytes = part.text.length * 3 <= MAX_INPUT_BYTES ? 0 : new TextEncoder().encode(part.text).length;
  if (bytes > MAX_INPUT_BYTES) {
    return {
      problem: {
        message: `The YAML document at line ${part.line} is ${formatKiB(bytes)}; the checker reads at most ${formatKiB(MAX_INPUT_BYTES)} per document.`,
        line: part.line,
      },
    };
  }
  const read = readPart(part.text);
  if (!read.ok) return { problem: problemInInput(read.problem, { line: part.line, document }) };
  const located = locate(read, profiles);
  const index: PartIndex = {
    document,
    documents: read.documents,
    line: part.line,
    // As `split('\n')` counts them, less an empty one after a last line break.
    lines: lineBreaks(part.text) + (part.text.endsWith('\n') ? 0 : 1),
    chars: part.text.length,
    workloads: located.workloads.map((w) => ({
      namespace: w.object.namespace,
      labels: w.serving.labels,
      name: w.object.name,
      document: document + w.object.document,
    })),
    pools: located.pools.map((p) => ({ namespace: p.object.namespace, name: p.object.name, selector: p.selector })),
    refs: [],
    unnamedRef: false,
    ignored: located.ignored.map((o) => `${o.apiVersion} ${o.kind}`),
    objects: read.objects.length,
    checked: located.workloads.length + located.pools.length + located.policies.length + located.routes.length,
    strays: read.strays > 0,
  };
  for (const { name, namespace } of [...located.policies.map(policyPool), ...located.routes.flatMap(routePools)]) {
    if (name === undefined) index.unnamedRef = true;
    else index.refs.push({ name, namespace });
  }
  const policy = detectGateway('', { ...located, gateways: [], ignored: [] }, profiles);
  const gateway = detectGateway('', { ...located, policies: [] }, profiles);
  const header = headerSettings(part.text, profiles);
  // The header's line is the part's; the whole input's is `part.line - 1` further on.
  const moved = (f: FoundSetting | undefined) =>
    f && { ...f, from: f.from.replace(/\(line (\d+)\)/, (_, n: string) => `(line ${part.line + Number(n) - 1})`) };
  return {
    index,
    gateway: { policy, gateway },
    header:
      'gateway' in header
        ? {
            gateway: moved(header.gateway),
            modelServer: moved(header.modelServer),
            inputs: header.inputs?.map((f) => moved(f)!),
          }
        : undefined,
  };
}

/** The first pass over an input's parts, given one at a time in input order. */
export interface PartsIndexer {
  /** Index the next part; a problem stops the check (and the indexer takes no more parts). */
  add(part: Part): InputProblem | undefined;
  /** The index of each part so far, in input order. */
  readonly indexes: readonly PartIndex[];
  /** What the whole input (the parts so far) states about the gateway and the model server. */
  whole(): WholeInput;
}

/** Start the first pass. */
export function indexParts(profiles: Profiles): PartsIndexer {
  const indexes: PartIndex[] = [];
  const hints: GatewayHints = {};
  let header: WholeInput | undefined;
  let document = 0;
  return {
    indexes,
    add(part) {
      const indexed = indexPart(part, document, profiles);
      if ('problem' in indexed) return indexed.problem;
      // A copy: the strings read from the part may be slices of its text (or of the chunk it was read from), which
      // would keep that text alive for as long as the index.
      indexes.push(JSON.parse(JSON.stringify(indexed.index)) as PartIndex);
      document += indexed.index.documents;
      hints.policy ??= indexed.gateway.policy;
      hints.gateway ??= indexed.gateway.gateway;
      header ??= indexed.header;
      return undefined;
    },
    whole: () => ({
      gateway: hints.policy ?? hints.gateway ?? header?.gateway,
      modelServer: header?.modelServer,
      inputs: header?.inputs,
    }),
  };
}
