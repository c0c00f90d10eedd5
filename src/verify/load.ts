/**
 * The open-loop load: one request every 1/rate seconds until told to stop, never more than
 * `concurrency` in flight (an arrival that finds the limit reached is skipped and counted, so the
 * client never queues work the endpoint did not ask for). Keeps running counts for the status line.
 */
import { zeroCounts, type VerifyOutcome } from './outcome.ts';
import { sendRequest, type InFlight, type RawResponse, type RequestResult, type RequestTarget } from './request.ts';

export interface LoadOptions {
  target: RequestTarget;
  ratePerSecond: number;
  concurrency: number;
  /** Tests only: every raw response, to compare with another classifier. */
  onRaw?: (id: number, raw: RawResponse) => void;
  /** Called once if sending stops because MAX_ARRIVALS was reached. */
  onLimit?: () => void;
}

/** Live numbers of a running load. */
export interface LoadStats {
  sent: number;
  inFlight: number;
  skipped: number;
  cancelled: number;
  counts: Record<VerifyOutcome, number>;
  /** Times to first token so far, ms, in arrival order. */
  ttftMs: number[];
  /** Longest ok request so far, ms. */
  longestOkMs: number;
}

export interface Load {
  readonly stats: LoadStats;
  /** performance.now() when the load started: every time in the results is relative to it. */
  readonly zeroMs: number;
  /** Stop sending new requests (idempotent). */
  stopSending(): void;
  /** Stop every request in flight (they count as cancelled, not as an outcome). */
  cancelInFlight(): void;
  /** Resolves with every request's result once sending stopped and nothing is in flight. */
  readonly finished: Promise<RequestResult[]>;
}

/** Most arrivals sent at once when the timer fires late (a stalled client catches up, bounded). */
const MAX_CATCH_UP = 1000;

/** Most arrivals in one run: every request's result is kept for the report, so memory bounds the run. */
export const MAX_ARRIVALS = 1_000_000;

export function startLoad(options: LoadOptions): Load {
  const zeroMs = performance.now();
  const intervalMs = 1000 / options.ratePerSecond;
  const stats: LoadStats = {
    sent: 0,
    inFlight: 0,
    skipped: 0,
    cancelled: 0,
    counts: zeroCounts(),
    ttftMs: [],
    longestOkMs: 0,
  };
  const results: RequestResult[] = [];
  const running = new Set<InFlight>();
  let arrivals = 0;
  let sending = true;
  let timer: NodeJS.Timeout | undefined;
  const { promise: finished, resolve: resolveFinished } = Promise.withResolvers<RequestResult[]>();
  const maybeFinish = () => {
    if (!sending && running.size === 0) resolveFinished(results.sort((a, b) => a.id - b.id));
  };
  const launch = () => {
    const id = ++arrivals;
    if (running.size >= options.concurrency) {
      stats.skipped++;
      return;
    }
    stats.sent++;
    const flight = sendRequest(options.target, id, zeroMs, options.onRaw);
    running.add(flight);
    stats.inFlight = running.size;
    void flight.done.then((result) => {
      running.delete(flight);
      stats.inFlight = running.size;
      results.push(result);
      if (result.cancelled) stats.cancelled++;
      else {
        stats.counts[result.outcome]++;
        if (result.ttftMs !== null) stats.ttftMs.push(result.ttftMs);
        if (result.outcome === 'ok') stats.longestOkMs = Math.max(stats.longestOkMs, result.endMs - result.startMs);
      }
      maybeFinish();
    });
  };
  const tick = () => {
    if (!sending) return;
    const due = Math.min(MAX_ARRIVALS, Math.floor((performance.now() - zeroMs) / intervalMs) + 1);
    for (let n = 0; arrivals < due && n < MAX_CATCH_UP; n++) launch();
    if (arrivals < due) {
      // later than the catch-up allows: those arrivals are skipped, not queued
      stats.skipped += due - arrivals;
      arrivals = due;
    }
    if (arrivals >= MAX_ARRIVALS) {
      options.onLimit?.();
      sending = false;
      maybeFinish();
      return;
    }
    timer = setTimeout(tick, Math.max(0, zeroMs + arrivals * intervalMs - performance.now()));
  };
  tick();
  return {
    stats,
    zeroMs,
    finished,
    stopSending() {
      if (!sending) return;
      sending = false;
      clearTimeout(timer);
      maybeFinish();
    },
    cancelInFlight() {
      for (const flight of [...running]) flight.cancel();
    },
  };
}
