/**
 * The live status: one line redrawn in place on a TTY (every half second), or a plain line every few
 * seconds when stderr is a pipe or a file (CI logs, `kubectl logs`).
 */
import type { LoadStats } from './load.ts';
import { ttftSummary } from './report.ts';

/** Seconds between status lines when stderr is not a terminal. */
const PLAIN_EVERY_SECONDS = 5;

/** The status line: elapsed, sent, in flight, each outcome, TTFT p50/p99 (of the last 5,000 first tokens). */
export function statusLine(elapsedSeconds: number, stats: LoadStats): string {
  const c = stats.counts;
  const ttft = ttftSummary(stats.ttftMs.slice(-5000));
  return (
    `${elapsedSeconds.toFixed(0).padStart(4)} s  sent ${stats.sent}  in flight ${stats.inFlight}  ok ${c.ok}  refused ${c.refused}  cut ${c.cut}`
    + `  aborted ${c.aborted}  timeout ${c.timeout}  ttft p50 ${ttft ? `${Math.round(ttft.p50)} ms` : '–'} p99 ${ttft ? `${Math.round(ttft.p99)} ms` : '–'}`
    + (stats.skipped ? `  skipped ${stats.skipped}` : '')
  );
}

/** Start printing status to `out`; returns a function that stops it (and ends the TTY line). */
export function startStatus(out: NodeJS.WriteStream, stats: LoadStats, zeroMs: number): () => void {
  const tty = out.isTTY === true;
  const draw = () => {
    const line = statusLine((performance.now() - zeroMs) / 1000, stats);
    // Cut to the terminal's width so the line never wraps (a wrapped line would not be redrawn in place).
    const width = out.columns && out.columns > 20 ? out.columns - 1 : 200;
    if (tty) out.write(`\r\x1b[2K${line.slice(0, width)}`);
    else out.write(`${line}\n`);
  };
  const timer = setInterval(draw, tty ? 500 : PLAIN_EVERY_SECONDS * 1000);
  timer.unref();
  return () => {
    clearInterval(timer);
    if (tty) {
      draw();
      out.write('\n');
    }
  };
}
