/**
 * The notice a link made under an older drain model gets: it opens the current model, and this lists every value
 * that changed for its inputs, old → new. Five show at once; the rest fold under "and N more".
 */
import { describeChange, type Migration } from '../../model/migrate.ts';
import { MODEL_VERSION } from '../../model/plan.ts';

/** How many changes show before the rest fold away. */
const SHOWN_CHANGES = 5;

interface Props {
  migration: Migration;
  onDismiss: () => void;
}

function Changes({ changes }: { changes: Migration['changes'] }) {
  return (
    <ul>
      {changes.map((c) => (
        <li key={c.label}>{describeChange(c)}</li>
      ))}
    </ul>
  );
}

/** The list of changed values for a link from an older drain model. */
export function MigrationNotice({ migration, onDismiss }: Props) {
  const shown = migration.changes.slice(0, SHOWN_CHANGES);
  const rest = migration.changes.slice(SHOWN_CHANGES);
  return (
    <div class="gen-notices gen-migration" role="status" data-testid="migration-notice">
      <p>
        <strong>This link was made with drain model v{migration.fromVersion}.</strong> It opens with{' '}
        <a href="/drain-model/#changes-from-v1">drain model v{MODEL_VERSION}</a>, which
        {migration.changes.length === 0
          ? ' gives the same values for these inputs.'
          : ' changes these values (old \u2192 new):'}
      </p>
      {shown.length > 0 ? <Changes changes={shown} /> : null}
      {rest.length > 0 ? (
        <details>
          <summary>and {rest.length} more</summary>
          <Changes changes={rest} />
        </details>
      ) : null}
      <button type="button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
