/**
 * `--report FILE.html`: one self-contained page (inline CSS and SVG, no script, nothing fetched):
 * the summary, the outcome-over-time chart, the events and the lost requests. Every string that came
 * from the user or the endpoint is HTML-escaped.
 */
import { chartSvg, escapeHtml, markersOf, bucketReport, patternFill } from './chart.ts';
import { VERIFY_OUTCOMES } from './outcome.ts';
import { CLIENT_STALL_MS, reportEndSeconds, type VerifyReport } from './report.ts';

const STYLE = `
body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 56rem; padding: 0 1rem; color: #1b1b1f; background: #fff; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
table { border-collapse: collapse; margin: .5rem 0; } th, td { border: 1px solid #c9c9d1; padding: .2rem .5rem; text-align: left; }
.lost { font-weight: 700; color: #a4161a; } .none { font-weight: 700; color: #1d6b2f; }
.chart { width: 100%; height: auto; font-family: inherit; }
.tick { font-size: 12px; fill: #55555f; } .axis { font-size: 13px; fill: #55555f; } .grid { stroke: #e2e2e8; }
.bar-ok { fill: #d9d9e0; stroke: #8d8d99; stroke-width: .5; } .bar { stroke: #fff; stroke-width: .75; }
.fill-refused { fill: #c0392b; } .fill-cut { fill: #d68910; } .fill-aborted { fill: #c0392b; opacity: .6; } .fill-unreadable { fill: #1f618d; } .fill-timeout { fill: #6c3483; }
.stroke { stroke: #fff; stroke-width: 1.5; fill: none; } .dot { fill: #fff; }
.event { stroke: #55555f; stroke-dasharray: 3 3; } .marker { fill: #1b1b1f; } .marker-text { font-size: 12px; font-weight: 700; fill: #fff; }
.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; font-size: .9rem; }
.legend svg { vertical-align: -2px; margin-right: .35rem; }
`;

const MEANING: Record<string, string> = {
  ok: 'streamed to [DONE] or a finish reason',
  refused: 'no connection, or an HTTP error before any token',
  cut: 'the stream ended without a finish',
  aborted: 'the server ended the stream with an error',
  unreadable: 'an event was not JSON: a client could not read the stream',
  timeout: 'still running at the time limit',
};

/** Most lost requests listed one by one. */
const MAX_LOST_ROWS = 500;

export function reportHtml(report: VerifyReport): string {
  const e = escapeHtml;
  const s = report.settings;
  const { width } = bucketReport(report);
  const markers = markersOf(report, width / 2);
  // The rows listed and a count of the rest: a run with millions of lost requests never copies them.
  const listed: typeof report.perRequest = [];
  let lostCount = 0;
  for (const r of report.perRequest) {
    if (r.outcome === 'ok' || r.outcome === 'cancelled') continue;
    if (++lostCount <= MAX_LOST_ROWS) listed.push(r);
  }
  const legend = VERIFY_OUTCOMES.map(
    (k) =>
      `<li><svg width="18" height="14" aria-hidden="true"><rect width="18" height="14" class="bar bar-${k}"${patternFill(k)}/></svg><strong>${k}</strong>: ${e(MEANING[k])}</li>`,
  ).join('');
  const rows = (cells: (string | number | null)[]) =>
    `<tr>${cells.map((c) => `<td>${e(String(c ?? '–'))}</td>`).join('')}</tr>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>hitless verify: ${e(s.model)} at ${e(s.url)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>hitless verify: ${report.lost === 0 ? '<span class="none">nothing lost</span>' : `<span class="lost">${report.lost} lost</span>`} of ${report.requests} requests</h1>
<p>${e(s.model)} at <code>${e(s.url)}</code>, ${e(s.api)} API, started ${e(report.startedAt)}, ${reportEndSeconds(report).toFixed(1)} s${report.shards > 1 ? `, ${report.shards} shards merged` : ''}.
${s.ratePerSecond} requests/s, at most ${s.concurrency} in flight, max_tokens ${s.maxTokens}, time limit ${s.timeoutSeconds} s per request.</p>
<table>
<thead><tr>${VERIFY_OUTCOMES.map((o) => `<th scope="col">${o}</th>`).join('')}<th scope="col">lost</th><th scope="col">skipped</th><th scope="col">cancelled</th></tr></thead>
<tbody><tr>${VERIFY_OUTCOMES.map((o) => `<td>${report.outcomes[o]}</td>`).join('')}<td>${report.lost}</td><td>${report.skipped}</td><td>${report.cancelled}</td></tr></tbody>
</table>
${report.ttftMs ? `<p>Time to first token: p50 ${report.ttftMs.p50} ms, p99 ${report.ttftMs.p99} ms. Longest ok request: ${report.longestOkSeconds} s.</p>` : ''}
${report.clientMaxLagMs > CLIENT_STALL_MS ? `<p class="lost">The client stalled for up to ${report.clientMaxLagMs} ms: its timings may be late.</p>` : ''}
<h2>Outcomes over time</h2>
<figure>
${chartSvg(report)}
<figcaption><ul class="legend">${legend}</ul></figcaption>
</figure>
<h2>Events</h2>
${markers.length === 0 ? '<p>No events.</p>' : `<ol>${markers.map((m) => `<li><strong>${m.at.toFixed(1)} s</strong>: ${m.what.map(e).join('; ')}</li>`).join('\n')}</ol>`}
<h2>Lost requests</h2>
${
  lostCount === 0
    ? '<p>None.</p>'
    : `<table>
<thead><tr><th scope="col">#</th>${report.shards > 1 ? '<th scope="col">shard</th>' : ''}<th scope="col">start s</th><th scope="col">end s</th><th scope="col">outcome</th><th scope="col">status</th><th scope="col">detail</th></tr></thead>
<tbody>
${listed
  .map((r) =>
    rows([r.id, ...(report.shards > 1 ? [r.shard ?? null] : []), r.start, r.end, r.outcome, r.status, r.detail]),
  )
  .join('\n')}
</tbody>
</table>${lostCount > MAX_LOST_ROWS ? `<p>And ${lostCount - MAX_LOST_ROWS} more (see the JSON report).</p>` : ''}`
}
</body>
</html>
`;
}
