/**
 * A field's help as readers see it: the table's sentence, plus, for defaults that come from the data files, what the
 * default is and where it comes from (the time per output token cites its sources and when they were checked).
 */
import type { FieldSpec } from './fields.ts';
import type { Profiles } from '../facts/profiles.ts';

/** The help text of a field, with the source of a data-file default. */
export function fieldHelp(spec: FieldSpec, profiles: Profiles): string {
  if (spec.key !== 'tpotMs') return spec.help;
  const d = profiles.requestDefaults;
  const cited = d.sources
    .filter((s) => d.tpotMs.sources.includes(s.id))
    .map((s) => `${s.title}, ${s.url}`)
    .join('; ');
  return `${spec.help} The default, ${d.tpotMs.value} ms, is ${d.tpotMs.summary} (sources, checked ${d.lastChecked}: ${cited}).`;
}
