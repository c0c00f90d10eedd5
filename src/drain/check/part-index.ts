/**
 * The first pass of a check in parts (check-parts.ts): each part read alone, and what is kept of it, a compact index
 * of what relates its objects to others' and what it says about the whole input. The read manifest is returned too,
 * so that a part can be checked from it without being read again.
 */
import type { Profiles } from '../profiles.ts';
import type { WholeInput } from './check.ts';
import type { InputProblem } from './guard-input.ts';
import { formatKiB, MAX_INPUT_BYTES } from './limits.ts';
import { locate } from './locate.ts';
import { isRecord, valueAt } from './path.ts';
import { readManifest, type Manifest } from './read-manifest.ts';
import { detectGateway, headerSettings, type FoundSetting } from './settings.ts';
import type { Part } from './split-documents.ts';

/** What the first pass keeps of one part. */
export interface PartIndex {
  /** The part's documents start at this document of the input (from 0). */
  document: number;
  documents: number;
  lines: number;
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

/** A part read and indexed: the index, what it says of the gateway and its header, and the manifest read. */
export interface IndexedPart {
  index: PartIndex;
  gateway: { policy?: FoundSetting; gateway?: FoundSetting };
  header?: WholeInput;
  manifest: Manifest;
}

/** Move a problem found in one part to the input's lines and documents. */
export function problemInInput(problem: InputProblem, part: Part, index: { document: number }): InputProblem {
  const line = problem.line === undefined ? undefined : part.line + problem.line - 1;
  const message = problem.message
    .replace(/^Document (\d+)/, (_, n: string) => `Document ${index.document + Number(n)}`)
    .replace(/\(document (\d+) is/, (_, n: string) => `(document ${index.document + Number(n)} is`)
    .replace(/at line \d+, column/, `at line ${line}, column`);
  return line === undefined ? { ...problem, message } : { ...problem, message, line };
}

/** Lines of a text as the joined input counts them (a last line without a break counts). */
function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n - (text.endsWith('\n') ? 1 : 0);
}

/** The index of one part (its documents start at `document` of the input), or the problem that stops the check. */
export function indexPart(part: Part, document: number, profiles: Profiles): IndexedPart | { problem: InputProblem } {
  // A UTF-8 byte is at most three per UTF-16 unit: a short part needs no encoding to know it is within the limit.
  const bytes = part.text.length * 3 <= MAX_INPUT_BYTES ? 0 : new TextEncoder().encode(part.text).length;
  if (bytes > MAX_INPUT_BYTES) {
    return {
      problem: {
        message: `The YAML document at line ${part.line} is ${formatKiB(bytes)}; the checker reads at most ${formatKiB(MAX_INPUT_BYTES)} per document.`,
        line: part.line,
      },
    };
  }
  const read = readManifest(part.text);
  const lines = lineCount(part.text);
  if (!read.ok) return { problem: problemInInput(read.problem, part, { document }) };
  const located = locate(read.manifest, profiles);
  const index: PartIndex = {
    document,
    documents: read.manifest.documents.length,
    lines,
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
    objects: read.manifest.objects.length,
    checked: located.workloads.length + located.pools.length + located.policies.length + located.routes.length,
    strays: read.manifest.strays.length > 0,
  };
  for (const policy of located.policies) {
    const ref = valueAt(policy.value, ['spec', 'targetRef']);
    if (isRecord(ref) && ref.kind === 'InferencePool' && typeof ref.name === 'string')
      index.refs.push({ name: ref.name, namespace: policy.namespace });
    else index.unnamedRef = true;
  }
  for (const route of located.routes) {
    const rules = valueAt(route.value, ['spec', 'rules']);
    for (const rule of Array.isArray(rules) ? rules : []) {
      const backend =
        isRecord(rule) && Array.isArray(rule.backendRefs)
          ? rule.backendRefs.find((b) => isRecord(b) && b.kind === 'InferencePool')
          : undefined;
      if (!isRecord(backend)) continue;
      if (typeof backend.name === 'string')
        index.refs.push({
          name: backend.name,
          namespace: typeof backend.namespace === 'string' ? backend.namespace : route.namespace,
        });
      else index.unnamedRef = true;
    }
  }
  const policy = detectGateway('', { ...located, gateways: [] }, profiles);
  const gateway = detectGateway('', { ...located, policies: [] }, profiles);
  const header = headerSettings(part.text, profiles);
  // The header's line is the part's; the whole input's is `part.line - 1` further on.
  const moved = (f: FoundSetting | undefined) =>
    f && { ...f, from: f.from.replace(/\(line (\d+)\)/, (_, n: string) => `(line ${part.line + Number(n) - 1})`) };
  return {
    index,
    gateway: { policy, gateway },
    header:
      'gateway' in header ? { gateway: moved(header.gateway), modelServer: moved(header.modelServer) } : undefined,
    manifest: read.manifest,
  };
}
