/**
 * Run a prepared scenario several times: a run flagged noisy (host stall) or broken is repeated, up
 * to twice and only while the time budget lasts; then the median counts, the verdict against the
 * model's prediction, and the median run's timeline for the chart.
 */
import { OUTCOMES, zeroCounts, type Outcome } from './classify.ts';
import type { LabEvent } from './kubelet.ts';
import { contradicts, exitContradicts } from './predict.ts';
import type { Prepared } from './prepare.ts';
import type { LabResources } from './processes.ts';
import { runOnce, type RunResult } from './run.ts';
import { bucketOutcomes, median, type Timeline } from './timeline.ts';

/** One kept run, without its per-request records, events and pod log. */
export type RunSummary = Omit<RunResult, 'events' | 'records' | 'podLog'> & {
  /** Attempts it took (a noisy or broken attempt is repeated). */
  attempts: number;
  error?: string;
};

/** pass: as predicted; contradiction: the model said otherwise; not-asserted: too close to call; lab-error: no usable run. */
export type Verdict = 'pass' | 'contradiction' | 'not-asserted' | 'lab-error';

export interface ScenarioResult {
  prepared: Prepared;
  runs: RunSummary[];
  median: Record<Outcome, number> & { lost: number };
  verdict: Verdict;
  /** The median run (by lost requests): its timeline, events and the deleted pod's log. */
  timeline: Timeline;
  events: LabEvent[];
  podLog: LabEvent[];
}

/** Attempts per run at most (the first plus two repeats). */
const MAX_ATTEMPTS = 3;

export interface SuiteOptions {
  runs: number;
  seed: number;
  /** Repeats of noisy runs left, shared across scenarios (absent: no limit but MAX_ATTEMPTS). */
  repeatBudget?: { left: number };
  onRun?: (prepared: Prepared, index: number, run: RunSummary) => void;
}

/** A run as kept: its summary, and the run itself unless it failed. */
type Kept = { summary: RunSummary; run: RunResult | null };

/** Whether a run's losses or its pod's exit time contradict the model's prediction. */
function contradictsRun(prepared: Prepared, run: RunSummary): boolean {
  return contradicts(prepared.prediction.expect, run.lost) || exitContradicts(prepared.prediction, run.podExitSeconds);
}

/** A run as kept: without its records, events and pod log, with its attempts (the keys in the published order). */
function summarize(
  { events, records, podLog, flags, podExitSeconds, ...run }: RunResult,
  attempts: number,
): RunSummary {
  return { ...run, attempts, flags, podExitSeconds };
}

/** Run a prepared scenario `runs` times with seeds seed, seed + 1, …. */
export async function runScenario(
  resources: LabResources,
  prepared: Prepared,
  options: SuiteOptions,
): Promise<ScenarioResult> {
  const kept: Kept[] = [];
  for (let i = 0; i < options.runs; i++) {
    const seed = options.seed + i;
    let last: Kept | null = null;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      try {
        const run = await runOnce(resources, prepared.setup, prepared.shape, seed);
        last = { summary: summarize(run, attempt), run };
      } catch (error) {
        const failed = { seed, counts: zeroCounts(), lost: 0, noisy: false, maxLagMs: 0, wallMs: 0, attempts: attempt };
        last = { summary: { ...failed, flags: {}, podExitSeconds: null, error: (error as Error).message }, run: null };
      }
      const broken = last.summary.error !== undefined || last.summary.counts.error > 0;
      // A noisy run that contradicts the model is always repeated (within MAX_ATTEMPTS): a stall, not the
      // settings, may have caused it. Other noisy runs are repeated while the repeat budget lasts.
      const suspect = broken || (last.summary.noisy && contradictsRun(prepared, last.summary));
      if (!(broken || last.summary.noisy)) break;
      if (!suspect) {
        if (options.repeatBudget && options.repeatBudget.left <= 0) break;
        if (options.repeatBudget) options.repeatBudget.left--;
      }
    }
    kept.push(last!);
    options.onRun?.(prepared, i, last!.summary);
  }
  return conclude(prepared, kept);
}

function conclude(prepared: Prepared, kept: Kept[]): ScenarioResult {
  const runs = kept.map((k) => k.summary);
  const usable = kept.filter((k) => k.run && k.summary.counts.error === 0);
  const med = zeroCounts();
  for (const o of OUTCOMES) med[o] = median(usable.map((k) => k.summary.counts[o]));
  const lost = median(usable.map((k) => k.summary.lost));
  let verdict: Verdict;
  if (usable.length < kept.length || usable.length === 0) verdict = 'lab-error';
  else if (usable.some((k) => contradictsRun(prepared, k.summary))) verdict = 'contradiction';
  else verdict = prepared.prediction.expect === 'either' ? 'not-asserted' : 'pass';
  const byLost = [...usable].sort((a, b) => a.summary.lost - b.summary.lost);
  const middle = byLost[Math.floor((byLost.length - 1) / 2)]?.run ?? null;
  const shape = prepared.shape;
  return {
    prepared,
    runs,
    median: { ...med, lost },
    verdict,
    timeline: bucketOutcomes(middle?.records ?? [], -shape.warmup, Math.max(shape.horizon, shape.expectedExit)),
    events: middle?.events ?? [],
    podLog: middle?.podLog ?? [],
  };
}
