/**
 * Check a manifest against the drain model: read it, find the model-server workloads, plan each one
 * with the reader's settings and what the manifest says, and run every rule. Pure: no DOM, no files.
 */
import { ENGINE_TYPE_LABEL } from '../emit/bundle.ts';
import { plan as planFor, type Plan } from '../model/plan.ts';
import type { Profiles } from '../facts/profiles.ts';
import { modelServerById, type DrainInputs } from '../model/resolve.ts';
import { report, type CheckContext, type WorkloadContext } from './rules/context.ts';
import { countFindings, sortFindings, type Finding, type Severity } from './rules/findings.ts';
import type { InputProblem } from './read/guard-input.ts';
import type { ReadLimits } from './read/limits.ts';
import { identifyServer, isServerImage } from './workload/identify-server.ts';
import { findInvocation } from './workload/server-invocation.ts';
import { locate, sameNamespace, selects } from './workload/locate.ts';
import { containersOf } from './workload/pod.ts';
import { readManifest, type Manifest } from './read/read-manifest.ts';
import { checkDrainFlag } from './rules/areas/drain-flag.ts';
import { checkGatewayPolicyMissing, checkGatewayTimeouts } from './rules/areas/gateway.ts';
import { checkGrace } from './rules/areas/grace.ts';
import { objectNotes, planNotes } from './rules/areas/notes.ts';
import { applySuppressions } from './suppress.ts';
import { checkPools } from './rules/areas/pool.ts';
import { checkPreStop } from './rules/areas/prestop.ts';
import { checkProbes } from './rules/areas/probes.ts';
import { checkRejectedValues } from './rules/areas/rejected-values.ts';
import { checkRollout } from './rules/areas/rollout.ts';
import { checkShellPid1 } from './rules/areas/shell-pid1.ts';
import {
  checkedFor,
  detectGateway,
  findSettings,
  generatorSettings,
  headerSettings,
  resolveSettings,
  usableSettings,
  type CheckedFor,
  type FoundSetting,
} from './workload/settings.ts';
import { computeTargets } from './workload/targets.ts';
import { fieldFor } from '../model/fields.ts';
import { quote } from './read/path.ts';

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
  /** The same inputs as a generator query and as `hitless generate` flags. */
  generator: { query: string; flags: string };
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
}

export type CheckResult = { ok: true; report: CheckReport; manifest: Manifest } | { ok: false; problem: InputProblem };

/** Build the context of each model-server workload; note the workloads that run none. */
function workloadContexts(
  check: CheckContext,
  user: Record<string, string>,
  hint: FoundSetting | undefined,
  whole?: WholeInput,
): WorkloadContext[] {
  const { located, profiles } = check;
  const contexts: WorkloadContext[] = [];
  const givenServer = user['model-server'];
  // The model server the generator's header names: used only for a workload the profiles do not recognise.
  const headerServer = givenServer
    ? undefined
    : whole
      ? whole.modelServer
      : headerSettings(check.manifest.text, profiles).modelServer;
  for (const workload of located.workloads) {
    const object = workload.object;
    const containers = containersOf(workload.serving);
    const identified = identifyServer(workload.serving, containers, profiles);
    const pool = located.pools.find(
      (p) => sameNamespace(p.object, object) && selects(p.selector, workload.serving.labels),
    );
    const hasGpus = containers.some((c) => c.gpus > 0);
    if (containers.length === 0 || (!identified && !hasGpus && !pool && !givenServer)) {
      report(
        check,
        object,
        'workload-skipped',
        'info',
        [...workload.serving.specPath, 'containers'],
        `${object.kind}/${object.name} runs no model server the checker knows (no server image or server command of its own, no GPUs, no pool selecting it; a ${ENGINE_TYPE_LABEL} label alone does not say, since simulators carry it too), so it was not checked.`,
      );
      continue;
    }
    const container = identified?.container ?? containers.find((c) => c.gpus > 0) ?? containers[0];
    const found = findSettings(workload, container, identified, pool);
    if (!identified && headerServer) found.unshift(headerServer);
    if (hint) found.unshift(hint);
    const { inputs, unused } = resolveSettings(user, found, profiles);
    for (const value of unused) {
      const spec = fieldFor(value.flag);
      const range =
        spec && spec.min !== undefined && spec.max !== undefined
          ? ` (the drain model reads ${spec.min}\u2013${spec.max})`
          : '';
      report(
        check,
        object,
        'value-out-of-range',
        'warning',
        [],
        `${value.from} gives ${value.flag} ${quote(value.value)}, outside what the checker can model${range}, so the check used ${quote(String((spec ? inputs[spec.key] : undefined) ?? 'its default'))} instead; check that setting by hand.`,
      );
    }
    const serverKnown = Boolean(identified || givenServer || headerServer);
    const server = modelServerById(profiles, inputs.modelServer);
    const plan = planFor(inputs, profiles);
    const invocation = !serverKnown
      ? undefined
      : identified && identified.profile.id === server.id && identified.container === container
        ? identified.invocation
        : findInvocation(container.line, server, isServerImage(server, container.image));
    const targets = computeTargets(container, workload.serving.spec, server, invocation, plan, inputs);
    const ctx: WorkloadContext = {
      check,
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
    };
    if (!serverKnown) {
      report(
        check,
        object,
        'model-server-unknown',
        'info',
        [...container.path, 'image'],
        `The checker cannot tell which model server the ${container.name} container runs (no server image or server command of its own; a ${ENGINE_TYPE_LABEL} label alone does not say), `
          + `so it used the ${server.name} profile\u2019s probes and skipped the drain-flag checks; give the model server to check them.`,
      );
    }
    contexts.push(ctx);
  }
  return contexts;
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
export function deduper(): (f: Finding) => boolean {
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
): CheckResult {
  const read = readManifest(text, limits);
  if (!read.ok) return read;
  return checkRead(read.manifest, settings, profiles, whole, text);
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
): CheckResult {
  if (manifest.objects.length === 0) {
    const what = manifest.strays[0]?.[1];
    return {
      ok: false,
      problem: {
        message: `The input holds no Kubernetes object${what ? ` (document ${manifest.strays[0][0] + 1} is ${what})` : ''}, so it cannot be checked: paste manifests with apiVersion and kind.`,
      },
    };
  }
  const located = locate(manifest, profiles);
  const check: CheckContext = { manifest, located, profiles, findings: [] };
  const user = usableSettings(settings, profiles);
  const hint = user.gateway ? undefined : whole ? whole.gateway : detectGateway(text, located, profiles);
  const gatewayUsed = checkedFor(user, hint, profiles);
  const contexts = workloadContexts(check, user, hint, whole);

  const seen = new Set<string>();
  for (const ctx of contexts) {
    checkPreStop(ctx);
    checkGrace(ctx);
    checkDrainFlag(ctx);
    checkShellPid1(ctx);
    checkProbes(ctx);
    checkRollout(ctx);
    planNotes(ctx, seen);
  }
  checkPools(check, contexts);
  checkRejectedValues(check);

  const base = resolveSettings(user, hint ? [hint] : [], profiles).inputs;
  let basePlan: Plan | undefined;
  const fallbackPlan = () => (basePlan ??= planFor(base, profiles));
  checkGatewayTimeouts(check, (poolName, namespace) => {
    const pool = located.pools.find(
      (p) =>
        p.object.name === poolName
        && (namespace === undefined || p.object.namespace === undefined || p.object.namespace === namespace),
    );
    // Not a pool of the input: another pool's (when the input has pools) or a Service's, so no plan here is its own.
    if (!pool && (poolName === undefined || located.pools.length > 0)) return undefined;
    const ctx = pool ? contexts.find((c) => selects(pool.selector, c.workload.serving.labels)) : contexts[0];
    return ctx?.plan ?? fallbackPlan();
  });
  checkGatewayPolicyMissing(check, contexts, gatewayUsed, { plan: fallbackPlan, inputs: base });
  if (contexts.length > 0 && located.pools.length === 0) {
    report(
      check,
      undefined,
      'no-pool',
      'info',
      [],
      'The input has no InferencePool, so the pool\u2019s selector and target ports were not checked; add its manifest to check them.',
    );
  }
  objectNotes(check);
  applySuppressions(check);
  if (
    located.workloads.length === 0
    && located.pools.length === 0
    && located.policies.length === 0
    && located.routes.length === 0
  ) {
    report(
      check,
      undefined,
      'workload-skipped',
      'info',
      [],
      'The input has no Deployment, StatefulSet, LeaderWorkerSet or InferencePool, so there was nothing to check.',
    );
  }

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
      generator: generatorSettings(inputs, profiles),
      checkedFor: gatewayUsed,
      workloadDocuments: contexts.map((c) => c.object.document),
    },
  };
}
