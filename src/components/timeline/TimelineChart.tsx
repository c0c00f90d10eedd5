/**
 * The drain timeline as SVG: one row per routing path, kubelet phase and example request, with SIGTERM,
 * SIGKILL and any refused window drawn across all rows. Shapes carry patterns and every row a text label,
 * so nothing depends on colour.
 */
import type { JSX } from 'preact';
import type { RequestOutcome, Timeline, TimelineWindow } from '../../model/timeline.ts';
import { formatSeconds as fmt } from '../../model/seconds.ts';
import { tickLabels, ticksFor, wrapLabel } from './axis.ts';

interface Props {
  timeline: Timeline;
  /** Drawing width in CSS pixels; the SVG is drawn at 1:1 so text keeps its size on phones. */
  width: number;
  /** Prefix for pattern ids, unique on the page. */
  uid: string;
  /** The id of the element that describes the chart in words. */
  describedBy: string;
  labelledBy: string;
  /** Draw only the first this many seconds (an enlarged view); shapes past it are clipped. */
  spanSeconds?: number;
}

const PAD_X = 8;
const TOP = 44;
const LINE = 15;
const BAR = 12;
const ROW_GAP = 10;
const AXIS = 28;
/** Average width of a 12 px label character, for wrapping: a little wide, so lines never overflow. */
const CHAR_WIDTH = 6.6;

/** The letter a request row and its table row share. */
export const requestLetter = (index: number): string => String.fromCharCode(65 + index);

function fateText(r: RequestOutcome): string {
  if (r.fate === 'refused') return 'REFUSED ✕';
  if (r.fate === 'cut') return `CUT at ${fmt(r.endSeconds)} ✂`;
  return `finishes at ${fmt(r.endSeconds)} ✓`;
}

function windowText(w: TimelineWindow | undefined, timeline: Timeline): string {
  if (!w) return '';
  const range = `${fmt(w.startSeconds)}–${fmt(w.endSeconds)}`;
  const killed = (end: number) => (end > timeline.sigkillSeconds ? ' (SIGKILL ends it)' : '');
  if (w.id === 'prestop') return `preStop sleep · ${range}`;
  if (w.id === 'teardown') {
    return w.endSeconds > w.startSeconds
      ? `Teardown · ${range}${killed(timeline.teardownEndSeconds)}`
      : 'Teardown · no time left before SIGKILL';
  }
  const s = timeline.settings;
  if (s.drain.kind === 'seconds' && s.drain.seconds === 0)
    return `No drain: in-flight requests aborted at ${fmt(w.startSeconds)}`;
  return `Drain · ${range}${killed(timeline.drainEndSeconds)} · ${s.drainSetting}`;
}

/** A row: its label, and the shapes drawn on its bar line at `y`. */
interface Row {
  key: string;
  label: string;
  attrs?: Record<string, string>;
  draw: (y: number) => JSX.Element | (JSX.Element | null)[];
}

/** The chart. Rows are drawn top to bottom in the order the text alternative lists them. */
export function TimelineChart({ timeline, width, uid, describedBy, labelledBy, spanSeconds }: Props) {
  const t = timeline;
  const span = spanSeconds ?? t.spanSeconds * 1.04;
  const inView = (seconds: number) => seconds <= span;
  const plotWidth = Math.max(120, width - 2 * PAD_X);
  const x = (seconds: number) => PAD_X + (seconds / span) * plotWidth;
  const w = (from: number, to: number) => Math.max(2, x(to) - x(from));
  const windowOf = (id: TimelineWindow['id']) => t.windows.find((win) => win.id === id);
  const rowSpecs: Row[] = [];

  for (const { path, atSeconds } of t.removals) {
    const label =
      path.basis === 'watch'
        ? `${path.label}: stops at its next pod event`
        : `${path.label}: until ${fmt(atSeconds)}${path.from === 'sigterm' ? ` (SIGTERM + ${fmt(path.seconds)})` : ''}`;
    rowSpecs.push({
      key: `path-${path.id}`,
      label,
      attrs: { 'data-path': path.id, class: 'tl-route' },
      draw: (y) => [
        <rect x={x(0)} y={y} width={w(0, atSeconds)} height={BAR} class="tl-route-bar" />,
        <path d={`M${x(atSeconds)} ${y - 2} l6 8 l-6 8 l-6 -8 z`} class="tl-route-end" />,
      ],
    });
  }

  for (const [id, pattern] of [
    ['prestop', 'sleep'],
    ['drain', 'drain'],
    ['teardown', 'teardown'],
  ] as const) {
    const win = windowOf(id);
    rowSpecs.push({
      key: id,
      label: windowText(win, t),
      attrs: { 'data-window': id },
      draw: (y) =>
        win && win.endSeconds > win.startSeconds ? (
          <rect
            x={x(win.startSeconds)}
            y={y}
            width={w(win.startSeconds, win.endSeconds)}
            height={BAR}
            fill={`url(#${uid}-${pattern})`}
            class={`tl-phase tl-phase-${id}`}
          />
        ) : (
          <line
            x1={x(win?.startSeconds ?? 0)}
            x2={x(win?.startSeconds ?? 0)}
            y1={y - 2}
            y2={y + BAR + 2}
            class={`tl-phase tl-phase-${id}`}
          />
        ),
    });
  }

  t.requests.forEach((r, i) => {
    const arrival = r.request.arrivalSeconds;
    rowSpecs.push({
      key: r.request.id,
      label: `${requestLetter(i)} · ${fmt(r.request.durationSeconds)} request at ${fmt(arrival)}: ${fateText(r)}`,
      attrs: {
        'data-testid': 'timeline-request',
        'data-request': r.request.id,
        'data-fate': r.fate,
        class: `tl-req is-${r.fate}`,
      },
      draw: (y) => [
        r.fate !== 'ok' ? (
          <rect
            x={x(r.endSeconds)}
            y={y}
            width={w(r.endSeconds, r.wouldEndSeconds)}
            height={BAR}
            class="tl-req-ghost"
          />
        ) : null,
        r.fate !== 'refused' ? (
          <rect x={x(arrival)} y={y} width={w(arrival, r.endSeconds)} height={BAR} class="tl-req-bar" />
        ) : (
          <rect
            x={x(arrival) - 1}
            y={y - 2}
            width={10}
            height={BAR + 4}
            fill={`url(#${uid}-front)`}
            class="tl-req-refused"
          />
        ),
        r.fate === 'cut' ? <path d={`M${x(r.endSeconds)} ${y - 3} l4 4 l-8 4 l8 4 l-4 4`} class="tl-req-cut" /> : null,
        r.fate === 'refused' ? (
          <path d={`M${x(arrival) - 5} ${y + 1} l10 10 m0 -10 l-10 10`} class="tl-req-cross" />
        ) : null,
      ],
    });
  });

  const maxChars = Math.max(20, Math.floor((width - 2 * PAD_X) / CHAR_WIDTH));
  let y = TOP;
  const rows = rowSpecs.map((row) => {
    const lines = wrapLabel(row.label, maxChars);
    const top = y;
    const barY = top + LINE * lines.length + 6;
    y = barY + BAR + ROW_GAP;
    return (
      <g key={row.key} {...row.attrs}>
        <text x={PAD_X} y={top + 12} class="tl-label">
          {lines.map((line, i) => (
            <tspan key={i} x={PAD_X} dy={i === 0 ? 0 : LINE}>
              {line}
            </tspan>
          ))}
        </text>
        <g clip-path={`url(#${uid}-plot)`}>{row.draw(barY)}</g>
      </g>
    );
  });

  const bottom = y;
  const height = bottom + AXIS;
  const front = windowOf('front');
  const ticks = ticksFor(span, Math.floor(plotWidth / 56));
  const labels = tickLabels(ticks);
  const anchor = (seconds: number) => (x(seconds) > width * 0.65 ? 'end' : 'start');
  /** A signal's label beside its line, on the side with room. */
  const signalLabel = (seconds: number, y: number, name: string) => (
    <text
      x={x(seconds) + (anchor(seconds) === 'end' ? -4 : 4)}
      y={y}
      text-anchor={anchor(seconds)}
      class="tl-label tl-strong"
    >
      {name} {fmt(seconds)}
    </text>
  );

  return (
    <svg
      class="tl-svg"
      role="img"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      viewBox={`0 0 ${width} ${height}`}
      width="100%"
      height={height}
      preserveAspectRatio="xMinYMin meet"
    >
      <defs>
        <pattern id={`${uid}-sleep`} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="6" height="6" class="tl-pat-bg" />
          <line x1="0" y1="0" x2="0" y2="6" class="tl-pat-line" />
        </pattern>
        <pattern id={`${uid}-drain`} width="5" height="5" patternUnits="userSpaceOnUse">
          <rect width="5" height="5" class="tl-pat-bg" />
          <circle cx="2.5" cy="2.5" r="1.2" class="tl-pat-dot" />
        </pattern>
        <pattern id={`${uid}-teardown`} width="4" height="4" patternUnits="userSpaceOnUse">
          <rect width="4" height="4" class="tl-pat-bg" />
          <line x1="1" y1="0" x2="1" y2="4" class="tl-pat-line" />
        </pattern>
        <pattern id={`${uid}-front`} width="6" height="6" patternUnits="userSpaceOnUse">
          <path d="M0 0 L6 6 M6 0 L0 6" class="tl-pat-bad" />
        </pattern>
        <clipPath id={`${uid}-plot`}>
          <rect x={x(0) - 12} y={0} width={x(span) - x(0) + 24} height={height} />
        </clipPath>
      </defs>
      {front ? (
        <g data-window="front" clip-path={`url(#${uid}-plot)`}>
          <rect
            x={x(front.startSeconds)}
            y={TOP - 6}
            width={w(front.startSeconds, front.endSeconds)}
            height={bottom - TOP + 6}
            fill={`url(#${uid}-front)`}
            class="tl-front"
          />
        </g>
      ) : null}
      <g class="tl-marker" data-event="sigterm">
        <line x1={x(t.sigtermSeconds)} x2={x(t.sigtermSeconds)} y1={18} y2={bottom} class="tl-sigterm" />
      </g>
      {inView(t.sigkillSeconds) ? (
        <g class="tl-marker" data-event="sigkill">
          <line x1={x(t.sigkillSeconds)} x2={x(t.sigkillSeconds)} y1={34} y2={bottom} class="tl-sigkill" />
        </g>
      ) : null}
      {rows}
      {signalLabel(t.sigtermSeconds, 14, 'SIGTERM')}
      {inView(t.sigkillSeconds) ? (
        signalLabel(t.sigkillSeconds, 30, 'SIGKILL')
      ) : (
        <text x={x(span)} y={30} text-anchor="end" class="tl-label tl-strong">
          SIGKILL {fmt(t.sigkillSeconds)} →
        </text>
      )}
      <g class="tl-axis">
        <line x1={x(0)} x2={x(span)} y1={bottom + 4} y2={bottom + 4} />
        {ticks.map((tick, i) => (
          <g key={tick}>
            <line x1={x(tick)} x2={x(tick)} y1={bottom + 4} y2={bottom + 9} />
            <text x={x(tick)} y={bottom + 22} text-anchor={tick === 0 ? 'start' : 'middle'} class="tl-tick">
              {labels[i]}
            </text>
          </g>
        ))}
      </g>
    </svg>
  );
}
