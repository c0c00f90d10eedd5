/** The settings a check uses: the gateway, the requests, and what the cluster has. Fields come from the drain model's table. */
import { FIELDS, type FieldSpec } from '../../model/fields.ts';
import { InputField } from '../generator/InputField.tsx';
import { fieldHidden, hiddenFieldsNote } from '../generator/field-visibility.ts';
import type { ProfileChoices } from '../generator/profile-choices.ts';

interface Props {
  choices: ProfileChoices;
  /** The gateway the check uses (chosen, detected or the default); its choice sits above the manifest. */
  gateway: string;
  /** The reader's values by flag. */
  raw: Record<string, string>;
  /** Shown values for fields the reader left alone. */
  defaults: Record<string, unknown>;
  errors: Map<string, string>;
  onInput: (flag: string, value: string) => void;
  onReset: () => void;
}

/**
 * The check's field groups: the gateway's timing (the gateway itself is chosen above the manifest), the request
 * group, then the cluster facts a manifest does not state.
 */
const CHECK_GROUPS: { label: string; flags: (spec: FieldSpec) => boolean }[] = [
  { label: 'Gateway timing', flags: (f) => f.group === 'gateway' && f.key !== 'gateway' },
  { label: 'Requests and drain', flags: (f) => f.group === 'request' },
  {
    label: 'Model server and cluster',
    flags: (f) =>
      ['model-server', 'teardown-seconds', 'kubernetes-version', 'spare-gpus', 'startup-seconds'].includes(f.flag),
  },
];

/** The settings form. Everything the manifest states (probes, replicas, names) is read from it instead. */
export function CheckSettings({ choices, gateway, raw, defaults, errors, onInput, onReset }: Props) {
  const formState = { gateway, raw, errors };
  const optionsFor = (spec: FieldSpec): [string, string][] | undefined => {
    if (spec.key === 'modelServer')
      return [['', 'Detect from the manifest'], ...choices.modelServers.map((m): [string, string] => [m.id, m.name])];
    return undefined;
  };
  const defaultText = (spec: FieldSpec): string => {
    const d = spec.key === 'modelServer' ? undefined : defaults[spec.key];
    return d === undefined ? '' : String(d);
  };
  const valueOf = (spec: FieldSpec): string => (spec.flag in raw ? raw[spec.flag] : defaultText(spec));
  const placeholderOf = (spec: FieldSpec): string | undefined => {
    if (spec.key === 'maxRequestSeconds') return 'derived from the tokens below';
    if (spec.group === 'gateway' && defaults[spec.key] === undefined) return 'not used';
    return undefined;
  };
  return (
    <form class="gen-form chk-settings" onSubmit={(e) => e.preventDefault()} aria-label="Check settings">
      {CHECK_GROUPS.map((group) => {
        const fields = FIELDS.filter(group.flags);
        const hidden = fields.filter((spec) => fieldHidden(choices, formState, spec));
        const note = hiddenFieldsNote(choices, hidden);
        return (
          <fieldset key={group.label} class="gen-group">
            <legend>{group.label}</legend>
            {fields
              .filter((spec) => !hidden.includes(spec))
              .map((spec) => (
                <InputField
                  key={spec.flag}
                  spec={spec}
                  value={valueOf(spec)}
                  error={errors.get(spec.flag)}
                  placeholder={placeholderOf(spec)}
                  changed={spec.flag in raw && raw[spec.flag] !== defaultText(spec)}
                  options={optionsFor(spec)}
                  onInput={onInput}
                />
              ))}
            {note ? <p class="gen-hidden-note">{note}</p> : null}
          </fieldset>
        );
      })}
      <p class="gen-reset">
        <button type="button" onClick={onReset}>
          Reset the settings
        </button>
      </p>
    </form>
  );
}
