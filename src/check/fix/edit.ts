/** A change to one YAML document, as a fix carries it and `fix.ts` applies it. */
import type { Segment } from '../read/path.ts';

/**
 * `set` writes a value at a path, creating missing mappings; `append` adds an item to the sequence at a
 * path, creating it when missing; `splice` replaces the characters [start, end) of the string at a path with
 * `value` (several splices of one string compose). `comment` goes beside a written scalar when the reader has
 * none there. `add-document` adds a new YAML document (its text is `value`, `path` is empty) after the last
 * one; `document` is the index it will have.
 */
export interface Edit {
  op: 'set' | 'append' | 'splice' | 'add-document';
  document: number;
  path: Segment[];
  value: unknown;
  comment?: string;
  /** For `splice`: the range of the string it replaces. */
  start?: number;
  end?: number;
}
