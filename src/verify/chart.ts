/**
 * The outcome-over-time chart of a verify report as inline SVG, drawn like the lab's chart
 * (src/components/lab/LabChart.astro): stacked bars per time bucket of when each request ended, the
 * lost kinds at the bottom with their own patterns, numbered markers for the events.
 */
import { zeroCounts, type VerifyOutcome } from './outcome.ts';
import { reportEndSeconds, type VerifyReport } from './report.ts';

/** Escape text for HTML and SVG (element content and quoted attributes). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** One bucket of the chart: [from, from + width) seconds with a count per outcome. */
export type ChartBucket = { from: number } & Record<VerifyOutcome, number>;

const WIDTHS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600];

/** Bucket seconds: the smallest of 1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 30, 60 min giving at most 60 buckets. */
function bucketWidth(spanSeconds: number): number {
  return WIDTHS.find((w) => spanSeconds / w <= 60) ?? WIDTHS.at(-1)!;
}

/** Count requests by outcome in buckets of the time they ended (cancelled ones are left out). */
export function bucketReport(report: VerifyReport): { width: number; buckets: ChartBucket[] } {
  const span = Math.max(1, reportEndSeconds(report));
  const width = bucketWidth(span);
  const count = Math.floor(span / width) + 1; // the bucket [from, from + width) holding the last end too
  const buckets: ChartBucket[] = [];
  for (let i = 0; i < count; i++) buckets.push({ from: i * width, ...zeroCounts() });
  for (const r of report.perRequest) {
    if (r.outcome === 'cancelled') continue;
    buckets[Math.min(count - 1, Math.max(0, Math.floor(r.end / width)))][r.outcome]++;
  }
  return { width, buckets };
}

/** Events close together share one numbered marker. */
export function markersOf(report: VerifyReport, closeSeconds: number): { at: number; what: string[] }[] {
  const markers: { at: number; what: string[] }[] = [];
  for (const e of [...report.events].sort((a, b) => a.atSeconds - b.atSeconds)) {
    const last = markers.at(-1);
    if (last && e.atSeconds - last.at < closeSeconds) last.what.push(e.what);
    else markers.push({ at: e.atSeconds, what: [e.what] });
  }
  return markers;
}

const STACK: readonly VerifyOutcome[] = ['timeout', 'unreadable', 'aborted', 'cut', 'refused', 'ok'];

/** The fill attribute of a lost kind's pattern (ok bars are plain). */
export const patternFill = (k: VerifyOutcome) => (k === 'ok' ? '' : ` fill="url(#p-${k})"`);

/** The chart as an SVG element. */
export function chartSvg(report: VerifyReport): string {
  const { width: bw, buckets } = bucketReport(report);
  const W = 640;
  const H = 260;
  const M = { left: 46, right: 10, top: 34, bottom: 46 };
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const to = buckets.length * bw;
  const x = (t: number) => M.left + (Math.min(Math.max(t, 0), to) / to) * plotW;
  const totals = buckets.map((b) => STACK.reduce((s, k) => s + b[k], 0));
  const yMax = Math.max(10, Math.ceil(Math.max(0, ...totals) / 10) * 10);
  const y = (n: number) => M.top + plotH - (n / yMax) * plotH;
  const barW = Math.max(2, (bw / to) * plotW - 1.5);
  const parts: string[] = [];
  parts.push(`<svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="chart-title" class="chart">`);
  parts.push('<title id="chart-title">Request outcomes over time, by when each request ended</title>');
  parts.push(`<defs>
<pattern id="p-refused" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="fill-refused"/><line x1="0" y1="0" x2="0" y2="6" class="stroke"/></pattern>
<pattern id="p-cut" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" class="fill-cut"/><path d="M0 0 L6 6 M6 0 L0 6" class="stroke"/></pattern>
<pattern id="p-aborted" width="5" height="5" patternUnits="userSpaceOnUse"><rect width="5" height="5" class="fill-aborted"/><circle cx="2.5" cy="2.5" r="1.2" class="dot"/></pattern>
<pattern id="p-unreadable" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" class="fill-unreadable"/><path d="M0 6 L6 0" class="stroke"/></pattern>
<pattern id="p-timeout" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" class="fill-timeout"/><line x1="0" y1="3" x2="6" y2="3" class="stroke"/></pattern>
</defs>`);
  for (const n of [0, yMax / 2, yMax]) {
    parts.push(
      `<line x1="${M.left}" x2="${W - M.right}" y1="${y(n)}" y2="${y(n)}" class="grid"/><text x="${M.left - 6}" y="${y(n) + 4}" text-anchor="end" class="tick">${n}</text>`,
    );
  }
  const tickEvery = bucketWidth(to / 6);
  for (let t = 0, i = 0; t <= to && i < 40; t += tickEvery, i++)
    parts.push(`<text x="${x(t)}" y="${H - M.bottom + 17}" text-anchor="middle" class="tick">${t}</text>`);
  parts.push(
    `<text x="${M.left + plotW / 2}" y="${H - 6}" text-anchor="middle" class="axis">seconds after the load started</text>`,
  );
  parts.push(
    `<text x="12" y="${M.top + plotH / 2}" text-anchor="middle" transform="rotate(-90 12 ${M.top + plotH / 2})" class="axis">requests per ${bw} s</text>`,
  );
  for (const b of buckets) {
    let base = 0;
    for (const k of STACK) {
      if (b[k] === 0) continue;
      const top = y(base + b[k]);
      parts.push(
        `<rect x="${x(b.from) + 0.75}" y="${top}" width="${barW}" height="${Math.max(0.5, y(base) - top)}" class="bar bar-${k}"${patternFill(k)}><title>${b[k]} ${k}, ${b.from} to ${b.from + bw} s</title></rect>`,
      );
      base += b[k];
    }
  }
  markersOf(report, bw / 2).forEach((m, i) => {
    parts.push(
      `<line x1="${x(m.at)}" x2="${x(m.at)}" y1="${M.top - 12}" y2="${M.top + plotH}" class="event"/>`
        + `<circle cx="${x(m.at)}" cy="${M.top - 20}" r="9" class="marker"/><text x="${x(m.at)}" y="${M.top - 16}" text-anchor="middle" class="marker-text">${i + 1}</text>`,
    );
  });
  parts.push('</svg>');
  return parts.join('\n');
}
