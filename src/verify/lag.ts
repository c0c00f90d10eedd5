/**
 * Event-loop lag monitor: a timer that should fire every 10 ms records how late it fires. A late
 * timer means the host stalled this process (another process took the CPU), which shifts every
 * timing the lab and `hitless verify` depend on, so such runs are flagged noisy (the lab repeats them).
 */

export interface LagMonitor {
  /** The worst lag since the last call, in ms, and reset it. */
  takeMax(): number;
  /** The worst lag since the start, in ms. */
  max(): number;
  stop(): void;
}

/** Lag above this many wall ms flags a run as noisy (a tenth of a model second would shift chunk timing visibly). */
export const LAG_NOISE_MS = 100;

export function startLagMonitor(tickMs = 10): LagMonitor {
  let last = performance.now();
  let windowMax = 0;
  let overallMax = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const lag = Math.max(0, now - last - tickMs);
    last = now;
    if (lag > windowMax) windowMax = lag;
    if (lag > overallMax) overallMax = lag;
  }, tickMs);
  timer.unref();
  return {
    takeMax() {
      const worst = windowMax;
      windowMax = 0;
      return worst;
    },
    max: () => overallMax,
    stop: () => clearInterval(timer),
  };
}
