/**
 * The bench's "report" figure (issue 34: reports scale to 10 million requests): one `hitless verify` report of
 * REQUESTS requests (every thousandth refused), built from request results as a run builds it, then its text
 * summary, its HTML page and its JSON (written in pieces, as the CLI writes it) made in full. Run as a child under
 * /usr/bin/time by scripts/bench.ts (wall seconds and peak RSS); `node scripts/bench-report.ts N` runs it alone and
 * prints what it made.
 */
import { fileURLToPath } from 'node:url';
import { buildReport, summaryText } from '../src/verify/report.ts';
import { reportHtml } from '../src/verify/html.ts';
import { reportJsonPieces } from '../src/verify/report-json.ts';
import type { RequestResult } from '../src/verify/request.ts';

/** Build, summarize and render a report of `requests` requests; returns the sizes made. */
function makeReport(requests: number): { jsonBytes: number; htmlBytes: number; lost: number } {
  const results: RequestResult[] = [];
  for (let id = 0; id < requests; id++) {
    const refused = id % 1000 === 0;
    results.push({
      id,
      startMs: id / 10,
      endMs: id / 10 + (refused ? 3 : 5000),
      ttftMs: refused ? null : 120.5,
      outcome: refused ? 'refused' : 'ok',
      status: refused ? 503 : 200,
      detail: refused ? 'HTTP 503' : null,
      cancelled: false,
      events: refused ? 0 : 20,
    });
  }
  const report = buildReport({
    startedAt: new Date(0),
    settings: {
      url: 'http://127.0.0.1:9/v1/completions',
      api: 'completions',
      model: 'm',
      ratePerSecond: 10_000,
      concurrency: 50_000,
      durationSeconds: requests / 10_000,
      maxTokens: 20,
      timeoutSeconds: 600,
    },
    results,
    events: [],
    skipped: 0,
    clientMaxLagMs: 0,
  });
  results.length = 0;
  summaryText(report);
  let jsonBytes = 0;
  for (const piece of reportJsonPieces(report)) jsonBytes += Buffer.byteLength(piece);
  return { jsonBytes, htmlBytes: Buffer.byteLength(reportHtml(report)), lost: report.lost };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.stdout.write(`${JSON.stringify(makeReport(Number(process.argv[2] ?? 10_000_000)))}\n`);
}
