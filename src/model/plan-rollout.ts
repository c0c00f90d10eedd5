/**
 * The cost of a whole rollout (drain model v2, "Rollout"): how many steps, the worst case for each and for all,
 * how many replicas serve during a step, and the PodDisruptionBudget that makes evictions follow the same pace.
 */
import type { DerivationStep, Plan } from './plan-types.ts';
import type { DrainInputs } from './resolve.ts';
import { formatSeconds } from './seconds.ts';

/**
 * The most cluster-autoscaler waits for a pod it evicts when it removes a node: its `--max-graceful-termination-sec`
 * flag, 600 s unless set (cluster-autoscaler FAQ, "What are the parameters to CA?").
 */
export const AUTOSCALER_GRACE_LIMIT_SECONDS = 600;

/**
 * The pod annotation that keeps cluster-autoscaler from removing the node a pod runs on (cluster-autoscaler FAQ,
 * "What types of pods can prevent CA from removing a node?": pods with this annotation set to "false";
 * https://github.com/kubernetes/autoscaler/blob/master/cluster-autoscaler/FAQ.md#what-types-of-pods-can-prevent-ca-from-removing-a-node). Every output
 * form puts it on the model-server pods when their grace period is longer than `AUTOSCALER_GRACE_LIMIT_SECONDS`.
 */
export const SAFE_TO_EVICT_ANNOTATION = 'cluster-autoscaler.kubernetes.io/safe-to-evict';

/** Whether the plan's pods carry the safe-to-evict "false" annotation: their grace is longer than the autoscaler waits. */
export function keepsNodesFromScaleDown(plan: Pick<Plan, 'terminationGracePeriodSeconds'>): boolean {
  return plan.terminationGracePeriodSeconds > AUTOSCALER_GRACE_LIMIT_SECONDS;
}

type RolloutFact = Pick<
  Plan,
  | 'rolloutSteps'
  | 'rolloutStepSeconds'
  | 'rolloutSeconds'
  | 'rolloutServingReplicas'
  | 'rolloutCapacityPercent'
  | 'podDisruptionBudget'
>;

/** The rollout numbers, and their derivation steps. */
export interface PlannedRollout {
  fact: RolloutFact;
  steps: DerivationStep[];
}

/** Plan the rollout for a strategy and grace period. */
export function planRollout(
  inputs: DrainInputs,
  strategy: Plan['strategy'],
  terminationGracePeriodSeconds: number,
): PlannedRollout {
  const perStep = Math.max(strategy.maxSurge, strategy.maxUnavailable);
  const rolloutSteps = Math.ceil(inputs.replicas / perStep);
  const rolloutStepSeconds = inputs.startupSeconds + terminationGracePeriodSeconds;
  const rolloutSeconds = rolloutSteps * rolloutStepSeconds;
  const rolloutServingReplicas = inputs.replicas - strategy.maxUnavailable;
  const rolloutCapacityPercent = Math.floor((rolloutServingReplicas * 100) / inputs.replicas);
  const podDisruptionBudget = inputs.podDisruptionBudget ? { maxUnavailable: 1 } : null;
  const steps: DerivationStep[] = [
    {
      field: 'rolloutSeconds',
      value: rolloutSeconds,
      formula:
        `${inputs.replicas} replicas / ${perStep} per step = ${rolloutSteps} step${rolloutSteps === 1 ? '' : 's'} `
        + `× (${formatSeconds(inputs.startupSeconds)} model load + ${formatSeconds(terminationGracePeriodSeconds)} grace)`,
      why:
        'The worst case for a whole rollout: a step can wait out a full grace period (the old pod\u2019s GPU is free only when it exits) '
        + 'and a full model load before the next step starts.',
    },
    {
      field: 'rolloutCapacity',
      value: `${rolloutServingReplicas} of ${inputs.replicas}`,
      formula: `${inputs.replicas} replicas \u2212 ${strategy.maxUnavailable} unavailable = ${rolloutServingReplicas} serving (${rolloutCapacityPercent}%)`,
      why:
        strategy.maxUnavailable === 0
          ? 'The new pod loads beside the old ones, so every replica keeps serving during a step.'
          : 'One replica is out for the whole step: the old pod drains, then its replacement loads. Size the others for the load.',
    },
    {
      field: 'podDisruptionBudget',
      value: podDisruptionBudget ? 'maxUnavailable 1' : 'off',
      formula: podDisruptionBudget
        ? 'evictions one pod at a time, as the rollout replaces them'
        : 'not emitted (pod-disruption-budget off)',
      why:
        'Node drains and cluster-autoscaler scale-downs evict pods through the eviction API, which the Deployment\u2019s rollout '
        + 'strategy does not limit; a budget of one makes each eviction wait until no other pod of the set is down.',
    },
  ];
  return {
    fact: {
      rolloutSteps,
      rolloutStepSeconds,
      rolloutSeconds,
      rolloutServingReplicas,
      rolloutCapacityPercent,
      podDisruptionBudget,
    },
    steps,
  };
}
