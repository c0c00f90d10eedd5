/**
 * The values a fixed manifest carries for one workload. Each one keeps the reader's value where it is at
 * least the plan's, and otherwise takes the plan's; sums follow the drain model's invariant
 * `grace = preStop + drain + teardown`. The plan's own numbers are never recomputed here.
 */
import type { Plan } from '../../model/plan.ts';
import type { ModelServerProfile } from '../../facts/profiles.ts';
import { findFlag, type FlagUse } from './command-line.ts';
import { serverArgs, type Invocation } from './server-invocation.ts';
import {
  DEFAULT_GRACE_SECONDS,
  intField,
  intOr,
  readPreStop,
  type Container,
  type IntField,
  type PreStop,
} from './pod.ts';

/** The drain flag as the container sets it and as the fix sets it. */
export interface FlagTarget {
  flag: string;
  /** The server's own invocation, where the flag is read and written, or why it was not found. */
  invocation: Invocation;
  use?: FlagUse;
  /** Seconds in force now (the server's default when unset); `undefined` when the value is not a number. */
  now?: number;
  target: number;
}

/** Current and target values for one workload. */
export interface Targets {
  preStop: PreStop;
  /** Seconds the preStop hook delays SIGTERM: 0 without one, `undefined` when it cannot be told. */
  preStopNow?: number;
  preStopTarget: number;
  grace: IntField;
  graceNow: number;
  graceTarget: number;
  /** For servers with a drain flag, when the server is known. */
  flag?: FlagTarget;
}

function preStopSeconds(preStop: PreStop): number | undefined {
  if (preStop.kind === 'none') return 0;
  if (preStop.kind === 'exec-sleep') return preStop.seconds;
  return preStop.kind === 'sleep' && preStop.seconds.state === 'set' ? preStop.seconds.value : undefined;
}

/** Work out the current and target drain values of a workload's model-server container. */
export function computeTargets(
  container: Container,
  podSpec: Record<string, unknown>,
  server: ModelServerProfile,
  invocation: Invocation | undefined,
  plan: Plan,
): Targets {
  const preStop = readPreStop(container);
  const preStopNow = preStopSeconds(preStop);
  const preStopTarget =
    preStopNow !== undefined && preStopNow >= plan.preStopSeconds ? preStopNow : plan.preStopSeconds;
  const grace = intField(podSpec, 'terminationGracePeriodSeconds');
  const graceNow = intOr(grace, DEFAULT_GRACE_SECONDS);
  const graceTarget = Math.max(graceNow, preStopTarget + plan.drainSeconds + plan.teardownSeconds);
  let flag: FlagTarget | undefined;
  if (invocation && server.drain.kind === 'flag' && server.drain.flag) {
    const use = invocation.found ? findFlag(serverArgs(invocation), server.drain.flag) : undefined;
    const now = use
      ? use.value !== undefined && /^\d+$/.test(use.value)
        ? Number(use.value)
        : undefined
      : plan.drainFlagStatus === 'too-old' && server.drain.beforeFlagSeconds !== undefined
        ? server.drain.beforeFlagSeconds // a release before the flag: its fixed bound
        : (server.drain.defaultSeconds ?? 0);
    const room = graceTarget - preStopTarget - plan.teardownSeconds;
    const target = now === undefined || now < plan.drainSeconds ? plan.drainSeconds : Math.min(now, room);
    flag = { flag: server.drain.flag, invocation, use, now, target };
  }
  return { preStop, preStopNow, preStopTarget, grace, graceNow, graceTarget, flag };
}
