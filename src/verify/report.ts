/**
 * The result of a verify run as plain data (what `--format json` prints and `--merge` reads), built
 * from the requests' results and the run's events, and the text summary. Headers are never part of it;
 * the URL is kept without user info, its query with each parameter's name and not its value (which may be a key).
 */
import { LAG_NOISE_MS } from './lag.ts';
import { refusalSummary } from './refusal.ts';
import { lostOf, VERIFY_OUTCOMES, zeroCounts, type VerifyOutcome } from './outcome.ts';
import type { RequestResult } from './request.ts';
import type { VerifyOptions } from './options.ts';

/** A timeline event, seconds after the run's start. */
export interface VerifyEvent {
  atSeconds: number;
  what: string;
}

/** One request in the report. Times are seconds after the run's start. */
export interface RequestRow {
  id: number;
  /** The shard that sent it (merged reports only). */
  shard?: number;
  start: number;
  end: number;
  outcome: VerifyOutcome | 'cancelled';
  status: number | null;
  ttftMs: number | null;
  detail: string | null;
}

/** The settings a run used (nothing secret): the run's options, its URL as `reportUrl` keeps it. */
export type RunSettings = Pick<
  VerifyOptions,
  'api' | 'model' | 'ratePerSecond' | 'concurrency' | 'durationSeconds' | 'maxTokens' | 'timeoutSeconds'
> & { url: string };

/** The report of one run or of merged shards. */
export interface VerifyReport {
  tool: 'hitless verify';
  version: 1;
  /** ISO time the load started. */
  startedAt: string;
  settings: RunSettings;
  requests: number;
  outcomes: Record<VerifyOutcome, number>;
  lost: number;
  /** Arrivals not sent because `concurrency` requests were in flight. */
  skipped: number;
  /** Requests stopped by a second Ctrl-C; in `requests` but in no outcome. */
  cancelled: number;
  ttftMs: { p50: number; p99: number } | null;
  /** The longest ok request, seconds. */
  longestOkSeconds: number;
  /** Worst event-loop lag of the client, ms: above CLIENT_STALL_MS the client itself may have delayed requests. */
  clientMaxLagMs: number;
  /** Number of shards merged (1 for a single run). */
  shards: number;
  events: VerifyEvent[];
  perRequest: RequestRow[];
}

/** The URL as a report keeps it: origin, path and the query's names (`?api-version=…`); requests get the whole URL. */
export function reportUrl(url: URL): string {
  const names = [...url.searchParams.keys()];
  const query = names.length === 0 ? '' : `?${names.map((n) => `${encodeURIComponent(n)}=…`).join('&')}`;
  return `${url.origin}${url.pathname}${query}`;
}

/** Client event-loop lag above this (ms, the lab's noise bound) is reported: the client may have delayed requests. */
export const CLIENT_STALL_MS = LAG_NOISE_MS;

/** The q-quantile of sorted numbers (nearest rank); 0 for none. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

export const round3 = (n: number) => Math.round(n * 1000) / 1000;
const round1 = (n: number) => Math.round(n * 10) / 10;

/** p50 and p99 of times to first token, ms, or null when there are none. */
export function ttftSummary(values: readonly number[]): { p50: number; p99: number } | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  return { p50: round1(quantile(sorted, 0.5)), p99: round1(quantile(sorted, 0.99)) };
}

/** A report of request rows, with what they count (outcomes, lost, cancelled, TTFT) and the events in time order. */
export function assembleReport(
  o: Pick<VerifyReport, 'startedAt' | 'settings' | 'skipped' | 'longestOkSeconds' | 'clientMaxLagMs' | 'shards'> & {
    rows: RequestRow[];
    events: readonly VerifyEvent[];
  },
): VerifyReport {
  const outcomes = zeroCounts();
  let cancelled = 0;
  const ttfts: number[] = [];
  for (const r of o.rows) {
    if (r.outcome === 'cancelled') cancelled++;
    else outcomes[r.outcome]++;
    if (r.ttftMs !== null) ttfts.push(r.ttftMs);
  }
  return {
    tool: 'hitless verify',
    version: 1,
    startedAt: o.startedAt,
    settings: o.settings,
    requests: o.rows.length,
    outcomes,
    lost: lostOf(outcomes),
    skipped: o.skipped,
    cancelled,
    ttftMs: ttftSummary(ttfts),
    longestOkSeconds: o.longestOkSeconds,
    clientMaxLagMs: o.clientMaxLagMs,
    shards: o.shards,
    events: [...o.events].sort((a, b) => a.atSeconds - b.atSeconds),
    perRequest: o.rows,
  };
}

/** Build the report of one run. */
export function buildReport(o: {
  startedAt: Date;
  settings: RunSettings;
  results: readonly RequestResult[];
  events: readonly VerifyEvent[];
  skipped: number;
  clientMaxLagMs: number;
}): VerifyReport {
  let longestOkMs = 0;
  for (const r of o.results)
    if (!r.cancelled && r.outcome === 'ok') longestOkMs = Math.max(longestOkMs, r.endMs - r.startMs);
  return assembleReport({
    startedAt: o.startedAt.toISOString(),
    settings: o.settings,
    rows: o.results.map((r) => ({
      id: r.id,
      start: round3(r.startMs / 1000),
      end: round3(r.endMs / 1000),
      outcome: r.cancelled ? 'cancelled' : r.outcome,
      status: r.status,
      ttftMs: r.ttftMs === null ? null : round1(r.ttftMs),
      detail: r.detail,
    })),
    events: o.events,
    skipped: o.skipped,
    longestOkSeconds: round3(longestOkMs / 1000),
    clientMaxLagMs: Math.round(o.clientMaxLagMs),
    shards: 1,
  });
}

/** The run's end, seconds after its start: the last request's end or the last event. */
export function reportEndSeconds(report: VerifyReport): number {
  // A loop, not Math.max(...rows): spreading 150,000 or more arguments overflows the call stack.
  let end = 0;
  for (const r of report.perRequest) if (r.end > end) end = r.end;
  for (const e of report.events) if (e.atSeconds > end) end = e.atSeconds;
  return end;
}

/** The summary for people: counts, lost, TTFT, warnings. */
export function summaryText(report: VerifyReport): string {
  const s = report.settings;
  const shards = report.shards > 1 ? ` (${report.shards} shards merged)` : '';
  const lines = [
    `hitless verify: ${report.requests} requests to ${s.url} (${s.model}) over ${reportEndSeconds(report).toFixed(1)} s${shards}`,
    `  ${VERIFY_OUTCOMES.map((o) => `${o} ${report.outcomes[o]}`).join(', ')}${report.cancelled ? `, cancelled ${report.cancelled}` : ''}`,
  ];
  const refused = refusalSummary(report.perRequest);
  if (refused) lines.push(`  refused: ${refused}`);
  if (report.ttftMs)
    lines.push(
      `  time to first token: p50 ${report.ttftMs.p50} ms, p99 ${report.ttftMs.p99} ms; longest ok request ${report.longestOkSeconds} s`,
    );
  if (report.skipped > 0)
    lines.push(
      `  ${report.skipped} arrivals were not sent: ${s.concurrency} requests were already in flight (raise --concurrency or lower --rate)`,
    );
  if (report.clientMaxLagMs > CLIENT_STALL_MS)
    lines.push(`  the client stalled for up to ${report.clientMaxLagMs} ms (a busy machine): its timings may be late`);
  for (const e of report.events) lines.push(`  ${e.atSeconds.toFixed(1).padStart(7)} s  ${e.what}`);
  lines.push(
    report.lost === 0
      ? `  lost 0: nothing was refused, cut, aborted or timed out`
      : `  lost ${report.lost}: ${VERIFY_OUTCOMES.filter((o) => o !== 'ok' && report.outcomes[o] > 0)
          .map((o) => `${report.outcomes[o]} ${o}`)
          .join(', ')}`,
  );
  return lines.join('\n');
}
