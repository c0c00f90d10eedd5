/** The bench's main-thread work figure, from a Chromium trace (scripts/bench.ts, measureMainThreadWork). */

/** The fields of a Chromium trace event that blockingWork reads. */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; beginData?: { url?: string } };
}

/**
 * The blocking work in one page load, from a Chromium trace at phone size: every main-thread task after the first
 * one that parses the page, weighed as Lighthouse's simulation weighs a task (4 × its time, 2 × for a task that
 * lays out, less the 50 ms a task may take without blocking), but with the task's CPU time, not its wall time.
 * Also the longest task's CPU time. `undefined` when the trace has no first contentful paint or main thread.
 */
export function blockingWork(events: TraceEvent[]): { weighed: number; longest: number } | undefined {
  const fcp = events.find((e) => e.name === 'firstContentfulPaint');
  if (!fcp) return undefined;
  const main = events.find((e) => e.name === 'thread_name' && e.pid === fcp.pid && e.args?.name === 'CrRendererMain');
  if (!main) return undefined;
  const onMain = events
    .filter((e) => e.ph === 'X' && e.pid === main.pid && e.tid === main.tid)
    .sort((a, b) => a.ts - b.ts);
  const tasks: TraceEvent[] = [];
  let end = 0;
  for (const e of onMain) {
    if (e.name !== 'RunTask' || e.ts < end) continue;
    tasks.push(e);
    end = e.ts + (e.dur ?? 0);
  }
  const within = (t: TraceEvent, name: string, test: (e: TraceEvent) => boolean = () => true) =>
    onMain.some((e) => e.name === name && e.ts >= t.ts && e.ts < t.ts + (t.dur ?? 0) && test(e));
  const firstParse = tasks.findIndex((t) =>
    within(t, 'ParseHTML', (e) => /^https?:/.test(e.args?.beginData?.url ?? '')),
  );
  let weighed = 0;
  let longest = 0;
  for (const t of tasks.slice(firstParse + 1)) {
    const cpuMs = (t.tdur ?? t.dur ?? 0) / 1000;
    weighed += Math.max(0, (within(t, 'Layout') ? 2 : 4) * cpuMs - 50);
    longest = Math.max(longest, cpuMs);
  }
  return { weighed, longest };
}
