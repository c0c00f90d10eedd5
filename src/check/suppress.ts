/**
 * Suppression for CI: the annotation `hitless.dev/ignore: <code>[,<code>] — <reason>` on a workload (or any object
 * the checker reads) turns the named findings about that object into notes that carry the reason, so they no
 * longer fail a run, and still show. A reason is required: an annotation without one suppresses nothing and is
 * itself reported.
 */
import { objectName, report, type CheckContext } from './rules/context.ts';
import { quote } from './read/path.ts';
import type { ManifestObject } from './read/read-manifest.ts';

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

function annotationOf(object: ManifestObject): string | undefined {
  const metadata = object.value.metadata as Record<string, unknown> | undefined;
  const annotations =
    metadata && typeof metadata.annotations === 'object' && metadata.annotations
      ? (metadata.annotations as Record<string, unknown>)
      : undefined;
  const value = annotations?.[IGNORE_ANNOTATION];
  return value === undefined ? undefined : String(value);
}

/** Turn the findings an object's annotation names into notes with the reason; report unusable annotations. */
export function applySuppressions(check: CheckContext): void {
  for (const object of check.manifest.objects) {
    const value = annotationOf(object);
    if (value === undefined) continue;
    const parsed = parseIgnore(value);
    if ('problem' in parsed) {
      report(
        check,
        object,
        'value-unreadable',
        'warning',
        ['metadata', 'annotations', IGNORE_ANNOTATION],
        `${parsed.problem}. Nothing was suppressed.`,
      );
      continue;
    }
    const name = objectName(object);
    for (const finding of check.findings) {
      if (finding.object !== name || !parsed.codes.includes(finding.code) || finding.suppressed !== undefined) continue;
      finding.suppressed = parsed.reason;
      finding.message = `Suppressed by ${IGNORE_ANNOTATION} (${parsed.reason}): ${finding.message}`;
      finding.severity = 'info';
      if (finding.fix) finding.fix = { ...finding.fix, edits: [] };
      finding.remedy = 'manual';
    }
  }
}
