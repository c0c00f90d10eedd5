/**
 * A field's help as readers see it: the table's sentence, plus, for defaults that come from the data files, what the
 * default is and where it comes from (the time per output token cites its sources and when they were checked).
 * The page shows a sentence or two and the origin with its sources as links (`fieldHelpParts`); the CLI and the
 * drain-model page print it all as one text (`fieldHelp`).
 */
import type { FieldSpec } from './fields.ts';
import type { Profiles } from '../facts/profiles.ts';

/** Where a data-file default comes from: what it is, and its sources with the date they were checked. */
interface DefaultOrigin {
  /** The default as the reader reads it ("100 ms"). */
  value: string;
  /** What the default is: a clause after "The default, 100 ms, is". */
  summary: string;
  checked: string;
  sources: { title: string; url: string }[];
}

/** A field's help in parts: its sentence, and the origin of a data-file default. */
export interface FieldHelpParts {
  text: string;
  origin?: DefaultOrigin;
}

/** The help of a field, with the origin of a data-file default kept apart. */
export function fieldHelpParts(spec: FieldSpec, profiles: Profiles): FieldHelpParts {
  if (spec.key !== 'tpotMs') return { text: spec.help };
  const d = profiles.requestDefaults;
  const sources = d.sources.filter((s) => d.tpotMs.sources.includes(s.id)).map((s) => ({ title: s.title, url: s.url }));
  return {
    text: spec.help,
    origin: { value: `${d.tpotMs.value} ms`, summary: d.tpotMs.summary, checked: d.lastChecked, sources },
  };
}

/** The help text of a field, with the source of a data-file default. */
export function fieldHelp(spec: FieldSpec, profiles: Profiles): string {
  const { text, origin } = fieldHelpParts(spec, profiles);
  if (!origin) return text;
  const cited = origin.sources.map((s) => `${s.title}, ${s.url}`).join('; ');
  return `${text} The default, ${origin.value}, is ${origin.summary} (sources, checked ${origin.checked}: ${cited}).`;
}
