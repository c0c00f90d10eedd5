/** Paths into a manifest: segments for the `yaml` Document API, text for readers. */

/** One step into a mapping (key) or a sequence (index). */
export type Segment = string | number;

/** A path from a document's root. */
export type NodePath = readonly Segment[];

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** Write a path as readers know it: `spec.template.spec.containers[0].lifecycle`. Odd keys are quoted. */
export function formatPath(path: NodePath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) text += text ? `.${segment}` : segment;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

/** The value at a path in plain data, or `undefined` when any step is missing. */
export function valueAt(root: unknown, path: NodePath): unknown {
  let node = root;
  for (const segment of path) {
    if (typeof segment === 'number' ? !Array.isArray(node) : !isRecord(node)) return undefined;
    node = (node as Record<Segment, unknown>)[segment];
  }
  return node;
}

/** A plain mapping (not null, not a list). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Bidirectional-text controls: shown raw, they reorder what a reader sees (Trojan Source). */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** Write bidirectional-text controls as `\u202E` escapes. */
export function escapeBidi(text: string): string {
  return text.replace(BIDI, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/** Quote a string from the manifest for a message: JSON escaping, bidi controls escaped, cut at 60 characters. */
export function quote(text: unknown): string {
  const value = typeof text === 'string' ? text : String(text);
  return escapeBidi(JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value));
}
