/**
 * What the rules see: the parsed manifest, the located objects, and for each model-server workload its
 * container, its plan and the target values the fixes write. Also the helpers that turn a rule's
 * verdict into a `Finding` with its line and edits.
 */
import { Document } from 'yaml';
import type { Plan } from '../../model/plan.ts';
import type { ModelServerProfile, Profiles } from '../../facts/profiles.ts';
import type { DrainInputs } from '../../model/resolve.ts';
import type { Edit } from '../fix/edit.ts';
import type { Finding, FindingCode, Fix, Severity } from './findings.ts';
import type { Located, Workload } from '../workload/locate.ts';
import { escapeBidi, formatPath, type Segment } from '../read/path.ts';
import type { Container } from '../workload/pod.ts';
import { lineAt, type Manifest, type ManifestObject } from '../read/read-manifest.ts';
import type { CheckedFor, FoundSetting } from '../workload/settings.ts';
import type { Invocation } from '../workload/server-invocation.ts';
import type { Targets } from '../workload/targets.ts';
import type { OtherServer } from '../../facts/schemas/other-server.ts';

/** The whole check: manifest, objects, profiles and the findings so far. */
export interface CheckContext {
  manifest: Manifest;
  /** The settings the reader gave (by flag). */
  given: ReadonlySet<string>;
  /** The inputs the manifest states all at once (a generator header listing its inputs), by flag. */
  stated: ReadonlySet<string>;
  located: Located;
  profiles: Profiles;
  findings: Finding[];
}

/**
 * Where a setting's value came from for a check (and, for a workload, its own given settings and what its manifest
 * says): `given` by the reader (a flag or the config file), `read` from the manifest (a value, the generator's header),
 * or undefined when the check used a default.
 */
export function settingSource(
  check: CheckContext,
  given: ReadonlySet<string>,
  found: readonly FoundSetting[],
  flag: string,
): 'given' | 'read' | undefined {
  if (given.has(flag)) return 'given';
  return check.stated.has(flag) || found.some((f) => f.flag === flag) ? 'read' : undefined;
}

/** Whether a workload's check knows a setting (given or read), rather than using its default. */
export function knows(ctx: WorkloadContext, flag: string): boolean {
  return settingSource(ctx.check, ctx.given ?? ctx.check.given, ctx.found, flag) !== undefined;
}

/** One model-server workload and what the drain model says about it. */
export interface WorkloadContext {
  /** The settings given for this workload (a config entry's over the whole check's), when they differ. */
  given?: ReadonlySet<string>;
  check: CheckContext;
  workload: Workload;
  object: ManifestObject;
  containers: Container[];
  /** The container that runs the model server. */
  container: Container;
  server: ModelServerProfile;
  /** False when the server was neither recognised nor given, so server-specific rules are skipped. */
  serverKnown: boolean;
  /** The server's own invocation in the container (when the server is known), or why it was not found. */
  invocation?: Invocation;
  /** What the manifest states about the drain inputs. */
  found: FoundSetting[];
  inputs: DrainInputs;
  plan: Plan;
  targets: Targets;
  /** Settings read from the manifest or given that the drain model cannot use (out of its range). */
  unused: FoundSetting[];
  /** A server recognised by its image that Hitless has no drain profile for (content/other-servers/). */
  otherServer?: OtherServer;
}

/**
 * The plan for the pool a policy or route points at: its workload's when the manifest has it; undefined when it
 * points at something else (another pool, a Service), whose workload the check cannot see.
 */
export type PlanFor = (poolName: string | undefined, namespace: string | undefined) => Plan | undefined;

/** What a rule over the whole input sees: the check, its model-server workloads and the gateway it checks for. */
export interface InputContext extends CheckContext {
  /** The model-server workloads, each with its plan. */
  contexts: WorkloadContext[];
  /** Workloads not checked, each with why when it is other than running no server the checker knows. */
  skipped: (Workload & { why?: string })[];
  /** The gateway the check used, and whether the reader chose it, the manifest named it, or it is the default. */
  checkedFor: CheckedFor;
  planFor: PlanFor;
  /** The plan and inputs for a pool with no workload in the manifest. */
  fallback: { plan: () => Plan; inputs: DrainInputs };
}

/** `Kind/name` of an object. */
export function objectName(object: ManifestObject): string {
  return `${object.kind}/${object.name}`;
}

/** Add a finding about a path inside an object (the path is relative to the object). */
export function report(
  check: CheckContext,
  object: ManifestObject | undefined,
  code: FindingCode,
  severity: Severity,
  path: Segment[],
  message: string,
  fix?: Fix,
  assumed?: string[],
  rests?: Finding['rests'],
): void {
  const full = object ? [...object.base, ...path] : [];
  check.findings.push({
    code,
    severity,
    object: object ? escapeBidi(objectName(object)) : '',
    document: object ? object.document + 1 : undefined,
    path: object ? formatPath(full) : '',
    line: object ? lineAt(check.manifest, object.document, full) : undefined,
    message: escapeBidi(message),
    fix: fix ? { ...fix, text: escapeBidi(fix.text) } : undefined,
    remedy: fix && fix.edits.length > 0 ? 'applied' : 'manual',
    ...(assumed ? { assumed } : {}),
    ...(rests && rests.length > 0 ? { rests } : {}),
  });
}

/** An edit that sets a value at a path inside an object. */
export function setEdit(object: ManifestObject, path: Segment[], value: unknown, comment?: string): Edit {
  return { op: 'set', document: object.document, path: [...object.base, ...path], value, comment };
}

/** A fix that sets one value with its reason as a comment: `key: value # why`. */
export function setFix(object: ManifestObject, path: Segment[], value: unknown, why: string): Fix {
  return { text: `${path.at(-1)}: ${value} # ${why}`, edits: [setEdit(object, path, value, ` ${why}`)] };
}

/** A YAML snippet `key: value` for a fix, with optional comments at paths inside the value. */
export function snippet(key: string, value: unknown, comments: [Segment[], string][] = []): string {
  const doc = new Document({ [key]: value });
  for (const [path, comment] of comments) {
    const node = doc.getIn([key, ...path], true) as { comment?: string } | undefined;
    if (node) node.comment = ` ${comment}`;
  }
  return doc.toString({ lineWidth: 0 }).trimEnd();
}

// The rules read the plan's formulas through the emitters' own formulaOf: each field they ask for is one the plan
// always derives, or one they ask for only when the plan set it (a gateway setting), so a missing step is a bug.
export { formulaOf } from '../../model/plan.ts';
