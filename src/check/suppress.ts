/**
 * Suppression for CI: the annotation `hitless.dev/ignore: <code>[,<code>] — <reason>` on a workload (or any object
 * the checker reads) turns the named findings about that object into notes that carry the reason, so they no
 * longer fail a run, and still show. A reason is required: an annotation without one suppresses nothing and is
 * itself reported.
 */
import { objectName, type CheckContext } from './rules/context.ts';
import type { Finding } from './rules/findings.ts';
import { annotationOf, IGNORE_ANNOTATION, parseIgnore } from './rules/shared/ignore-annotation.ts';

/** Turn the findings an object's annotation names into notes with the reason. */
export function applySuppressions(check: CheckContext): void {
  for (const object of check.manifest.objects) {
    const value = annotationOf(object);
    if (value === undefined) continue;
    const parsed = parseIgnore(value);
    // An annotation that cannot be read suppresses nothing (value-unreadable reports it).
    if ('problem' in parsed) continue;
    const name = objectName(object);
    for (const finding of check.findings) {
      if (finding.object !== name || !parsed.codes.includes(finding.code) || finding.suppressed !== undefined) continue;
      suppress(finding, IGNORE_ANNOTATION, parsed.reason);
    }
  }
}

/** Turn a finding into a note that says what suppressed it (`by`) and why, with no edits. */
export function suppress(finding: Finding, by: string, reason: string): void {
  finding.suppressed = reason;
  finding.message = `Suppressed by ${by} (${reason}): ${finding.message}`;
  finding.severity = 'info';
  if (finding.fix) finding.fix = { ...finding.fix, edits: [] };
  finding.remedy = 'manual';
}
