/**
 * The invariants every fix of the checker must keep, on any manifest (issue 30 item 7), stated without the
 * checker's own code: the parsed YAML before and after the fix is walked here, by hand-written rules.
 *   - every lifecycle hook and every probe has exactly one handler;
 *   - a drain flag appears in a container only where the caller allows it;
 *   - no readiness probe appears in a container of a pod template the caller names as a multi-node worker;
 *   - fixing the fixed manifest changes nothing.
 */
import { parseAllDocuments } from 'yaml';
import { checkManifest, fixManifest } from '../../src/check/index.ts';
import { profiles } from './check.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The handlers a hook may have (sleep only in a lifecycle hook) and a probe may have. */
export const HOOK_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'] as const;
export const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'] as const;
const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'];

/** The drain flags the model-server data files name (the facts, not the checker's reading of them). */
const DRAIN_FLAGS: string[] = profiles.modelServers.flatMap((p) => (p.drain.flag ? [p.drain.flag] : []));

/**
 * Every YAML document of a text as plain data (`null` for an empty document), read as YAML 1.1 as kubectl reads it
 * (sigs.k8s.io/yaml over go-yaml v2): `defaultMode: 0755` is 493, as kustomize's output writes it.
 */
export function parseDocs(text: string): unknown[] {
  return parseAllDocuments(text.replaceAll('\r\n', '\n').replaceAll('\r', '\n'), { version: '1.1' }).map((d) =>
    d.toJS({ maxAliasCount: -1 }),
  );
}

/** Walk every mapping of a value with its path (`doc1.spec.template.spec.containers[0]`). */
function walk(value: unknown, visit: (obj: Obj, path: string) => void, path = ''): void {
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, visit, `${path}[${i}]`));
  else if (isObj(value)) {
    visit(value, path);
    for (const [k, v] of Object.entries(value)) walk(v, visit, path ? `${path}.${k}` : k);
  }
}

/** Handler keys a hook or probe mapping carries. */
export function handlersOf(obj: unknown, allowed: readonly string[]): string[] {
  if (!isObj(obj)) return [];
  return Object.keys(obj).filter((k) => (allowed as readonly string[]).includes(k));
}

/** Every hook and probe, with its path and handlers; the ones with other than exactly one handler. */
export function handlerProblems(docs: unknown[]): string[] {
  const problems: string[] = [];
  docs.forEach((doc, d) =>
    walk(
      doc,
      (obj, path) => {
        if (isObj(obj.lifecycle))
          for (const hook of ['preStop', 'postStart']) {
            const h = obj.lifecycle[hook];
            if (h === undefined || h === null) continue;
            const found = handlersOf(h, HOOK_HANDLERS);
            if (found.length !== 1) problems.push(`${path}.lifecycle.${hook}: handlers [${found.join(', ')}]`);
          }
        for (const probe of PROBES) {
          const p = obj[probe];
          if (p === undefined || p === null) continue;
          const found = handlersOf(p, PROBE_HANDLERS);
          if (found.length !== 1) problems.push(`${path}.${probe}: handlers [${found.join(', ')}]`);
        }
      },
      `doc${d + 1}`,
    ),
  );
  return problems;
}

/** A container-like mapping (it has a command, args or env): its name and the text of its command line. */
function commandText(obj: Obj): string {
  return JSON.stringify([obj.command ?? null, obj.args ?? null, obj.env ?? null, obj.extraArgs ?? null]);
}

/** Per container-like mapping (by path): how often each drain flag occurs in its command, args and env. */
function drainFlagCounts(docs: unknown[]): Map<string, { name: string; counts: Record<string, number> }> {
  const out = new Map<string, { name: string; counts: Record<string, number> }>();
  docs.forEach((doc, d) =>
    walk(
      doc,
      (obj, path) => {
        if (!('command' in obj || 'args' in obj || 'env' in obj || 'extraArgs' in obj)) return;
        const text = commandText(obj);
        const counts: Record<string, number> = {};
        for (const flag of DRAIN_FLAGS) counts[flag] = text.split(flag).length - 1;
        out.set(path, { name: typeof obj.name === 'string' ? obj.name : path, counts });
      },
      `doc${d + 1}`,
    ),
  );
  return out;
}

/** Drain flags the fix added: `container-name flag` for each, keyed by the container's name (or path). */
export function addedDrainFlags(before: unknown[], after: unknown[]): string[] {
  const was = drainFlagCounts(before);
  const added: string[] = [];
  for (const [path, { name, counts }] of drainFlagCounts(after)) {
    const old = was.get(path)?.counts ?? {};
    for (const [flag, n] of Object.entries(counts)) if (n > (old[flag] ?? 0)) added.push(`${name} ${flag}`);
  }
  return added;
}

/** A value at a dotted path (`spec.leaderWorkerTemplate.workerTemplate`) of a document. */
export function at(doc: unknown, path: string): unknown {
  let v = doc;
  for (const key of path.split('.')) v = isObj(v) ? v[key] : undefined;
  return v;
}

/** Paths of containers under a value that carry a readiness probe. */
export function readinessProbes(value: unknown): string[] {
  const found: string[] = [];
  walk(value, (obj, path) => {
    if (obj.readinessProbe !== undefined) found.push(path);
  });
  return found;
}

/** The result of checking and fixing a text the way the CLI does (`hitless check --fix`, no settings given). */
export interface Fixed {
  ok: boolean;
  problem?: string;
  findings: { code: string; severity: string; object: string; document?: number; message: string }[];
  text: string;
}

/** Check and fix a text; a problem the checker reports about the input is a result, not a throw. */
export function checkAndFix(text: string, settings: Record<string, string> = {}): Fixed {
  const result = checkManifest(text, settings, profiles);
  if (!result.ok) return { ok: false, problem: result.problem.message, findings: [], text };
  const fixed = fixManifest(result.manifest, result.report.findings);
  return { ok: true, findings: result.report.findings, text: fixed.text };
}
