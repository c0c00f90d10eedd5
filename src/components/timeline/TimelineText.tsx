/** The timeline in words: problems, the events in order, and each example request's fate. */
import type { ComponentChildren } from 'preact';
import type { Timeline } from '../../model/timeline.ts';
import { formatSeconds as fmt } from '../../model/seconds.ts';
import { requestLetter } from './TimelineChart.tsx';

const FATE_WORD = { ok: 'Finishes', refused: 'Refused', cut: 'Cut' } as const;

/** One of the two tables: a caption, two column headings and the rows. */
function Table({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: [string, string];
  children: ComponentChildren;
}) {
  return (
    <table class="tl-table">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{columns[0]}</th>
          <th scope="col">{columns[1]}</th>
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

/** The text alternative of the chart; `id` lets the chart point at it. */
export function TimelineText({ timeline, id }: { timeline: Timeline; id: string }) {
  const t = timeline;
  return (
    <div class="tl-text" id={id}>
      {t.problems.length > 0 ? (
        <ul class="tl-problems" data-testid="timeline-problems">
          {t.problems.map((p) => (
            <li key={p.code} data-code={p.code}>
              <strong>Problem:</strong> {p.message}
            </li>
          ))}
        </ul>
      ) : (
        <p class="tl-fine">No example request is refused or cut with these values.</p>
      )}
      <div class="tl-tables">
        <Table caption="Events, in seconds after deletion" columns={['Time', 'Event']}>
          {t.events.map((e, i) => (
            <tr key={`${e.id}-${e.pathId ?? i}`}>
              <td class="tl-time">{fmt(e.atSeconds)}</td>
              <td>{e.label}</td>
            </tr>
          ))}
        </Table>
        <Table caption="Example requests" columns={['Request', 'Fate']}>
          {t.requests.map((r, i) => (
            <tr key={r.request.id} class={`is-${r.fate}`}>
              <td>
                {requestLetter(i)}. {r.request.label}: arrives at {fmt(r.request.arrivalSeconds)}
              </td>
              <td>
                <strong>{FATE_WORD[r.fate]}</strong>: {r.reason}
              </td>
            </tr>
          ))}
        </Table>
      </div>
    </div>
  );
}
