/**
 * The registry: every rule of the checker, in report order. `hitless rules` and the /checker/ page list them from
 * here, and tests/unit/check-rules.test.ts runs each one's fixtures. A new rule is a folder `rules/<code>/` (rule.ts,
 * fires.yaml, does-not-fire.yaml, and fixed.yaml when the checker writes its fix) plus one line below.
 */
import type { Rule } from './rule.ts';
import { rule as prestopMissing } from './prestop-missing/rule.ts';
import { rule as prestopTooShort } from './prestop-too-short/rule.ts';
import { rule as prestopExceedsGrace } from './prestop-exceeds-grace/rule.ts';
import { rule as prestopSleepUnsupported } from './prestop-sleep-unsupported/rule.ts';
import { rule as prestopUnreadable } from './prestop-unreadable/rule.ts';
import { rule as graceTooShort } from './grace-too-short/rule.ts';
import { rule as drainAbortsInFlight } from './drain-aborts-in-flight/rule.ts';
import { rule as drainFlagTooShort } from './drain-flag-too-short/rule.ts';
import { rule as drainFlagExceedsGrace } from './drain-flag-exceeds-grace/rule.ts';
import { rule as readinessMissing } from './readiness-missing/rule.ts';
import { rule as readinessPathDiffers } from './readiness-path-differs/rule.ts';
import { rule as livenessBeforeReadiness } from './liveness-before-readiness/rule.ts';
import { rule as startupMissing } from './startup-missing/rule.ts';
import { rule as startupTooShort } from './startup-too-short/rule.ts';
import { rule as progressDeadlineTooShort } from './progress-deadline-too-short/rule.ts';
import { rule as surgeWithoutSpareGpus } from './surge-without-spare-gpus/rule.ts';
import { rule as strategyRecreate } from './strategy-recreate/rule.ts';
import { rule as lwsWorkerGraceShorter } from './lws-worker-grace-shorter/rule.ts';
import { rule as lwsWorkerPrestopMissing } from './lws-worker-prestop-missing/rule.ts';
import { rule as valueOutOfRange } from './value-out-of-range/rule.ts';
import { rule as readinessTooTight } from './readiness-too-tight/rule.ts';
import { rule as poolSelectorMismatch } from './pool-selector-mismatch/rule.ts';
import { rule as poolPortNotExposed } from './pool-port-not-exposed/rule.ts';
import { rule as poolApiRemoved } from './pool-api-removed/rule.ts';
import { rule as gatewayTimeoutTooShort } from './gateway-timeout-too-short/rule.ts';
import { rule as gatewayDrainingTooShort } from './gateway-draining-too-short/rule.ts';
import { rule as gatewayPolicyMissing } from './gateway-policy-missing/rule.ts';
import { rule as modelServerUnknown } from './model-server-unknown/rule.ts';
import { rule as workloadSkipped } from './workload-skipped/rule.ts';
import { rule as valueUnreadable } from './value-unreadable/rule.ts';
import { rule as unknownKind } from './unknown-kind/rule.ts';
import { rule as noPool } from './no-pool/rule.ts';
import { rule as noWorkload } from './no-workload/rule.ts';
import { rule as serverInvocationUnknown } from './server-invocation-unknown/rule.ts';
import { rule as valueRejected } from './value-rejected/rule.ts';
import { rule as servingKindUnread } from './serving-kind-unread/rule.ts';
import { rule as shellSwallowsSigterm } from './shell-swallows-sigterm/rule.ts';
import { rule as policyTargetElsewhere } from './policy-target-elsewhere/rule.ts';
import { rule as sidecarServesPool } from './sidecar-serves-pool/rule.ts';

/** Every rule, in report order. */
export const RULES: readonly Rule[] = [
  prestopMissing,
  prestopTooShort,
  prestopExceedsGrace,
  prestopSleepUnsupported,
  prestopUnreadable,
  graceTooShort,
  drainAbortsInFlight,
  drainFlagTooShort,
  drainFlagExceedsGrace,
  readinessMissing,
  readinessPathDiffers,
  livenessBeforeReadiness,
  startupMissing,
  startupTooShort,
  progressDeadlineTooShort,
  surgeWithoutSpareGpus,
  strategyRecreate,
  lwsWorkerGraceShorter,
  lwsWorkerPrestopMissing,
  valueOutOfRange,
  readinessTooTight,
  poolSelectorMismatch,
  poolPortNotExposed,
  poolApiRemoved,
  gatewayTimeoutTooShort,
  gatewayDrainingTooShort,
  gatewayPolicyMissing,
  modelServerUnknown,
  workloadSkipped,
  valueUnreadable,
  unknownKind,
  noPool,
  noWorkload,
  serverInvocationUnknown,
  valueRejected,
  servingKindUnread,
  shellSwallowsSigterm,
  policyTargetElsewhere,
  sidecarServesPool,
];

/** The rule with a code, or undefined. */
export function ruleFor(code: string): Rule | undefined {
  return RULES.find((r) => r.code === code);
}
