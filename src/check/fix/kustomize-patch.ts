/**
 * `hitless check --format patch`: the checker's fixes as a kustomization over the reader's own files, for teams that
 * keep their manifests as they are and layer changes with kustomize.
 *
 * Each object the fixes change gets a JSON 6902 patch (RFC 6902), targeted by its group, version, kind, name and
 * namespace, computed from the object before and after the fixes. JSON 6902 and not strategic merge, because:
 * - it works the same on every kind (a LeaderWorkerSet or a KServe object has no strategic-merge keys: kustomize
 *   would replace its container list whole);
 * - a changed handler is written as what it is, a removal of the old handler and an addition of the new one, so the
 *   result never holds two handlers in one hook or probe (a merge would keep both);
 * - a changed list of strings (args, a `sh -c` script) is one `replace` at its index;
 * - every `replace` and `remove` is preceded by a `test` of the value it expects, so a patch applied to a manifest
 *   that has changed since fails loudly instead of writing over someone else's edit.
 * Objects the fixes add (a gateway policy, a PodDisruptionBudget) go in a resources file of their own.
 */
import { isCollection, isPair, stringify, visit } from 'yaml';
import type { Manifest, ManifestObject } from '../read/read-manifest.ts';
import { isRecord } from '../read/path.ts';

/** One operation of a JSON 6902 patch. */
export type PatchOp = { op: 'test' | 'add' | 'replace'; path: string; value: unknown } | { op: 'remove'; path: string };

/** A file of the patch form. */
export interface PatchFile {
  name: string;
  purpose: string;
  text: string;
}

/** JSON Pointer escaping of one path segment (RFC 6901). */
const pointer = (segment: string | number) => String(segment).replaceAll('~', '~0').replaceAll('/', '~1');

function equal(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The operations that turn `before` into `after`, each change guarded by a test of what it replaces. */
export function diffOps(before: unknown, after: unknown, path = ''): PatchOp[] {
  if (equal(before, after)) return [];
  if (isRecord(before) && isRecord(after)) {
    const ops: PatchOp[] = [];
    for (const key of Object.keys(before))
      if (!(key in after))
        ops.push(
          { op: 'test', path: `${path}/${pointer(key)}`, value: before[key] },
          { op: 'remove', path: `${path}/${pointer(key)}` },
        );
    for (const key of Object.keys(after)) {
      const at = `${path}/${pointer(key)}`;
      if (!(key in before)) ops.push({ op: 'add', path: at, value: after[key] });
      else ops.push(...diffOps(before[key], after[key], at));
    }
    return ops;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    // Items added at the end (a flag appended to args): added one by one; the items before are tested to be the same.
    if (after.length > before.length && before.every((item, i) => equal(item, after[i])))
      return [
        ...(before.length > 0
          ? [{ op: 'test' as const, path: `${path}/${before.length - 1}`, value: before.at(-1) }]
          : []),
        ...after.slice(before.length).map((value) => ({ op: 'add' as const, path: `${path}/-`, value })),
      ];
    if (after.length === before.length) return before.flatMap((item, i) => diffOps(item, after[i], `${path}/${i}`));
  }
  return [
    { op: 'test', path, value: before },
    { op: 'replace', path, value: after },
  ];
}

const key = (o: ManifestObject) => `${o.apiVersion}\n${o.kind}\n${o.namespace ?? ''}\n${o.name}`;

/** `group` and `version` of an apiVersion (`apps/v1`; `v1` is the core group). */
function groupVersion(apiVersion: string): { group?: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash === -1
    ? { version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/**
 * Lines where a mapping or a list is a key (`{{HF_TOKEN}}: x`, an unrendered template): valid YAML, which kustomize
 * (and kubectl) cannot read, so a kustomization over the file fails however right its patches are.
 */
function complexKeyLines(manifest: Manifest): number[] {
  const lines: number[] = [];
  for (const doc of manifest.documents)
    visit(doc, {
      Pair(_, pair) {
        if (isPair(pair) && isCollection(pair.key) && pair.key.range)
          lines.push(manifest.lineCounter.linePos(pair.key.range[0]).line);
      },
    });
  return lines;
}

/**
 * What in `file` a kustomization over it meets first that it cannot build as the reader means it: a mapping as a key
 * (kustomize cannot read the file), or a document the checker refused unread (not valid YAML, a repeated key), which
 * was neither checked nor fixed though kustomize builds the whole file. One sentence, or undefined.
 */
export function unbuildable(manifest: Manifest, file: string): string | undefined {
  const problems = [
    ...complexKeyLines(manifest).map((line) => ({
      line,
      text: `kustomize cannot read ${file} as written: line ${line} has a mapping as a key (an unrendered template such as {{NAME}}?). Render it first and list the rendered file under the kustomization's resources.`,
    })),
    ...(manifest.refused ?? []).map((r) => ({
      line: r.line,
      text: `document ${r.document + 1} of ${file} (line ${r.line}) was refused unread, so it was neither checked nor fixed, and kustomize builds the whole file: ${r.message.replace(/\s+/g, ' ')} Correct it first, then check the file again.`,
    })),
  ];
  return problems.sort((a, b) => a.line - b.line)[0]?.text;
}

/**
 * The patch form of the fixes: the kustomization, one patch file per changed object, and the added objects.
 * `resources` are the files the kustomization builds on (the reader's, as named on the command line). Undefined when
 * the fixes change nothing.
 */
export function kustomizePatch(
  original: Manifest,
  fixed: Manifest,
  resources: readonly string[],
): PatchFile[] | undefined {
  const before = new Map(original.objects.map((o) => [key(o), o]));
  const files: PatchFile[] = [];
  const patches: { path: string; target: Record<string, string> }[] = [];
  const added: unknown[] = [];
  const names = new Set<string>();
  for (const object of fixed.objects) {
    const old = before.get(key(object));
    if (!old) {
      added.push(object.value);
      continue;
    }
    const ops = diffOps(old.value, object.value);
    if (ops.length === 0) continue;
    const base = `patch-${object.kind.toLowerCase()}-${object.name}`.replace(/[^a-z0-9.-]+/g, '-');
    let name = `${base}.yaml`;
    for (let n = 2; names.has(name); n++) name = `${base}-${n}.yaml`;
    names.add(name);
    files.push({
      name,
      purpose: `The fixes to ${object.kind}/${object.name}, as a JSON 6902 patch; each change is tested against the value it replaces.`,
      text: stringify(ops, { lineWidth: 0 }),
    });
    const { group, version } = groupVersion(object.apiVersion);
    patches.push({
      path: name,
      target: {
        ...(group ? { group } : {}),
        version,
        kind: object.kind,
        name: object.name,
        ...(object.namespace ? { namespace: object.namespace } : {}),
      },
    });
  }
  if (patches.length === 0 && added.length === 0) return undefined;
  const problem = unbuildable(original, resources[0]);
  const addedFile = 'hitless-added.yaml';
  if (added.length > 0)
    files.push({
      name: addedFile,
      purpose: 'The objects the fixes add (a gateway policy, a PodDisruptionBudget).',
      text: added.map((v) => stringify(v, { lineWidth: 0 })).join('---\n'),
    });
  const kustomization = {
    apiVersion: 'kustomize.config.k8s.io/v1beta1',
    kind: 'Kustomization',
    resources: [...resources, ...(added.length > 0 ? [addedFile] : [])],
    ...(patches.length > 0 ? { patches } : {}),
  };
  return [
    {
      name: 'kustomization.yaml',
      purpose: 'Builds your manifests with the fixes: kubectl kustomize . (or kustomize build .).',
      text:
        `# Made by hitless check --format patch from ${resources.join(', ')}.\n`
        + (problem ? `# ${problem}\n` : '')
        + stringify(kustomization, { lineWidth: 0 }),
    },
    ...files,
  ];
}
