/** The findings, grouped by severity, each with its object, path, line, consequence and fix. */
import { useState } from 'preact/hooks';
import type { Finding, Severity } from '../../check/rules/findings.ts';
import { FlagText } from '../generator/PlanSummary.tsx';
import { SEVERITY_LABELS } from '../generator/plan-text.ts';

interface Props {
  findings: Finding[];
  /** Select a line of the manifest in the text area. */
  onShowLine: (line: number) => void;
}

const GROUPS: { severity: Severity; heading: string }[] = [
  { severity: 'error', heading: 'Errors: requests are dropped or the rollout breaks' },
  { severity: 'warning', heading: 'Warnings: a safety margin is missing' },
  { severity: 'info', heading: 'Notes' },
];

function FindingItem({ finding, onShowLine }: { finding: Finding; onShowLine: Props['onShowLine'] }) {
  return (
    <li class={`chk-finding is-${finding.severity}`} data-code={finding.code} data-severity={finding.severity}>
      <p class="chk-finding-head">
        <span class="chk-badge">{SEVERITY_LABELS[finding.severity]}</span>
        <code class="chk-code">{finding.code}</code>
        {finding.object ? <span class="chk-object">{finding.object}</span> : null}
      </p>
      {finding.path ? (
        <p class="chk-path">
          <code data-testid="finding-path">{finding.path}</code>
          {finding.line !== undefined ? (
            <button
              type="button"
              class="chk-line"
              onClick={() => onShowLine(finding.line!)}
              aria-label={`Show line ${finding.line} in the manifest`}
            >
              line {finding.line}
            </button>
          ) : null}
        </p>
      ) : null}
      <p class="chk-message">
        <FlagText text={finding.message} />
      </p>
      {finding.assumed && finding.assumed.length > 0 ? (
        <p class="chk-hint" data-testid="finding-assumed">
          Rests on assumed inputs: give {finding.assumed.map((flag) => `--${flag}`).join(', ')} (under Settings) to make
          it an error where it is one.
        </p>
      ) : null}
      {finding.fix ? (
        <div class="chk-fix">
          <span class="chk-fix-label" data-remedy={finding.remedy}>
            {finding.remedy === 'applied' ? 'Fixable (in the fixed manifest):' : 'Fix (by hand):'}
          </span>
          {/* A multi-line fix (a whole policy) may be wider than the panel: it scrolls, so it takes keyboard focus. */}
          {finding.fix.text.includes('\n') ? (
            <pre tabIndex={0}>
              <code>{finding.fix.text}</code>
            </pre>
          ) : (
            <code>{finding.fix.text}</code>
          )}
        </div>
      ) : null}
    </li>
  );
}

/** Findings rendered at once per group; a long list shows more on request, so a large manifest renders quickly. */
const PAGE_SIZE = 50;

/** One severity group, a page at a time. */
function Group({ heading, items, onShowLine }: { heading: string; items: Finding[]; onShowLine: Props['onShowLine'] }) {
  const [shown, setShown] = useState(PAGE_SIZE);
  const rest = items.length - shown;
  return (
    <section aria-label={heading}>
      <h3>
        {heading} ({items.length})
      </h3>
      <ol class="chk-list">
        {items.slice(0, shown).map((f, i) => (
          <FindingItem key={`${f.code}-${i}`} finding={f} onShowLine={onShowLine} />
        ))}
      </ol>
      {rest > 0 ? (
        <button
          type="button"
          class="chk-more"
          data-testid="show-more-findings"
          onClick={() => setShown(shown + PAGE_SIZE)}
        >
          Show {Math.min(rest, PAGE_SIZE)} more of {rest}
        </button>
      ) : null}
    </section>
  );
}

/** The findings by severity. The list itself carries `data-testid="findings"`. */
export function FindingsList({ findings, onShowLine }: Props) {
  return (
    <div data-testid="findings" class="chk-findings">
      {GROUPS.map(({ severity, heading }) => {
        const items = findings.filter((f) => f.severity === severity);
        if (items.length === 0) return null;
        return <Group key={severity} heading={heading} items={items} onShowLine={onShowLine} />;
      })}
    </div>
  );
}
