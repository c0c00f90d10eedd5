/**
 * Validate the request defaults data file (content/request-defaults.yaml): the defaults of request inputs that are
 * facts (the time per output token of the default model), each with its sources and the date they were checked.
 */
import { at, readList, readNumber, readObject, readString, type DataCursor } from './check-data.ts';
import type { Source } from './profiles.ts';
import { checkSourceRefs, DATE, readSource, readSourceIds } from './read-profile-common.ts';

/** A default value with what it is and where it comes from. */
export interface SourcedDefault {
  value: number;
  /** What the value is, as a clause that reads after "the default, 100 ms, is". */
  summary: string;
  sources: string[];
}

/** The sourced defaults of the request inputs. */
export interface RequestDefaults {
  /** The model the defaults are for (the default of the `model` input). */
  model: string;
  tpotMs: SourcedDefault;
  sources: Source[];
  lastChecked: string;
}

/** Validate one parsed request-defaults file. `file` names it in error messages. */
export function readRequestDefaults(data: unknown, file: string): RequestDefaults {
  const root: DataCursor = { file, path: '' };
  const o = readObject(data, root, ['model', 'tpotMs', 'sources', 'lastChecked']);
  const sources = readList(o.sources, at(root, 'sources'), readSource, 1);
  const tpotCursor = at(root, 'tpotMs');
  const tpot = readObject(o.tpotMs, tpotCursor, ['value', 'summary', 'sources']);
  const defaults: RequestDefaults = {
    model: readString(o.model, at(root, 'model'), /^[A-Za-z0-9][A-Za-z0-9._/:-]*$/),
    tpotMs: {
      // The same range as the tpot-ms input (fields.ts).
      value: readNumber(tpot.value, at(tpotCursor, 'value'), 0.1, 10000),
      summary: readString(tpot.summary, at(tpotCursor, 'summary')),
      sources: readSourceIds(tpot.sources, at(tpotCursor, 'sources')),
    },
    sources,
    lastChecked: readString(o.lastChecked, at(root, 'lastChecked'), DATE),
  };
  checkSourceRefs(o, root, new Set(sources.map((s) => s.id)));
  return defaults;
}
