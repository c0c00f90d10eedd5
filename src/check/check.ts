/**
 * Check a manifest against the drain model: read it, find the model-server workloads, plan each one
 * with the reader's settings and what the manifest says, and run every rule. Pure: no DOM, no files.
 */
import { plan as planFor, type Plan } from '../model/plan.ts';
import type { ModelServerProfile, Profiles } from '../facts/profiles.ts';
import type { OtherServer } from '../facts/schemas/other-server.ts';
import { modelServerById, type DrainInputs } from '../model/resolve.ts';
import {
  objectName,
  report,
  settingSource,
  type CheckContext,
  type InputContext,
  type WorkloadContext,
} from './rules/context.ts';
import { countFindings, manualFix, sortFindings, type Finding, type Fix, type Severity } from './rules/findings.ts';
import { RULES } from './rules/index.ts';
import { fixInRange } from './rules/shared/fix-in-range.ts';
import { severitiesOf, type Rule, type Verdict } from './rules/rule.ts';
import type { CheckCode } from './rules/codes.gen.ts';
import type { InputProblem } from './read/guard-input.ts';
import type { ReadLimits } from './read/limits.ts';
import { isServerImage, otherServerOf } from '../facts/releases.ts';
import { identifyServer } from './workload/identify-server.ts';
import { findInvocation } from './workload/server-invocation.ts';
import { CHECK_RENDERED_POD, locate, poolSelects, selects, type Workload } from './workload/locate.ts';
import { containersOf, holdsAccelerators, idles, type Container } from './workload/pod.ts';
import { readManifest, type Manifest, type ManifestObject } from './read/read-manifest.ts';
import { isRecord, valueAt, type Segment } from './read/path.ts';
import { planNotes } from './plan-notes.ts';
import { explain, type Explanation } from './explain.ts';
import { applyConfig, configSettings, workloadSettings, type RepoConfig } from './config.ts';
import { assumedBases, assumedNote, assumedText, restsOf } from './workload/assumed.ts';
import { changesNothing, unwritable } from './fix/unchanged.ts';
import { applySuppressions } from './suppress.ts';
import {
  checkedFor,
  detectGateway,
  findSettings,
  generatorSettings,
  CHECK_SETTING_FLAGS,
  headerSettings,
  resolveSettings,
  usableSettings,
  type CheckedFor,
  type FoundSetting,
} from './workload/settings.ts';
import { computeTargets } from './workload/targets.ts';

/** The outcome of checking a usable manifest. */
export interface CheckReport {
  findings: Finding[];
  counts: Record<Severity, number>;
  /** Model-server workloads checked. */
  workloads: number;
  /** What the manifest said about the drain inputs (for the first model-server workload). */
  found: FoundSetting[];
  /** The inputs the first workload was checked with (the reader's settings over what was found). */
  inputs: DrainInputs;
  /** The generator's settings for the first workload; absent when its model server is not known. */
  generator?: { query: string; flags: string };
  /** The gateway the check used, and whether the reader chose it, the manifest named it, or it is the default. */
  checkedFor: CheckedFor;
  /** The document (from 0) of each model-server workload checked, in order. */
  workloadDocuments: number[];
}

/**
 * What the whole input states, for a check of part of it (the CLI checks a large input in parts): the gateway it
 * names and the model server of the generator's header comment, used instead of what this part states.
 */
export interface WholeInput {
  gateway?: FoundSetting;
  modelServer?: FoundSetting;
  /** The inputs the generator's header lists, when it lists them (see `headerSettings`). */
  inputs?: FoundSetting[];
}

export type CheckResult = { ok: true; report: CheckReport; manifest: Manifest } | { ok: false; problem: InputProblem };

/** Build the context of each model-server workload; list the workloads that run none. */
function workloadContexts(
  check: CheckContext,
  all: Record<string, string>,
  hint: FoundSetting | undefined,
  header: WholeInput,
  /** The settings for one workload, when a config entry names it (see config.ts). */
  own: (object: Workload['object']) => Record<string, string> | undefined,
): { contexts: WorkloadContext[]; skipped: (Workload & { why?: string })[] } {
  const { located, profiles } = check;
  const contexts: WorkloadContext[] = [];
  const skipped: (Workload & { why?: string })[] = [];
  const givenServer = all['model-server'];
  // The model server the generator's header names: used only for a workload the profiles do not recognise.
  const headerServer = givenServer ? undefined : header.modelServer;
  for (const workload of located.workloads) {
    const object = workload.object;
    const mine = own(object);
    const user = mine ? usableSettings(mine, profiles) : all;
    const containers = containersOf(workload.serving);
    const identified = identifyServer(workload.serving, containers, profiles);
    const pool = located.pools.find((p) => poolSelects(p, workload));
    // A LeaderWorkerSet whose workers hold the accelerators (Pathways: a CPU proxy leads TPU workers) serves a model.
    const hasGpus =
      containers.some(holdsAccelerators)
      || (workload.workers ? containersOf(workload.workers).some(holdsAccelerators) : false);
    // A server recognised by its image that has no drain profile (content/other-servers/): checked like an unknown one.
    const other = identified
      ? undefined
      : containers
          .map((c) => ({ container: c, server: otherServerOf(profiles.otherServers, c.image) }))
          .find((o) => o.server);
    // Containers that only idle (`sleep infinity` with no port: a benchmark client on a GPU) serve nothing.
    const idle = !pool && containers.length > 0 && containers.every(idles);
    const why = idle
      ? idleReason(containers)
      : (notWhole(workload)
        // A Job's image alone does not make it a server: only a command that starts one, or the image's own entrypoint
        // (`vllm bench serve` on vLLM's image is a client).
        ?? batchTask(workload, Boolean(identified?.invocation.found || other || pool), containers));
    if (containers.length === 0 || idle || why || (!identified && !other && !hasGpus && !pool && !givenServer)) {
      skipped.push(why ? { ...workload, why } : workload);
      continue;
    }
    const container = identified?.container ?? other?.container ?? containers.find(holdsAccelerators) ?? containers[0];
    // Another server's image is not an input of the stand-in plan (the generator refuses it as vLLM's).
    const found = findSettings(workload, container, identified, pool).filter((f) => !other || f.flag !== 'image');
    if (!identified && headerServer) found.unshift(headerServer);
    if (hint) found.unshift(hint);
    // The inputs the generator's header lists, where the manifest itself does not state them.
    for (const f of header.inputs ?? []) if (!found.some((g) => g.flag === f.flag)) found.push(f);
    const { inputs, unused } = resolveSettings(user, found, profiles);
    const serverKnown = Boolean(identified || givenServer || headerServer);
    const standIn = modelServerById(profiles, inputs.modelServer);
    const planned = other?.server?.drain ? withoutDrain(profiles, standIn, other.server) : profiles;
    const plan = planFor(inputs, planned);
    // A server with a data file of its own but no drain profile is named as itself in the findings, not as the stand-in.
    const server = other?.server
      ? { ...modelServerById(planned, inputs.modelServer), name: other.server.name }
      : standIn;
    const invocation = !serverKnown
      ? undefined
      : identified && identified.profile.id === server.id && identified.container === container
        ? identified.invocation
        : findInvocation(container.line, server, isServerImage(server, container.image));
    const targets = computeTargets(container, workload.serving.spec, server, invocation, plan);
    const ctx: WorkloadContext = {
      check,
      ...(mine ? { given: new Set([...check.given, ...Object.keys(user)]) } : {}),
      workload,
      object,
      containers,
      container,
      server,
      serverKnown,
      invocation,
      found,
      inputs,
      plan,
      targets,
      unused,
      ...(other?.server ? { otherServer: other.server } : {}),
    };
    contexts.push(ctx);
  }
  return { contexts, skipped };
}

/**
 * Why a workload is not a whole object, if it is not: a kustomize patch or an overlay's fragment leaves out a
 * container's image, which the API server requires, so what it omits is in its base, not missing. (A missing
 * selector alone is not taken for a patch: hand-written examples leave it out too.)
 */
function notWhole(workload: Workload): string | undefined {
  const { object, serving } = workload;
  // Kinds whose pods take their containers as written; a controller's CR may leave the image to its preset.
  const asWritten = /^(apps|batch|leaderworkerset\.x-k8s\.io)\/|^v1$/.test(object.apiVersion);
  const noImage = asWritten
    ? containersOf(serving).find((c) => typeof c.value.image !== 'string' || c.value.image === '')
    : undefined;
  if (!noImage) return undefined;
  return `${object.kind}/${object.name} is not a whole object (its ${noImage.name} container has no image), as a kustomize patch or an overlay's fragment is not: what it leaves out is in its base. Check what is applied instead: kubectl kustomize DIR | hitless check -.`;
}

/** Why a pod whose containers only idle (`sleep infinity`, no port) is not checked. */
function idleReason(containers: Container[]): string {
  const line = containers[0].line.argv.map((t) => t.text).join(' ');
  const one = containers.length === 1;
  return `Its ${one ? 'container only runs' : 'containers only idle, as'} \`${line}\` and ${one ? 'declares' : 'declare'} no port, and no pool selects it: it serves nothing (a client or a toolbox), so it was not checked. If it serves a model, add the InferencePool that selects it.`;
}

/** Why a Job is a batch task, if it is: no server the checker knows, no pool and no declared port (a conversion). */
function batchTask(workload: Workload, serves: boolean, containers: Container[]): string | undefined {
  if (workload.object.kind !== 'Job' || serves || containers.some((c) => c.ports.length > 0)) return undefined;
  return `Job/${workload.object.name} runs no server the checker knows, declares no port and no pool selects it: a batch task (a conversion, a download), which nothing routes requests to, so it was not checked. If it serves a model, give the model server (--model-server) or add the InferencePool that selects it.`;
}

/**
 * The profiles with the stand-in server planned as the recognised one plans: a server whose data file shows it does
 * not drain (Ollama) gets no drain budget, so its grace period is the preStop sleep and the teardown, as for llama.cpp.
 */
function withoutDrain(profiles: Profiles, standIn: ModelServerProfile, other: OtherServer): Profiles {
  const { flag: _flag, zeroAborts: _aborts, beforeFlagSeconds: _before, ...drain } = standIn.drain;
  const server: ModelServerProfile = {
    ...standIn,
    name: other.name,
    drain: { ...drain, kind: 'none', whileDraining: other.drain!.whileDraining },
  };
  return { ...profiles, modelServers: profiles.modelServers.map((m) => (m.id === standIn.id ? server : m)) };
}

/**
 * The findings without repeats (the same code, object, path and message), the first of each kept. A repeat is the
 * same `code\nobject\npath\nmessage`; for the findings whose object and message have no line break (all but a
 * few), that is the same message and `code\nobject\npath`, so the keys kept are short (a large input in parts has
 * tens of thousands of findings, and one long key each held about 20 MB).
 */
export function dedupe(findings: Finding[]): Finding[] {
  return findings.filter(deduper());
}

/**
 * What makes two findings repeats of each other for `dedupe`, as one text: the same text, the same code, object, path
 * and message (`p`: none of them has a line break; `n`: the object or message has one, and the text is compared
 * whole).
 */
export function repeatKey(f: Finding): string {
  const object = `${f.object}`;
  const plain = !f.message.includes('\n') && !object.includes('\n');
  return `${plain ? 'p' : 'n'}${f.code}\n${object}\n${f.path}\n${f.message}`;
}

/** A filter that passes the first of each finding it is given and not its repeats, as `dedupe` keeps them. */
function deduper(): (f: Finding) => boolean {
  const seen = new Set<string>();
  const byMessage = new Map<string, Set<string>>();
  return (f) => {
    const object = `${f.object}`;
    // The two kinds of key cannot meet: a path and a code never have a line break, so a key of the second kind
    // has more line breaks than three.
    const plain = !f.message.includes('\n') && !object.includes('\n');
    const keys = plain ? (byMessage.get(f.message) ?? new Set<string>()) : seen;
    if (plain && keys.size === 0) byMessage.set(f.message, keys);
    const key = plain ? `${f.code}\n${object}\n${f.path}` : `${f.code}\n${object}\n${f.path}\n${f.message}`;
    if (keys.has(key)) return false;
    keys.add(key);
    return true;
  };
}

/**
 * Run one rule where it applies and report each verdict under its code, with its fix; a verdict whose severity the
 * rule does not declare is a bug in the rule, and throws.
 */
function runRule<C>(
  rule: Rule<CheckCode>,
  ctx: C,
  check: CheckContext,
  own: WorkloadContext['object'] | undefined,
  found: readonly FoundSetting[],
): void {
  // A workload a config entry names has its own given settings (see workloadContexts).
  const given = (ctx as { given?: ReadonlySet<string> }).given ?? check.given;
  const source = (flag: string) => settingSource(check, given, found, flag);
  const {
    appliesTo,
    check: judge,
    fix,
  } = rule as unknown as {
    appliesTo?: (ctx: C) => boolean;
    check: (ctx: C) => Verdict[];
    fix?: (ctx: C, verdict: Verdict) => Finding['fix'];
  };
  if (appliesTo && !appliesTo(ctx)) return;
  for (const verdict of judge(ctx)) {
    if (!severitiesOf(rule).includes(verdict.severity))
      throw new Error(
        `${rule.code} reported ${verdict.severity}, which its severity (${JSON.stringify(rule.severity)}) does not declare`,
      );
    const object = verdict.object === undefined ? own : (verdict.object ?? undefined);
    const proposed = fixInRange(fix?.(ctx, verdict), object, check.profiles.valueRanges);
    // A fix that writes the values already there: not a finding (the plan's warnings name a setting at fault).
    if (proposed && changesNothing(check.manifest, proposed.edits)) continue;
    // One that could be written only in part (a path through a string) is one to make by hand.
    const remedy =
      proposed && unwritable(check.manifest, proposed.edits)
        ? manualFix(proposed.text.replace(/^Manual: /, ''))
        : proposed;
    const workload = object === own ? (ctx as { workload?: Workload }).workload : undefined;
    const bases = workload?.bases;
    // Where a layer the input does not hold (KServe's configs, a serving controller) may set the value, the finding is
    // a note; this comes first, so that a note is never also counted as an error on assumed inputs.
    if (workload && bases) abstainOnBases(workload, bases, verdict);
    const owner = workload?.served && controllerSets(workload, verdict.path);
    if (owner) {
      verdict.message += ` (${owner}, so the pod may hold another value. Check the rendered pod: ${CHECK_RENDERED_POD}.)`;
      verdict.severity = 'info';
    }
    const restsOn = verdict.restsOn ?? rule.restsOn ?? [];
    const unknown = verdict.severity === 'info' ? [] : assumedBases(restsOn, (flag) => source(flag) !== undefined);
    // An error on an assumed input is a warning that names what to give; a warning says what it assumed.
    const assumed = verdict.severity === 'error' ? unknown : [];
    if (assumed.length > 0) {
      verdict.severity = 'warning';
      verdict.message += assumedText(assumed);
    } else if (unknown.length > 0) verdict.message += assumedNote(unknown);
    if (verdict.stray) {
      check.findings.push({
        code: rule.code,
        severity: verdict.severity,
        object: '',
        document: verdict.stray.document + 1,
        path: '',
        line: verdict.stray.line,
        message: verdict.message,
        remedy: 'manual',
      });
      continue;
    }
    const flags = assumed.length > 0 ? [...new Set(assumed.flatMap((a) => a.flags))] : undefined;
    const fixed = bases
      ? basedFix(object, bases, remedy, verdict.path)
      : owner && remedy
        ? manualFix(`${owner}: write it where the controller takes it from, if it does. ${remedy.text}`)
        : ownedFix(object, remedy);
    const rests = restsOf(restsOn, source);
    report(check, object, rule.code, verdict.severity, verdict.path, verdict.message, fixed, flags, rests);
  }
}

/**
 * An object a controller made (`metadata.ownerReferences`: a pod from `kubectl get pod -o yaml`, a Deployment a
 * serving controller renders) is not where a fix lasts: the controller writes it again from its owner. Its fixes
 * become what to change, and where.
 */
function ownedFix(object: ManifestObject | undefined, fix: Fix | undefined): Fix | undefined {
  if (!object || !fix || fix.edits.length === 0) return fix;
  const refs = valueAt(object.value, ['metadata', 'ownerReferences']);
  if (!Array.isArray(refs) || refs.length === 0) return fix;
  const owner = (refs.find((r) => isRecord(r) && r.controller === true) ?? refs[0]) as Record<string, unknown>;
  const name = `${typeof owner?.kind === 'string' ? owner.kind : 'its owner'}${typeof owner?.name === 'string' ? `/${owner.name}` : ''}`;
  return manualFix(
    `${fix.text}, in ${name}, which makes this ${object.kind} (or in the fields its controller passes on): an edit here is lost when the controller writes the ${object.kind} again.`,
  );
}

/**
 * An LLMInferenceService whose pod KServe merges from the LLMInferenceServiceConfig objects it names: an edit to the
 * object alone can meet a value a base sets (two handlers in one hook, a field the base owns), so its fixes say what
 * to change and where.
 */
function basedFix(
  object: ManifestObject | undefined,
  bases: NonNullable<Workload['bases']>,
  fix: Fix | undefined,
  path: readonly Segment[],
) {
  // A hook or probe to add by hand merges the same way as one the checker writes, so it carries the same warning.
  if (!object || !fix || (fix.edits.length === 0 && !HANDLER_FIELDS.has(String(path.at(-1))))) return fix;
  const names = [...bases.found, ...bases.missing].map((n) => `LLMInferenceServiceConfig/${n}`);
  return manualFix(
    `KServe makes this pod from its well-known config, ${names.length > 0 ? `then ${names.join(', ')}, ` : ''}then ${object.kind}/${object.name}'s spec, which wins, `
      + "with a strategic merge: a hook or probe written with another handler than the one the well-known config sets (v0.19.0's: a preStop exec sleep, httpGet probes on /health) "
      + 'merges beside it into one with two handlers, which the API server refuses. '
      + `Write this where the field is set${names.length > 0 ? ', or in this object' : ''}, with the handler the rendered pod already has, then check the rendered pod `
      + `(${CHECK_RENDERED_POD}): ${fix.text.replace(/^Manual: /, '')}`,
  );
}

/** The fields that hold one handler (a hook or a probe): two merged into one are refused. */
const HANDLER_FIELDS = new Set(['lifecycle', 'preStop', 'readinessProbe', 'livenessProbe', 'startupProbe']);

/**
 * A finding on an LLMInferenceService whose pod merges objects the input does not hold: on a value none of the input's
 * layers sets (or on anything, when a config baseRefs names is missing) they may answer it, so it is a note saying so.
 */
function abstainOnBases(workload: Workload, bases: NonNullable<Workload['bases']>, verdict: Verdict): void {
  if (verdict.severity === 'info') return;
  if (bases.missing.length > 0) {
    const one = bases.missing.length === 1;
    verdict.severity = 'info';
    verdict.message += ` (${bases.missing.map((n) => `LLMInferenceServiceConfig/${n}`).join(', ')}, which baseRefs names, ${one ? 'is' : 'are'} not in the input and may set this: add ${one ? 'it' : 'them'} to the input, or check the rendered pod: ${CHECK_RENDERED_POD}.)`;
  } else if (!setInInput(workload, verdict.path)) {
    verdict.severity = 'info';
    verdict.message += ` (${WELL_KNOWN_CONFIG}, so it may set this. Check the rendered pod: ${CHECK_RENDERED_POD}.)`;
  }
}

/**
 * The serving controller's words when it sets the field at `path` (a pod-spec field its data file lists in `owns`) on
 * the way from the template to the pod.
 */
function controllerSets(workload: Workload, path: readonly (string | number)[]): string | undefined {
  const pods = workload.served?.kind.pods;
  if (!pods || pods.owns.length === 0) return undefined;
  for (const template of [workload.serving, workload.workers]) {
    if (!template?.specPath.every((segment, i) => path[i] === segment)) continue;
    // containers.0.lifecycle.preStop.sleep → containers.lifecycle.preStop.sleep
    const field = path
      .slice(template.specPath.length)
      .filter((segment) => typeof segment === 'string')
      .join('.');
    // A finding on a field's parent (a container's `lifecycle` when it has no hook) is on the field too.
    const parent = field.includes('.');
    const owned = pods.owns.find(
      (o) => field === o || field.startsWith(`${o}.`) || (parent && o.startsWith(`${field}.`)),
    );
    if (owned) return `${workload.served!.controller} sets ${owned} on the pods it makes from this template`;
  }
  return undefined;
}

/** KServe's own base for an LLMInferenceService, in words. */
const WELL_KNOWN_CONFIG =
  'KServe merges its well-known config for this shape, such as kserve-config-llm-template, under this object: the input does not '
  + "hold it, and from KServe v0.19.0 it sets the probes, a preStop sleep and vLLM's drain flag";

/** Whether a value at a path of an LLMInferenceService is set by a layer the input holds (its merged pod spec). */
function setInInput(workload: Workload, path: readonly (string | number)[]): boolean {
  for (const template of [workload.serving, workload.workers]) {
    if (!template) continue;
    const prefix = template.specPath;
    if (prefix.every((segment, i) => path[i] === segment))
      return valueAt(template.spec, path.slice(prefix.length) as Segment[]) !== undefined;
  }
  return valueAt(workload.object.value, path as Segment[]) !== undefined;
}

/**
 * Check manifest text. `settings` are drain inputs by flag (`gateway`, `max-output-tokens`, …); bad or
 * manifest-only ones are left out (see `settingErrors` to report them). Unusable text gives a problem. `whole`
 * is given when `text` is part of a larger input (see `WholeInput`); `limits` are the page's unless the caller has
 * already bounded the input (the CLI's groups of parts, see GROUP_LIMITS).
 */
export function checkManifest(
  text: string,
  settings: Record<string, string>,
  profiles: Profiles,
  whole?: WholeInput,
  limits?: ReadLimits,
  config?: RepoConfig,
): CheckResult {
  const read = readManifest(text, limits);
  if (!read.ok) return read;
  return checkRead(read.manifest, settings, profiles, whole, text, config);
}

/** What every rule's run starts from: the objects sorted, the settings, the gateway, each workload's context. */
function prepare(
  manifest: Manifest,
  settings: Record<string, string>,
  profiles: Profiles,
  whole: WholeInput | undefined,
  text: string,
  config?: RepoConfig,
) {
  const located = locate(manifest, profiles);
  // A repository config's settings count as the reader's: given, under the flags given with the command.
  const user = usableSettings(configSettings(config, settings), profiles);
  const header: WholeInput = whole ?? headerSettings(manifest.text, profiles);
  // A generator header that lists its inputs states every input (the others were at their defaults): known.
  const given = new Set(Object.keys(user));
  const stated = header.inputs ? new Set(CHECK_SETTING_FLAGS) : new Set<string>();
  const check: CheckContext = { manifest, located, profiles, findings: [], given, stated };
  const hint = user.gateway ? undefined : whole ? whole.gateway : detectGateway(text, located, profiles);
  const gatewayUsed = checkedFor(user, hint, profiles);
  const { contexts, skipped } = workloadContexts(check, user, hint, header, (object) =>
    workloadSettings(config, object, settings),
  );
  return { check, located, user, hint, gatewayUsed, contexts, skipped };
}

/**
 * The workload model a check of this text runs on (`hitless check --explain`): what each object and container is,
 * and each input with where it came from. Unusable text gives the problem `checkManifest` gives.
 */
export function explainManifest(
  text: string,
  settings: Record<string, string>,
  profiles: Profiles,
  config?: RepoConfig,
): { ok: true; explanation: Explanation } | { ok: false; problem: InputProblem } {
  const read = readManifest(text);
  if (!read.ok) return read;
  if (read.manifest.objects.length === 0) {
    const checked = checkRead(read.manifest, settings, profiles);
    if (!checked.ok) return checked;
  }
  const { check, located, gatewayUsed, contexts, skipped } = prepare(
    read.manifest,
    settings,
    profiles,
    undefined,
    text,
    config,
  );
  const givenBy = (flag: string) => (flag in settings || !config ? `--${flag}` : config.file);
  const explained = explain(located, contexts, gatewayUsed, check.given, profiles, givenBy);
  // A workload skipped for a reason of its own (a patch without images, an idle client, a batch Job) says that one.
  const workloads = explained.workloads.map((w) => {
    const why = skipped.find((s) => s.object.document + 1 === w.document && objectName(s.object) === w.object)?.why;
    return !w.checked && why ? { ...w, why } : w;
  });
  const refused = (read.manifest.refused ?? []).map((r) => `document ${r.document + 1} (line ${r.line}): ${r.message}`);
  return { ok: true, explanation: { ...explained, workloads, ...(refused.length > 0 ? { refused } : {}) } };
}

/**
 * Check a manifest already read (by `readManifest`, or by the quick reader of a check in parts) as `checkManifest`
 * checks its text; `text` is the input as given (with CR line ends where `manifest.text` has LF).
 */
export function checkRead(
  manifest: Manifest,
  settings: Record<string, string>,
  profiles: Profiles,
  whole?: WholeInput,
  text = manifest.text,
  config?: RepoConfig,
): CheckResult {
  if (manifest.objects.length === 0) {
    const refused = manifest.refused?.[0];
    if (refused)
      return { ok: false, problem: { message: refused.message, line: refused.line, column: refused.column } };
    const what = manifest.strays[0]?.[1];
    return {
      ok: false,
      problem: {
        message: `The input holds no Kubernetes object${what ? ` (document ${manifest.strays[0][0] + 1} is ${what})` : ''}, so it cannot be checked: paste manifests with apiVersion and kind.`,
      },
    };
  }
  const { check, located, user, hint, gatewayUsed, contexts, skipped } = prepare(
    manifest,
    settings,
    profiles,
    whole,
    text,
    config,
  );

  const seen = new Set<string>();
  for (const ctx of contexts) {
    for (const rule of RULES) if (rule.scope === 'workload') runRule(rule, ctx, check, ctx.object, ctx.found);
    planNotes(ctx, seen);
  }
  const base = resolveSettings(user, hint ? [hint] : [], profiles).inputs;
  let basePlan: Plan | undefined;
  const fallbackPlan = () => (basePlan ??= planFor(base, profiles));
  const input: InputContext = {
    ...check,
    contexts,
    skipped,
    checkedFor: gatewayUsed,
    planFor: (poolName, namespace) => {
      const pool = located.pools.find(
        (p) =>
          p.object.name === poolName
          && (namespace === undefined || p.object.namespace === undefined || p.object.namespace === namespace),
      );
      // Not a pool of the input: another pool's (when the input has pools) or a Service's, so no plan here is its own.
      if (!pool && (poolName === undefined || located.pools.length > 0)) return undefined;
      const ctx = pool ? contexts.find((c) => selects(pool.selector, c.workload.serving.labels)) : contexts[0];
      return ctx?.plan ?? fallbackPlan();
    },
    fallback: { plan: fallbackPlan, inputs: base },
  };
  // A rule over the whole input knows what any workload's manifest states (and the gateway the manifest names).
  const foundAny = [...(hint ? [hint] : []), ...contexts.flatMap((c) => c.found)];
  for (const rule of RULES) if (rule.scope === 'manifest') runRule(rule, input, check, undefined, foundAny);
  applySuppressions(check);
  applyConfig(check, config);

  const findings = sortFindings(dedupe(check.findings));
  const first = contexts[0];
  const inputs = first?.inputs ?? base;
  return {
    ok: true,
    manifest,
    report: {
      findings,
      counts: countFindings(findings),
      workloads: contexts.length,
      found: first?.found ?? (hint ? [hint] : []),
      inputs,
      // The generator writes manifests for the servers it profiles: none is offered for a server it cannot tell, nor
      // where no workload was checked (its settings would be the defaults alone, nothing read).
      ...(first?.serverKnown ? { generator: generatorSettings(inputs, profiles) } : {}),
      checkedFor: gatewayUsed,
      workloadDocuments: contexts.map((c) => c.object.document),
    },
  };
}
