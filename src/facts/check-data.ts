/**
 * Small readers for profile data files. Each one returns the value or throws a `ProfileDataError`
 * naming the file and the dotted path of the field, so a broken data file fails loudly at load time.
 */

/** A data file that does not match the profile schema. */
export class ProfileDataError extends Error {
  constructor(file: string, path: string, problem: string) {
    super(`${file}: ${path} ${problem}`);
    this.name = 'ProfileDataError';
  }
}

/** The place being read: the file and the dotted path inside it. */
export interface DataCursor {
  file: string;
  path: string;
}

/** A cursor one step deeper. */
export function at(cursor: DataCursor, key: string | number): DataCursor {
  const path = typeof key === 'number' ? `${cursor.path}[${key}]` : cursor.path ? `${cursor.path}.${key}` : key;
  return { file: cursor.file, path };
}

function problem(cursor: DataCursor, text: string): never {
  throw new ProfileDataError(cursor.file, cursor.path || '(top level)', text);
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`;
}

/** Read an object with exactly the allowed keys (missing optional keys are fine). */
export function readObject(value: unknown, cursor: DataCursor, allowed: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    problem(cursor, `must be a mapping, found ${describe(value)}`);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) problem(at(cursor, key), `is not a known field (known: ${allowed.join(', ')})`);
  }
  return value as Record<string, unknown>;
}

/** Read a non-empty string, optionally matching a pattern. */
export function readString(value: unknown, cursor: DataCursor, pattern?: RegExp): string {
  if (typeof value !== 'string' || value.trim() === '')
    problem(cursor, `must be a non-empty string, found ${describe(value)}`);
  if (pattern && !pattern.test(value)) problem(cursor, `must match ${pattern}, found ${JSON.stringify(value)}`);
  return value;
}

/** Read a finite number within [min, max]; whole numbers only when `integer`. */
export function readNumber(value: unknown, cursor: DataCursor, min: number, max: number, integer = false): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    problem(cursor, `must be a number, found ${describe(value)}`);
  if (value < min || value > max) problem(cursor, `must be from ${min} to ${max}, found ${value}`);
  if (integer && !Number.isInteger(value)) problem(cursor, `must be a whole number, found ${value}`);
  return value;
}

/** Read a boolean. */
export function readBoolean(value: unknown, cursor: DataCursor): boolean {
  if (typeof value !== 'boolean') problem(cursor, `must be true or false, found ${describe(value)}`);
  return value;
}

/** Read one of a fixed set of strings. */
export function readEnum<T extends string>(value: unknown, cursor: DataCursor, choices: readonly T[]): T {
  if (typeof value !== 'string' || !choices.includes(value as T)) {
    problem(cursor, `must be one of ${choices.join(', ')}, found ${describe(value)}`);
  }
  return value as T;
}

/** Read a list, reading each item with `readItem`. */
export function readList<T>(
  value: unknown,
  cursor: DataCursor,
  readItem: (item: unknown, cursor: DataCursor) => T,
  minItems = 0,
): T[] {
  if (!Array.isArray(value)) problem(cursor, `must be a list, found ${describe(value)}`);
  if (value.length < minItems) problem(cursor, `must have at least ${minItems} item(s)`);
  return value.map((item, index) => readItem(item, at(cursor, index)));
}

/** Read an optional field: `undefined` stays `undefined`, anything else goes through `read`. */
export function optional<T>(
  value: unknown,
  cursor: DataCursor,
  read: (value: unknown, cursor: DataCursor) => T,
): T | undefined {
  return value === undefined ? undefined : read(value, cursor);
}

/** Fail with a message at a cursor (for cross-field rules). */
export function failAt(cursor: DataCursor, text: string): never {
  problem(cursor, text);
}
