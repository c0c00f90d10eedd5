/**
 * `hitless verify --merge`: combine the JSON reports of several runs (the shards of the emitted Job,
 * or runs from several machines) into one. Times are moved onto the earliest start, so the merged
 * timeline lines up by wall clock; each request and event keeps which shard it came from.
 */
import { readFileSync } from 'node:fs';
import { reportProblem } from './report-check.ts';
import { reportOf, round3, type RequestRow, type VerifyEvent, type VerifyReport } from './report.ts';

/** Read one report whole (tests; the CLI reads shards through its bounded reader and calls parseReportText). */
export function readReportFile(file: string): VerifyReport {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `--merge: ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return parseReportText(text, file);
}

/** Parse one report's text; the message names the file and the first bad field. */
export function parseReportText(text: string, file: string): VerifyReport {
  // `kubectl logs` may put a line of its own before the JSON; the report is the last top-level object.
  const start = text.search(/^\{/m);
  let data: unknown;
  try {
    data = JSON.parse(start === -1 ? text : text.slice(start));
  } catch {
    throw new Error(`--merge: ${file} is not a hitless verify JSON report (run verify with --format json)`);
  }
  const problem = reportProblem(data);
  if (problem) throw new Error(`--merge: ${file} is not a hitless verify report: ${problem}`);
  return data as VerifyReport;
}

/** Merge reports into one; shard i is the i-th report (0-based), in the order given. */
export function mergeReports(reports: readonly VerifyReport[]): VerifyReport {
  if (reports.length === 0) throw new Error('nothing to merge');
  const starts = reports.map((r) => Date.parse(r.startedAt));
  const zero = Math.min(...starts);
  const perRequest: RequestRow[] = [];
  const events: VerifyEvent[] = [];
  reports.forEach((report, shard) => {
    const offset = (starts[shard] - zero) / 1000;
    for (const row of report.perRequest)
      perRequest.push({ ...row, shard, start: round3(row.start + offset), end: round3(row.end + offset) });
    for (const e of report.events)
      events.push({
        atSeconds: round3(e.atSeconds + offset),
        what: reports.length > 1 ? `shard ${shard}: ${e.what}` : e.what,
      });
  });
  const first = reports[starts.indexOf(zero)];
  const sum = (pick: (r: VerifyReport) => number) => reports.reduce((total, r) => total + pick(r), 0);
  const max = (pick: (r: VerifyReport) => number | undefined) => Math.max(0, ...reports.map((r) => pick(r) ?? 0));
  const merged = {
    startedAt: new Date(zero).toISOString(),
    settings: {
      ...first.settings,
      ratePerSecond: sum((r) => r.settings.ratePerSecond),
      concurrency: sum((r) => r.settings.concurrency),
    },
    skipped: sum((r) => r.skipped ?? 0),
    longestOkSeconds: max((r) => r.longestOkSeconds),
    clientMaxLagMs: max((r) => r.clientMaxLagMs),
    shards: sum((r) => r.shards ?? 1),
  };
  return reportOf(merged, events, perRequest);
}
