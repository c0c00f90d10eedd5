/**
 * The lab's workload: a seeded mix of streamed completions at a steady rate. Lengths are in model
 * seconds (see scale.ts). The mix is lab-sized: the longest request is 300 tokens at 100 ms per token,
 * 30 model seconds, so a plan for it (drain 45 s, grace under 100 s) replays in seconds of wall time.
 */
import { pickWeighted, seededRandom } from './rng.ts';

export interface MixEntry {
  maxTokens: number;
  weight: number;
}

/** Output lengths and their shares: most requests short, one in ten as long as the longest. */
export const LAB_MIX: readonly MixEntry[] = [
  { maxTokens: 20, weight: 0.3 },
  { maxTokens: 50, weight: 0.3 },
  { maxTokens: 100, weight: 0.2 },
  { maxTokens: 200, weight: 0.1 },
  { maxTokens: 300, weight: 0.1 },
];

/** Model milliseconds per output token in the stand-in (no batching, so no prefill overhead). */
export const LAB_TPOT_MS = 100;

/** Requests per model second across all pods: 60 per wall second, 2 per model second per pod. */
export const LAB_RATE_PER_SECOND = 6;

/** Model seconds of steady load before the pod is deleted. */
export const LAB_WARMUP_SECONDS = 10;

/** Model seconds a request with `maxTokens` output tokens streams for. */
export function requestSeconds(maxTokens: number): number {
  return (maxTokens * LAB_TPOT_MS) / 1000;
}

/** The longest request of the mix, in model seconds. */
export function longestSeconds(): number {
  return Math.max(...LAB_MIX.map((m) => requestSeconds(m.maxTokens)));
}

/** One scheduled request. Times are model seconds relative to the pod's deletion. */
export interface ScheduledRequest {
  id: number;
  at: number;
  maxTokens: number;
  seconds: number;
}

/** What to schedule: arrivals at the lab's rate from `from` (inclusive) to `to` (exclusive). */
export interface ScheduleOptions {
  seed: number;
  from: number;
  to: number;
  /** Leave out requests that would still stream after this time (the run's end). */
  horizon?: number;
}

/**
 * The seeded schedule. Every arrival draws its length from the mix, even one left out by the
 * horizon, so the lengths of the others do not depend on the horizon. Bounded by (to − from) × rate.
 */
export function buildSchedule(options: ScheduleOptions): ScheduledRequest[] {
  const random = seededRandom(options.seed);
  const count = Math.max(0, Math.ceil((options.to - options.from) * LAB_RATE_PER_SECOND - 1e-9));
  const schedule: ScheduledRequest[] = [];
  for (let i = 0; i < count; i++) {
    const at = Math.round((options.from + i / LAB_RATE_PER_SECOND) * 1000) / 1000;
    const { maxTokens } = pickWeighted(random, LAB_MIX);
    const seconds = requestSeconds(maxTokens);
    if (options.horizon !== undefined && at + seconds > options.horizon) continue;
    schedule.push({ id: i + 1, at, maxTokens, seconds });
  }
  return schedule;
}
