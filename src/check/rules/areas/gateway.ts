/**
 * Rules on the gateway side: a policy's request timeout or connection-draining timeout (where the gateway
 * profiles place them, e.g. GKE's GCPBackendPolicy), such a policy missing for a pool, and an HTTPRoute
 * timeout that cuts long requests.
 */
import { Document } from 'yaml';
import { documentText } from '../../../emit/bundle.ts';
import { extraManifestDocuments, extraValuesKey } from '../../../emit/gateway-objects.ts';
import { DOCUMENT_OPTIONS, TO_STRING } from '../../../emit/options.ts';
import type { Profiles } from '../../../facts/profiles.ts';
import type { Plan } from '../../../model/plan.ts';
import type { DrainInputs } from '../../../model/resolve.ts';
import { formatSeconds as s } from '../../../model/seconds.ts';
import { formulaOf, report, setEdit, type CheckContext, type WorkloadContext } from '../context.ts';
import { parseDuration } from '../../read/duration.ts';
import { policySettings, type PolicySetting } from '../../workload/gateway-policies.ts';
import { sameNamespace, selects, type Pool } from '../../workload/locate.ts';
import { isRecord, quote, valueAt } from '../../read/path.ts';
import { intField } from '../../workload/pod.ts';
import { documentCount, type ManifestObject } from '../../read/read-manifest.ts';
import type { CheckedFor } from '../../workload/settings.ts';

/**
 * The plan for the pool a policy or route points at: its workload's when the manifest has it; undefined when it
 * points at something else (another pool, a Service), whose workload the check cannot see.
 */
export type PlanFor = (poolName: string | undefined, namespace: string | undefined) => Plan | undefined;

/** `Kind/name` of a targetRef or backendRef, for messages. */
function refName(ref: unknown): string {
  if (!isRecord(ref)) return 'nothing';
  return `${typeof ref.kind === 'string' ? ref.kind : 'Service'}/${typeof ref.name === 'string' ? ref.name : '(no name)'}`;
}

/**
 * The value the plan sets for a gateway setting (the fix), and the least value that does not cut requests: the
 * plan's value, except that a request timeout raised to the gateway's floor only needs the longest request with
 * headroom.
 */
function plannedSeconds(plan: Plan, setting: PolicySetting): { seconds: number; needed: number; why: string } {
  const field = setting.role === 'requestTimeout' ? 'gatewayRequestTimeoutSeconds' : 'gatewayDrainingSeconds';
  const planned = plan.gateway === setting.gateway.id ? plan[field] : null;
  if (planned !== null && planned !== undefined) {
    const needed =
      setting.role === 'requestTimeout'
        ? Math.min(planned, plan.gatewayRequestTimeoutNeededSeconds ?? planned)
        : planned;
    return { seconds: planned, needed, why: formulaOf(plan, field) };
  }
  if (setting.role === 'requestTimeout') {
    return {
      seconds: plan.maxRequestSeconds,
      needed: plan.maxRequestSeconds,
      why: `longest request: ${formulaOf(plan, 'maxRequestSeconds')}`,
    };
  }
  const draining = Math.min(setting.maxSeconds, plan.preStopSeconds + plan.drainSeconds);
  return {
    seconds: draining,
    needed: draining,
    why: `${s(plan.preStopSeconds)} preStop + ${s(plan.drainSeconds)} drain`,
  };
}

function checkSetting(check: CheckContext, policy: ManifestObject, setting: PolicySetting, plan: Plan): void {
  const path = setting.path;
  const field = intField(valueAt(policy.value, path.slice(0, -1)), path.at(-1)!);
  if (field.state === 'bad') {
    report(
      check,
      policy,
      'value-unreadable',
      'info',
      path,
      `${path.at(-1)} is ${quote(field.raw)}, not a whole number of seconds.`,
    );
    return;
  }
  const now = field.state === 'set' ? field.value : setting.defaultSeconds;
  const target = plannedSeconds(plan, setting);
  if (now >= target.needed || now >= setting.maxSeconds) return;
  const unset = field.state === 'set' ? '' : ` (${path.at(-1)} unset: the ${s(setting.defaultSeconds)} default)`;
  const fix = {
    text: `${path.at(-1)}: ${target.seconds} # ${target.why}`,
    edits: [setEdit(policy, path, target.seconds, ` ${target.why}`)],
  };
  const where = field.state === 'set' ? path : ['spec'];
  if (setting.role === 'requestTimeout') {
    report(
      check,
      policy,
      'gateway-timeout-too-short',
      now < plan.maxRequestSeconds ? 'error' : 'warning',
      where,
      now < plan.maxRequestSeconds
        ? `The load balancer cuts any response after ${s(now)}${unset}, less than the ${s(plan.maxRequestSeconds)} longest request: `
            + 'long generations are cut mid-stream, during rollouts and in steady state.'
        : `The load balancer cuts any response after ${s(now)}${unset}: that covers the ${s(plan.maxRequestSeconds)} longest request but not `
            + `the headroom the plan gives it (${target.why}), so a request slower than the estimate is cut.`,
      fix,
    );
  } else {
    report(
      check,
      policy,
      'gateway-draining-too-short',
      'warning',
      where,
      `Once the pod\u2019s endpoint leaves the load balancer, which can be soon after deletion, requests still in flight get ${s(now)}${unset} `
        + `to finish, while the pod keeps serving them for up to ${s(target.seconds)} (${target.why}): long requests can be cut before the pod\u2019s own drain ends.`,
      fix,
    );
  }
}

function checkRoute(check: CheckContext, route: ManifestObject, planFor: PlanFor): void {
  const rules = valueAt(route.value, ['spec', 'rules']);
  if (!Array.isArray(rules)) return;
  rules.forEach((rule, i) => {
    if (!isRecord(rule) || !Array.isArray(rule.backendRefs)) return;
    const pool = rule.backendRefs.find((b) => isRecord(b) && b.kind === 'InferencePool');
    if (!isRecord(pool)) return;
    const plan = planFor(
      typeof pool.name === 'string' ? pool.name : undefined,
      typeof pool.namespace === 'string' ? pool.namespace : route.namespace,
    );
    if (!plan) {
      report(
        check,
        route,
        'policy-target-elsewhere',
        'info',
        ['spec', 'rules', i, 'backendRefs'],
        `Rule ${i} sends requests to ${refName(pool)}, which is not an InferencePool in the input, so its timeouts were not checked against any workload here; check it with that pool's manifests.`,
      );
      return;
    }
    for (const key of ['request', 'backendRequest'] as const) {
      const raw = valueAt(rule, ['timeouts', key]);
      if (raw === undefined) continue;
      const path = ['spec', 'rules', i, 'timeouts', key];
      const seconds = typeof raw === 'string' ? parseDuration(raw) : undefined;
      if (seconds === undefined) {
        report(
          check,
          route,
          'value-unreadable',
          'info',
          path,
          `timeouts.${key} is ${quote(raw)}, not a Gateway API duration such as 300s.`,
        );
      } else if (seconds > 0 && seconds < plan.maxRequestSeconds) {
        // The same value a gateway policy of the plan's gateway gets, when there is one.
        const planned = plan.gatewayRequestTimeoutSeconds;
        const target = planned ? planned : plan.maxRequestSeconds;
        const why = planned
          ? formulaOf(plan, 'gatewayRequestTimeoutSeconds')
          : `longest request: ${formulaOf(plan, 'maxRequestSeconds')}`;
        report(
          check,
          route,
          'gateway-timeout-too-short',
          'error',
          path,
          `The route times out ${key === 'request' ? 'a request' : 'each backend request'} after ${raw}, less than the ${s(plan.maxRequestSeconds)} longest request: `
            + 'long generations are cut mid-stream, during rollouts and in steady state.',
          { text: `${key}: ${target}s # ${why}`, edits: [setEdit(route, path, `${target}s`, ` ${why}`)] },
        );
      }
    }
  });
}

/** Check every gateway policy and route in the manifest. */
export function checkGatewayTimeouts(check: CheckContext, planFor: PlanFor): void {
  const settings = policySettings(check.profiles);
  for (const policy of check.located.policies) {
    const ref = valueAt(policy.value, ['spec', 'targetRef']);
    const poolName =
      isRecord(ref) && ref.kind === 'InferencePool' && typeof ref.name === 'string' ? ref.name : undefined;
    const plan = planFor(poolName, policy.namespace);
    if (!plan) {
      // Aimed at another pool or at a Service: sized for (and fixed to) a workload the input does not hold.
      report(
        check,
        policy,
        'policy-target-elsewhere',
        'info',
        ['spec', 'targetRef'],
        `${policy.kind}/${policy.name} targets ${refName(ref)}, which is not an InferencePool in the input, so it applies to none of the pools here `
          + 'and was neither checked nor fixed; check it with the manifests of what it targets.',
      );
      continue;
    }
    for (const setting of settings.filter((x) => x.kind === policy.kind)) checkSetting(check, policy, setting, plan);
  }
  for (const route of check.located.routes) checkRoute(check, route, planFor);
}

/** Whether a policy's targetRef names this InferencePool (in its namespace). */
function targetsPool(policy: ManifestObject, pool: Pool): boolean {
  const ref = valueAt(policy.value, ['spec', 'targetRef']);
  return (
    isRecord(ref) && ref.kind === 'InferencePool' && ref.name === pool.object.name && sameNamespace(policy, pool.object)
  );
}

/** What the gateway does to a pool's requests at one setting's default, in a clause. */
function atDefault(setting: PolicySetting, plan: Plan): string {
  if (setting.role === 'requestTimeout') {
    return (
      `the load balancer cuts any response after ${s(setting.defaultSeconds)} (the ${setting.setting} default)`
      + (setting.defaultSeconds < plan.maxRequestSeconds
        ? `, less than the ${s(plan.maxRequestSeconds)} longest request: long generations are cut mid-stream, in steady state as well as during rollouts`
        : '')
    );
  }
  const serving = plan.preStopSeconds + plan.drainSeconds;
  return (
    `once a terminating pod\u2019s endpoint leaves the load balancer, requests in flight get ${s(setting.defaultSeconds)} to finish `
    + `(the ${setting.setting} default), while the pod serves them for up to ${s(serving)} (${s(plan.preStopSeconds)} preStop + ${s(plan.drainSeconds)} drain)`
  );
}

/** Stand-ins for a pool's name and namespace in a policy written once and reused for other pools. */
const NAME_MARK = 'hitlessmarkofthepoolname';
const NAMESPACE_MARK = 'hitlessmarkofthenamespace';

/** Policies written with the stand-ins, by profiles, then by kind, namespace kept or not, and the other values. */
const writtenPolicies = new WeakMap<Profiles, Map<string, string[]>>();

/** Whether YAML writes this name as itself (plain, unquoted): only then can it replace a stand-in in written text. */
function writesAsItself(name: string): boolean {
  return (
    /^[a-z][-a-z0-9]*$/.test(name)
    && !name.includes(NAME_MARK)
    && !name.includes(NAMESPACE_MARK)
    && new Document(name, DOCUMENT_OPTIONS).toString(TO_STRING) === `${name}\n`
  );
}

/**
 * The generator's policies of one kind for a pool (`inputs` name the pool), as YAML text, without a namespace when
 * `keepNamespace` is false. Writing a policy is most of what this rule costs on a large input, and policies for pools
 * with the same plan differ only in the pool's name and namespace: one is written with stand-ins and reused.
 */
function policyTexts(
  plan: Plan,
  inputs: DrainInputs,
  kind: string,
  keepNamespace: boolean,
  profiles: Profiles,
): string[] {
  const write = (name: string, namespace: string) =>
    extraManifestDocuments(plan, { ...inputs, name, namespace }, profiles)
      .filter((extra) => extra.kind === kind)
      .map((extra) => {
        if (!keepNamespace) extra.document.deleteIn(['metadata', 'namespace']);
        return documentText(extra.document);
      });
  if (!writesAsItself(inputs.name) || !writesAsItself(inputs.namespace)) return write(inputs.name, inputs.namespace);
  const written = writtenPolicies.get(profiles) ?? new Map<string, string[]>();
  writtenPolicies.set(profiles, written);
  const key = `${kind}\n${keepNamespace}\n${extraValuesKey(plan, inputs, profiles)}`;
  let texts = written.get(key);
  if (!texts) {
    // A few plans per input at most; the bound only keeps memory flat on an input with many.
    if (written.size >= 64) written.clear();
    texts = write(NAME_MARK, NAMESPACE_MARK);
    written.set(key, texts);
  }
  return texts.map((text) => text.replaceAll(NAME_MARK, inputs.name).replaceAll(NAMESPACE_MARK, inputs.namespace));
}

/** The plan and inputs for a pool with no workload in the manifest. */
export interface FallbackFor {
  plan: () => Plan;
  inputs: DrainInputs;
}

/**
 * gateway-policy-missing: the check's gateway sizes a request timeout or connection draining in a policy (GKE's
 * GCPBackendPolicy), and no policy of that kind targets a pool in the manifest, so the gateway's defaults apply. The
 * fix is the generator's own policy for that pool, from the same emitter. A warning when the reader chose the gateway
 * or the manifest names it; a note, whose policy is not written into the fixed manifest, when the gateway is only the
 * default, which may not be the reader's.
 */
export function checkGatewayPolicyMissing(
  check: CheckContext,
  contexts: WorkloadContext[],
  gateway: CheckedFor,
  fallback: FallbackFor,
): void {
  const settings = policySettings(check.profiles).filter((p) => p.gateway.id === gateway.gateway);
  const kinds = [...new Set(settings.map((p) => p.kind))];
  if (kinds.length === 0) return;
  let added = documentCount(check.manifest);
  for (const pool of check.located.pools) {
    if (!pool.current) continue;
    const ctx = contexts.find(
      (c) => sameNamespace(pool.object, c.object) && selects(pool.selector, c.workload.serving.labels),
    );
    const plan = ctx?.plan ?? fallback.plan();
    const base = ctx?.inputs ?? fallback.inputs;
    for (const kind of kinds) {
      if (check.located.policies.some((policy) => policy.kind === kind && targetsPool(policy, pool))) continue;
      const inputs: DrainInputs = {
        ...base,
        name: pool.object.name,
        namespace: pool.object.namespace ?? base.namespace,
      };
      // A pool without a namespace is applied to the reader's current one; so is its policy.
      const texts = policyTexts(plan, inputs, kind, pool.object.namespace !== undefined, check.profiles);
      if (texts.length === 0) continue;
      const effects = settings.filter((p) => p.kind === kind).map((p) => atDefault(p, plan));
      const assumed =
        gateway.source === 'default'
          ? `If your gateway is ${gateway.name} (the checker\u2019s default; choose yours in the settings or with --gateway): `
          : '';
      const message =
        `${assumed}No ${kind} targets InferencePool/${pool.object.name}, so ${gateway.name}\u2019s defaults apply: ${effects.join('; and ')}. `
        + `Add the generator\u2019s ${kind} for this pool.`;
      // Only for a gateway the reader chose or the manifest names: the default may not be the reader's gateway, so
      // its policy is shown but not written into the fixed manifest.
      const edits =
        gateway.source === 'default'
          ? []
          : texts.map((text) => ({ op: 'add-document' as const, document: added++, path: [], value: text }));
      const fix = { text: texts.join('---\n').trimEnd(), edits };
      report(
        check,
        pool.object,
        'gateway-policy-missing',
        gateway.source === 'default' ? 'info' : 'warning',
        ['metadata', 'name'],
        message,
        fix,
      );
    }
  }
}
