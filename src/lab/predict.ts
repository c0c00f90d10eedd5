/**
 * What the drain model predicts for a lab setup, as plain arithmetic on its numbers (model seconds):
 * when the pod stops getting requests, when it stops accepting them, and how many requests fall in
 * between (refused) or are still running when the server gives up or the kubelet kills it (cut or
 * aborted). Counts are expected values for a steady arrival rate λ per pod and the request mix; the
 * lab asserts only what the model is sure of: zero, or clearly more than zero.
 */
import { terminationTimes } from './kubelet-rules.ts';
import { LAB_MIX, LAB_RATE_PER_SECOND, LAB_WARMUP_SECONDS, requestSeconds } from './load-mix.ts';
import type { LabSetup } from './setup.ts';

export interface Range {
  min: number;
  max: number;
}

export interface Prediction {
  /** When the load balancer stops sending the pod new requests. */
  routeStop: Range;
  /** When the pod stops accepting requests (SIGTERM). */
  stopAccepting: number;
  sigkill: number;
  refused: Range;
  /** Requests lost at the back: when, and how. */
  back: { at: number; outcome: 'cut' | 'aborted'; count: Range } | null;
  lost: Range;
  /**
   * The pod is still up at this time (model seconds), or null when the model says nothing about it: a server
   * that waits for open connections (Triton) with an idle one held open spends its whole drain budget.
   */
  upUntil: number | null;
  /** none: the model says 0 are lost; loss: it says some surely are; either: too close to call. */
  expect: 'none' | 'loss' | 'either';
}

/** Requests the lab's model predicts at or above this count are "surely" lost. */
const SURE_LOSS_COUNT = 3;

/**
 * When routing stops. A push removes the pod at its time. Checks notice once the pod fails them
 * (from the preStop when it fails its health check, else from SIGTERM, when it closes its port):
 * HAProxy's first check falls anywhere in one interval, so it marks the pod down between
 * (fall − 1) and fall intervals later; the model's bound for a health-check-only gateway is its
 * removal p99 (interval × threshold + timeout + propagation).
 */
function routeStop(setup: LabSetup): Range {
  const sigterm = terminationTimes(setup.preStopSeconds, setup.graceSeconds).sigterm;
  let min = setup.pushSeconds ?? Infinity;
  let max = setup.pushSeconds ?? Infinity;
  if (setup.checks) {
    const failFrom = setup.preStopFailsHealth ? 0 : sigterm;
    const c = setup.checks;
    const upper =
      setup.mechanism === 'health-check' ? setup.planRemovalSeconds : c.fall * c.intervalSeconds + c.timeoutSeconds;
    min = Math.min(min, failFrom + (c.fall - 1) * c.intervalSeconds);
    max = Math.min(max, failFrom + upper);
  }
  return { min, max };
}

/**
 * Requests arriving in [−warmup, lastAccepted) still running at time `at`, for rate λ:
 * λ × Σ over the mix of share × max(0, lastAccepted − max(−warmup, at − length)).
 */
export function runningAt(at: number, lastAccepted: number, lambda: number): number {
  const total = LAB_MIX.reduce((s, m) => s + m.weight, 0);
  let sum = 0;
  for (const m of LAB_MIX) {
    const from = Math.max(-LAB_WARMUP_SECONDS, at - requestSeconds(m.maxTokens));
    sum += (m.weight / total) * Math.max(0, lastAccepted - from);
  }
  return lambda * sum;
}

/** When the server itself stops serving running requests, and how they end then. */
export function serverGivesUp(setup: LabSetup, sigterm: number): { at: number; outcome: 'cut' | 'aborted' } {
  const s = setup.shutdown;
  if (s.mode === 'exit') return { at: sigterm, outcome: 'cut' };
  if (s.mode === 'abort') return { at: sigterm, outcome: 'aborted' };
  return { at: s.boundSeconds === null ? Infinity : sigterm + s.boundSeconds, outcome: s.afterBound };
}

/** The prediction for a setup under the lab's load (rate, mix, warmup). */
export function predict(setup: LabSetup): Prediction {
  const times = terminationTimes(setup.preStopSeconds, setup.graceSeconds);
  const stopAccepting = times.sigterm;
  const stop = routeStop(setup);
  // The arrival rate per pod, per model second: the load spreads over 3 pods, or 4 while a surge pod is up.
  const lambda = LAB_RATE_PER_SECOND / (setup.rolling === 'surge-first' ? 4 : 3);
  // A range from the earliest and the latest time routing stops.
  const byStop = (f: (routeStop: number) => number): Range => ({ min: f(stop.min), max: f(stop.max) });
  const refused = byStop((t) => lambda * Math.max(0, t - stopAccepting));
  const givesUp = serverGivesUp(setup, stopAccepting);
  const gatewayCloses =
    setup.pushSeconds !== null && setup.gatewayDrainingSeconds !== null
      ? setup.pushSeconds + setup.gatewayDrainingSeconds
      : Infinity;
  const cutFirst = Math.min(times.sigkill, gatewayCloses);
  const at = Math.min(givesUp.at, cutFirst);
  const back = Number.isFinite(at)
    ? {
        at,
        outcome: cutFirst < givesUp.at ? ('cut' as const) : givesUp.outcome,
        count: byStop((t) => runningAt(at, Math.min(t, stopAccepting), lambda)),
      }
    : null;
  const lost = { min: refused.min + (back?.count.min ?? 0), max: refused.max + (back?.count.max ?? 0) };
  const expect = lost.max === 0 ? 'none' : lost.min >= SURE_LOSS_COUNT ? 'loss' : 'either';
  const holdsBudget =
    setup.idleConnections > 0 && setup.shutdown.waitsFor === 'connections' && setup.shutdown.mode === 'drain';
  const upUntil =
    holdsBudget && setup.shutdown.boundSeconds !== null
      ? Math.min(stopAccepting + setup.shutdown.boundSeconds, times.sigkill)
      : null;
  return { routeStop: stop, stopAccepting, sigkill: times.sigkill, refused, back, lost, upUntil, expect };
}

/** Model seconds of slack on a measured exit time (timers and a stalled host may shift it a little). */
const EXIT_SLACK_SECONDS = 1;

/** Whether a measured exit time (model seconds after the deletion) contradicts the prediction. */
export function exitContradicts(prediction: Pick<Prediction, 'upUntil'>, exitSeconds: number | null): boolean {
  return prediction.upUntil !== null && exitSeconds !== null && exitSeconds < prediction.upUntil - EXIT_SLACK_SECONDS;
}

/** Whether observed losses contradict the prediction. */
export function contradicts(expect: Prediction['expect'], lost: number): boolean {
  return (expect === 'none' && lost > 0) || (expect === 'loss' && lost === 0);
}
