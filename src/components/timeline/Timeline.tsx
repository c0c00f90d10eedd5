/**
 * The drain timeline for a plan: the chart, a one-line summary and the text alternative. The generator
 * renders it beside the manifest; the guide pages wrap it in `TimelineDemo` with controls of their own.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import './timeline.css';
import type { Plan } from '../../model/plan.ts';
import type { Profiles } from '../../facts/profiles.ts';
import {
  buildTimeline,
  frontZoomSeconds,
  settingsFor,
  type Fate,
  type Timeline as TimelineData,
  type TimelineOverrides,
} from '../../model/timeline.ts';
import { formatSeconds as fmt } from '../../model/seconds.ts';
import { TimelineChart } from './TimelineChart.tsx';
import { TimelineText } from './TimelineText.tsx';

interface Props {
  plan: Plan;
  profiles: Profiles;
  /** Values deployed instead of the plan's (guide pages let readers try them). */
  overrides?: TimelineOverrides;
  heading?: string;
  /** Prefix for element ids; give one when a page has more than one timeline island. */
  idPrefix?: string;
}

/** The width the chart is drawn at before the browser measures its container. */
const SERVER_WIDTH = 640;

/** One sentence that says what the chart shows. */
function summaryOf(t: TimelineData, count: Record<Fate, number>): string {
  return (
    `From deletion to SIGKILL at ${fmt(t.sigkillSeconds)}: SIGTERM at ${fmt(t.sigtermSeconds)}, `
    + `last routing path removed at ${fmt(t.lastRemovalSeconds)}. Of ${t.requests.length} example requests, `
    + `${count.ok} finish, ${count.refused} refused, ${count.cut} cut.`
  );
}

/** The timeline figure. `data-testid="timeline"` and each request's `data-fate` are stable test hooks. */
export function Timeline({ plan, profiles, overrides, heading = 'Drain timeline', idPrefix }: Props) {
  const generated = `tl${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const uid = idPrefix ?? generated;
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(SERVER_WIDTH);
  const timeline = useMemo(() => buildTimeline(settingsFor(plan, profiles, overrides)), [plan, profiles, overrides]);

  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(Math.max(240, Math.floor(entry.contentRect.width))));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const zoom = frontZoomSeconds(timeline);
  const counts = { ok: 0, refused: 0, cut: 0 };
  for (const r of timeline.requests) counts[r.fate]++;
  return (
    <figure
      class="tl not-content"
      data-testid="timeline"
      data-refused={counts.refused}
      data-cut={counts.cut}
      aria-labelledby={`${uid}-heading`}
    >
      <figcaption>
        <p class="tl-heading" id={`${uid}-heading`}>
          {heading}
        </p>
        <p class="tl-summary" id={`${uid}-summary`} aria-live="polite">
          {summaryOf(timeline, counts)}
        </p>
      </figcaption>
      <div class="tl-chart" ref={box}>
        <TimelineChart
          timeline={timeline}
          width={width}
          uid={uid}
          labelledBy={`${uid}-summary`}
          describedBy={`${uid}-text`}
        />
      </div>
      {zoom !== undefined ? (
        <div class="tl-chart tl-zoom" data-testid="timeline-zoom">
          <p class="tl-zoom-caption" id={`${uid}-zoom`}>
            The first {fmt(zoom)}, enlarged: deletion, the preStop sleep, SIGTERM and the last routing path, which the
            long drain above makes small.
          </p>
          <TimelineChart
            timeline={timeline}
            width={width}
            uid={`${uid}-z`}
            spanSeconds={zoom}
            labelledBy={`${uid}-zoom`}
            describedBy={`${uid}-text`}
          />
        </div>
      ) : null}
      <TimelineText timeline={timeline} id={`${uid}-text`} />
    </figure>
  );
}
