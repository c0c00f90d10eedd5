/**
 * gateway-policy-missing: the check's gateway sizes a request timeout or connection draining in a policy (GKE's
 * GCPBackendPolicy), and no policy of that kind targets a pool in the manifest, so the gateway's defaults apply. The
 * fix is the generator's own policy for that pool, from the same emitter. A warning when the reader chose the gateway
 * or the manifest names it; a note, whose policy is not written into the fixed manifest, when the gateway is only the
 * default, which may not be the reader's.
 */
import { Document } from 'yaml';
import { documentText } from '../../../emit/files.ts';
import { extraManifestDocuments, extraValuesKey } from '../../../emit/gateway-objects.ts';
import { DOCUMENT_OPTIONS, TO_STRING } from '../../../emit/options.ts';
import type { Profiles } from '../../../facts/profiles.ts';
import type { Plan } from '../../../model/plan.ts';
import type { DrainInputs } from '../../../model/resolve.ts';
import { formatSeconds as s } from '../../../model/seconds.ts';
import { policySettings, type PolicySetting } from '../../workload/gateway-policies.ts';
import { poolSelects, sameNamespace, type Pool } from '../../workload/locate.ts';
import { documentCount, type ManifestObject } from '../../read/read-manifest.ts';
import { policyPool } from '../shared/gateway.ts';
import { defineRule, type PlannedVerdict } from '../rule.ts';

export const rule = defineRule({
  code: 'gateway-policy-missing',
  order: 270,
  scope: 'manifest',
  severity: { warning: '', info: 'when the gateway is only the checker\u2019s default' },
  summary:
    'No policy of the kind the gateway needs (GKE\u2019s GCPBackendPolicy) targets the InferencePool, so its 30 s response timeout and 0 s connection draining apply; the fix is the generator\u2019s policy.',
  remediation: 'Add the generator\u2019s policy for the pool (the fix shows it).',
  remedy: 'applied',
  fixtureSettings: { gateway: 'gke' },
  check: (ctx) => {
    const { checkedFor: gateway, contexts, fallback } = ctx;
    const verdicts: PlannedVerdict[] = [];
    const settings = policySettings(ctx.profiles).filter((p) => p.gateway.id === gateway.gateway);
    const kinds = [...new Set(settings.map((p) => p.kind))];
    let added = documentCount(ctx.manifest);
    for (const pool of kinds.length === 0 ? [] : ctx.located.pools) {
      if (!pool.current) continue;
      const workload = contexts.find((c) => poolSelects(pool, c.workload));
      const plan = workload?.plan ?? fallback.plan();
      const base = workload?.inputs ?? fallback.inputs;
      for (const kind of kinds) {
        if (ctx.located.policies.some((policy) => policy.kind === kind && targetsPool(policy, pool))) continue;
        const inputs: DrainInputs = {
          ...base,
          name: pool.object.name,
          namespace: pool.object.namespace ?? base.namespace,
        };
        // A pool without a namespace is applied to the reader's current one; so is its policy.
        const texts = policyTexts(plan, inputs, kind, pool.object.namespace !== undefined, ctx.profiles);
        if (texts.length === 0) continue;
        const effects = settings.filter((p) => p.kind === kind).map((p) => atDefault(p, plan));
        const assumed =
          gateway.source === 'default'
            ? `If your gateway is ${gateway.name} (the checker\u2019s default; choose yours in the settings or with --gateway): `
            : '';
        // Only for a gateway the reader chose or the manifest names: the default may not be the reader's gateway, so
        // its policy is shown but not written into the fixed manifest.
        const edits =
          gateway.source === 'default'
            ? []
            : texts.map((text) => ({ op: 'add-document' as const, document: added++, path: [], value: text }));
        verdicts.push({
          severity: gateway.source === 'default' ? 'info' : 'warning',
          object: pool.object,
          path: ['metadata', 'name'],
          message:
            `${assumed}No ${kind} targets InferencePool/${pool.object.name}, so ${gateway.name}\u2019s defaults apply: ${effects.join('; and ')}. `
            + `Add the generator\u2019s ${kind} for this pool.`,
          planned: { text: texts.join('---\n').trimEnd(), edits },
        });
      }
    }
    return verdicts;
  },
  fix: (_ctx, verdict) => verdict.planned,
});

/** Whether a policy's targetRef names this InferencePool (in its namespace). */
function targetsPool(policy: ManifestObject, pool: Pool): boolean {
  return policyPool(policy).name === pool.object.name && sameNamespace(policy, pool.object);
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
