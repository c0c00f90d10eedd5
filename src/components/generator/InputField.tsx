/** One labelled input of the drain model, rendered from its field spec. */
import type { FieldSpec } from '../../model/fields.ts';
import type { FieldHelpParts } from '../../model/field-help.ts';

interface Props {
  spec: FieldSpec;
  /** The text the field shows: the reader's value, or the effective default. */
  value: string;
  placeholder?: string;
  error?: string;
  changed: boolean;
  /** Choices for `profile` fields: [id, label]. */
  options?: [string, string][];
  /** Help in place of the field's own: its sentence, and where a data-file default comes from. */
  help?: FieldHelpParts;
  onInput: (flag: string, value: string) => void;
}

/**
 * A form row: label, control, unit, help and any error, tied together for assistive technology. The help is a
 * sentence or two; where a default comes from, with its sources as links, folds under it.
 */
export function InputField({ spec, value, placeholder, error, changed, options, help, onInput }: Props) {
  const id = `in-${spec.flag}`;
  const describedBy = `${id}-help${error ? ` ${id}-error` : ''}`;
  const common = {
    id,
    name: spec.flag,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
  };
  let control;
  if (spec.kind === 'bool') {
    control = (
      <input
        {...common}
        type="checkbox"
        checked={value === 'true'}
        onChange={(e) => onInput(spec.flag, (e.currentTarget as HTMLInputElement).checked ? 'true' : 'false')}
      />
    );
  } else if (spec.kind === 'enum' || spec.kind === 'profile') {
    const choices = options ?? spec.choices!.map((c) => [c, c] as [string, string]);
    control = (
      <select
        {...common}
        value={value}
        onChange={(e) => onInput(spec.flag, (e.currentTarget as HTMLSelectElement).value)}
      >
        {choices.map(([v, label]) => (
          <option value={v} key={v}>
            {label}
          </option>
        ))}
      </select>
    );
  } else {
    control = (
      <input
        {...common}
        type="text"
        inputMode={spec.kind === 'int' ? 'numeric' : spec.kind === 'number' ? 'decimal' : undefined}
        autoComplete="off"
        spellcheck={false}
        value={value}
        placeholder={placeholder}
        onInput={(e) => onInput(spec.flag, (e.currentTarget as HTMLInputElement).value)}
      />
    );
  }
  return (
    <div
      class={`gen-field${spec.kind === 'bool' ? ' is-check' : ''}${changed ? ' is-changed' : ''}${error ? ' has-error' : ''}`}
    >
      <label for={id}>
        {spec.label}
        {spec.unit ? <span class="gen-unit">{` (${spec.unit})`}</span> : null}
        {changed ? <span class="gen-changed-mark"> · changed</span> : null}
      </label>
      {control}
      <p class="gen-help" id={`${id}-help`}>
        {`${help?.text ?? spec.help} `}
        <code>{`--${spec.flag}`}</code>
      </p>
      {help?.origin ? (
        <details class="gen-help-origin" data-testid={`origin-${spec.flag}`}>
          <summary>{`Where the default, ${help.origin.value}, comes from`}</summary>
          <p>{`The default is ${help.origin.summary}. Sources, checked ${help.origin.checked}:`}</p>
          <ul>
            {help.origin.sources.map((s) => (
              <li key={s.url}>
                <a href={s.url}>{s.title}</a>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {error ? (
        <p class="gen-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
