/**
 * The gateway side of the input as the gateway rules read it: each policy with the plan of the pool it targets, each
 * of its timeouts where the gateway profiles place them (GKE's GCPBackendPolicy), and each HTTPRoute rule that sends
 * to an InferencePool.
 */
import type { Plan } from '../../../model/plan.ts';
import { formatSeconds as s } from '../../../model/seconds.ts';
import { formulaOf, setFix, type InputContext } from '../context.ts';
import type { Severity } from '../findings.ts';
import { policySettings, type PolicySetting } from '../../workload/gateway-policies.ts';
import { isRecord, valueAt } from '../../read/path.ts';
import { intField } from '../../workload/pod.ts';
import type { ManifestObject } from '../../read/read-manifest.ts';

/** `Kind/name` of a targetRef or backendRef, for messages. */
export function refName(ref: unknown): string {
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

/** A gateway policy's targetRef, and the InferencePool it names: its name (undefined: none by name) and namespace. */
export function policyPool(policy: ManifestObject) {
  const ref = valueAt(policy.value, ['spec', 'targetRef']);
  const name = isRecord(ref) && ref.kind === 'InferencePool' && typeof ref.name === 'string' ? ref.name : undefined;
  return { ref, name, namespace: policy.namespace };
}

/** Each gateway policy of the input, its targetRef, and the plan of the pool it targets (undefined: not one here). */
export function policyPlans(ctx: InputContext) {
  return ctx.located.policies.map((policy) => {
    const { ref, name, namespace } = policyPool(policy);
    return { policy, ref, plan: ctx.planFor(name, namespace) };
  });
}

/** Each timeout setting of a policy that targets a pool of the input, as the policy sets it. */
export function policyTimeouts(ctx: InputContext) {
  const settings = policySettings(ctx.profiles);
  return policyPlans(ctx).flatMap(({ policy, plan }) =>
    plan
      ? settings
          .filter((x) => x.kind === policy.kind)
          .map((setting: PolicySetting) => ({
            policy,
            setting,
            plan,
            field: intField(valueAt(policy.value, setting.path.slice(0, -1)), setting.path.at(-1)!),
          }))
      : [],
  );
}

/** The seconds the plan gives a gateway setting, as `plannedSeconds` works them out. */
type PlannedSeconds = ReturnType<typeof plannedSeconds>;

/**
 * A verdict on each request timeout (`requestTimeout`), or each connection-draining timeout, of a policy that is set
 * or left at a default below what the plan needs; its fix is the plan's value. `judge` says how severe and what
 * happens, given the seconds in force and, for a default, ` (key unset: the N s default)`.
 */
export function shortPolicyTimeouts(
  ctx: InputContext,
  requestTimeout: boolean,
  judge: (now: number, unset: string, target: PlannedSeconds, plan: Plan) => { severity: Severity; message: string },
) {
  return policyTimeouts(ctx).flatMap(({ policy, setting, plan, field }) => {
    if ((setting.role === 'requestTimeout') !== requestTimeout || field.state === 'bad') return [];
    const now = field.state === 'set' ? field.value : setting.defaultSeconds;
    const target = plannedSeconds(plan, setting);
    if (now >= target.needed || now >= setting.maxSeconds) return [];
    const unset =
      field.state === 'set' ? '' : ` (${setting.path.at(-1)} unset: the ${s(setting.defaultSeconds)} default)`;
    return [
      {
        ...judge(now, unset, target, plan),
        object: policy,
        path: field.state === 'set' ? setting.path : ['spec'],
        planned: setFix(policy, setting.path, target.seconds, target.why),
      },
    ];
  });
}

/**
 * Each rule of an HTTPRoute that sends requests to an InferencePool: its index, that backendRef, and the pool's name
 * (undefined: none by name) and namespace.
 */
export function routePools(route: ManifestObject) {
  const rules = valueAt(route.value, ['spec', 'rules']);
  return (Array.isArray(rules) ? rules : []).flatMap((rule, index) => {
    if (!isRecord(rule) || !Array.isArray(rule.backendRefs)) return [];
    const pool = rule.backendRefs.find((b) => isRecord(b) && b.kind === 'InferencePool');
    if (!isRecord(pool)) return [];
    const name = typeof pool.name === 'string' ? pool.name : undefined;
    const namespace = typeof pool.namespace === 'string' ? pool.namespace : route.namespace;
    return [{ route, index, rule, pool, name, namespace }];
  });
}

/** Each HTTPRoute rule that sends requests to an InferencePool: its index, that backendRef and the pool's plan. */
export function routeRules(ctx: InputContext) {
  return ctx.located.routes.flatMap((route) =>
    routePools(route).map((found) => ({ ...found, plan: ctx.planFor(found.name, found.namespace) })),
  );
}
