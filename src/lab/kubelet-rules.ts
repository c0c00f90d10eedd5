/**
 * The kubelet's termination rules, as pure arithmetic (kuberuntime killContainer): the preStop hook
 * runs with the whole grace period as its timeout and is abandoned when that runs out; SIGTERM follows
 * the hook; SIGKILL comes when the grace left after the hook runs out, but never sooner than 2 s after
 * SIGTERM (minimumGracePeriodInSeconds). All times are seconds after the deletion.
 */

/** The kubelet's floor on the time between SIGTERM and SIGKILL. */
const MIN_GRACE_AFTER_PRESTOP_SECONDS = 2;

export interface TerminationTimes {
  /** When the preStop hook ends, or is abandoned. */
  preStopEnd: number;
  /** True when the grace period ran out before the hook finished. */
  preStopCut: boolean;
  sigterm: number;
  sigkill: number;
}

/** SIGTERM at preStopEnd = min(preStop, grace); SIGKILL at preStopEnd + max(grace − preStopEnd, 2). */
export function terminationTimes(preStopSeconds: number, graceSeconds: number): TerminationTimes {
  const preStopEnd = Math.min(preStopSeconds, graceSeconds);
  return {
    preStopEnd,
    preStopCut: preStopSeconds > graceSeconds,
    sigterm: preStopEnd,
    sigkill: preStopEnd + Math.max(graceSeconds - preStopEnd, MIN_GRACE_AFTER_PRESTOP_SECONDS),
  };
}

export type RolloutOrder = 'surge-first' | 'replace-after';

/** maxSurge ≥ 1: start the new pod first; otherwise delete the old pod and start the new one once it is gone. */
export function rolloutOrder(strategy: { maxSurge: number; maxUnavailable: number }): RolloutOrder {
  return strategy.maxSurge >= 1 ? 'surge-first' : 'replace-after';
}
