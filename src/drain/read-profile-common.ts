/** Checks shared by the gateway and model-server readers: ids, dates, sources and references to them. */
import {
  at, failAt, readList, readObject, readString,
  type DataCursor,
} from './check-data.ts';
import { type Source } from './profiles.ts';

export const ID = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const URL_PATTERN = /^https:\/\/[^\s]+$/;

export function readSource(value: unknown, cursor: DataCursor): Source {
  const o = readObject(value, cursor, ['id', 'title', 'url']);
  return {
    id: readString(o.id, at(cursor, 'id'), ID),
    title: readString(o.title, at(cursor, 'title')),
    url: readString(o.url, at(cursor, 'url'), URL_PATTERN),
  };
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
          if (!known.has(id)) failAt(at(at(cursor, key), i), `names source "${id}", which the file's sources list does not declare`);
        });
      } else if (key !== 'sources' && key !== 'manifest') {
        checkSourceRefs(value, at(cursor, key), known);
      }
    }
  }
}
