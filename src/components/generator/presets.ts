/** Which of the reader's values a gateway or model-server preset would replace. */
import { FIELDS } from '../../model/fields.ts';
import { defaultsFor, type DrainInputs } from '../../model/resolve.ts';
import type { Profiles } from '../../facts/profiles.ts';

/** A value the reader set that differs from what the new preset would give. */
export interface PresetConflict {
  flag: string;
  presetValue: string;
}

/** A gateway or model-server change waiting for the reader's answer. */
export interface PendingPreset {
  flag: string;
  value: string;
  conflicts: PresetConflict[];
}

/**
 * The reader's values that the preset for `value` would overwrite: fields whose default changes with the
 * choice and that the reader set to something other than the new default.
 */
export function presetConflicts(
  profiles: Profiles,
  inputs: DrainInputs,
  raw: Record<string, string>,
  flag: string,
  value: string,
): PresetConflict[] {
  const gateway = flag === 'gateway' ? value : inputs.gateway;
  const modelServer = flag === 'model-server' ? value : inputs.modelServer;
  const before = defaultsFor(profiles, inputs.gateway, inputs.modelServer);
  const after = defaultsFor(profiles, gateway, modelServer);
  const conflicts: PresetConflict[] = [];
  for (const f of FIELDS) {
    if (f.kind === 'profile' || !(f.flag in raw) || raw[f.flag].trim() === '') continue;
    if (before[f.key] === after[f.key]) continue;
    const presetValue = after[f.key] === undefined ? '(not used)' : String(after[f.key]);
    if (raw[f.flag] !== presetValue) conflicts.push({ flag: f.flag, presetValue });
  }
  return conflicts;
}
