/** Checks shared by the gateway and model-server readers: ids, dates, sources and references to them. */
import { at, failAt, readList, readObject, readString, type DataCursor } from './check-data.ts';
import type { ReleaseRange, Source } from './profiles.ts';
import { compareReleases, releaseParts } from './releases.ts';

export const ID = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const URL_PATTERN = /^https:\/\/[^\s]+$/;

/** One entry of a profile's `sources`: id, title, url, what it was read at (`at`) and when (`checked`). */
export function readSource(value: unknown, cursor: DataCursor): Source {
  const o = readObject(value, cursor, ['id', 'title', 'url', 'at', 'checked']);
  return {
    id: readString(o.id, at(cursor, 'id'), ID),
    title: readString(o.title, at(cursor, 'title')),
    url: readString(o.url, at(cursor, 'url'), URL_PATTERN),
    at: readString(o.at, at(cursor, 'at')),
    checked: readDate(o.checked, at(cursor, 'checked')),
  };
}

/** A YYYY-MM-DD date; YAML may already have turned an unquoted one into a Date. */
function readDate(value: unknown, cursor: DataCursor): string {
  const text = value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString().slice(0, 10) : value;
  return readString(text, cursor, DATE);
}

/** The latest `checked` date of a profile's sources. */
export function latestChecked(sources: readonly Source[]): string {
  return sources.map((s) => s.checked).reduce((a, b) => (b > a ? b : a));
}

/** Optional `since`/`until` releases of a range: each a release (`0.18.0`, `25.05`), `since` before `until`. */
export function readRange(o: Record<string, unknown>, cursor: DataCursor): ReleaseRange {
  const range: ReleaseRange = {};
  for (const key of ['since', 'until'] as const) {
    if (o[key] === undefined) continue;
    // A bare 25.10 would reach here as the number 25.1, so releases must be strings (quote them in YAML).
    if (typeof o[key] === 'number')
      failAt(at(cursor, key), `must be a quoted release such as '25.05', found the number ${o[key]}`);
    const text = readString(o[key], at(cursor, key));
    if (!releaseParts(text))
      failAt(at(cursor, key), `must be a release such as 0.18.0 or 25.05 (quote it), found ${JSON.stringify(text)}`);
    range[key] = text;
  }
  if (range.since !== undefined && range.until !== undefined && compareReleases(range.since, range.until) >= 0) {
    failAt(at(cursor, 'until'), `must be a later release than since (${range.since}), found ${range.until}`);
  }
  return range;
}

export function readSourceIds(value: unknown, cursor: DataCursor): string[] {
  return readList(value, cursor, (item, c) => readString(item, c, ID), 1);
}

/** Check that every `sources:` list in a profile names a source declared in its top-level `sources`. */
export function checkSourceRefs(node: unknown, cursor: DataCursor, known: Set<string>): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => checkSourceRefs(item, at(cursor, i), known));
  } else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'sources' && Array.isArray(value) && value.every((v) => typeof v === 'string')) {
        value.forEach((id, i) => {
          if (!known.has(id))
            failAt(at(at(cursor, key), i), `names source "${id}", which the file's sources list does not declare`);
        });
      } else if (key !== 'sources' && key !== 'manifest') {
        checkSourceRefs(value, at(cursor, key), known);
      }
    }
  }
}
