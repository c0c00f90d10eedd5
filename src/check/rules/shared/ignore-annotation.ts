/**
 * The annotation `hitless.dev/ignore: <code>[,<code>] — <reason>` that suppresses findings about an object (see
 * src/check/suppress.ts), read: its codes and reason, or why it cannot be read.
 */
import { quote, valueAt } from '../../read/path.ts';
import type { ManifestObject } from '../../read/read-manifest.ts';

/** The annotation's key. */
export const IGNORE_ANNOTATION = 'hitless.dev/ignore';

/** Codes and reason of an ignore annotation, or why it is not one. */
export function parseIgnore(value: string): { codes: string[]; reason: string } | { problem: string } {
  // The separator is an em dash, or a dash between spaces (a code itself has dashes).
  const m = /^\s*([a-z0-9-]+(?:\s*,\s*[a-z0-9-]+)*)(?:\s*\u2014\s*|\s+(?:\u2013|--|-)\s+)(\S.*)$/s.exec(value);
  if (!m)
    return {
      problem: `${IGNORE_ANNOTATION} is ${quote(value)}; write the codes, a dash and the reason: "prestop-missing — the proxy drains for it"`,
    };
  return { codes: m[1].split(',').map((c) => c.trim()), reason: m[2].trim() };
}

/** The ignore annotation of an object, or undefined. */
export function annotationOf(object: ManifestObject): string | undefined {
  const value = valueAt(object.value, ['metadata', 'annotations', IGNORE_ANNOTATION]);
  return value === undefined ? undefined : String(value);
}
