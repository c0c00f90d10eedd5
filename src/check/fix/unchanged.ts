/**
 * Whether a fix would leave the manifest as it is: every edit sets a value already there (or splices in the text
 * already there). Such a fix is not a fix, and its finding not a finding (issue 34 item 7): the value the rule asks
 * for is the one the manifest has, so what is wrong, if anything, is a setting, and the plan's warnings say that.
 */
import type { Manifest } from '../read/read-manifest.ts';
import { isRecord, valueAt } from '../read/path.ts';
import type { Edit } from './edit.ts';

/** Whether two plain YAML values (scalars, arrays, mappings) are the same; the site runs this too, so no node:util. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
}

/** The object of the manifest an edit's path lies in. */
function editedObject(manifest: Manifest, edit: Edit) {
  return manifest.objects.find(
    (o) => o.document === edit.document && o.base.every((segment, i) => edit.path[i] === segment),
  );
}

/** Whether one edit writes what is already there. */
function editChangesNothing(manifest: Manifest, edit: Edit): boolean {
  // The value the edit's path holds now; undefined when no object of its document holds the path.
  const object = editedObject(manifest, edit);
  const now = object ? valueAt(object.value, edit.path.slice(object.base.length)) : undefined;
  if (edit.op === 'set') return now !== undefined && sameValue(now, edit.value);
  if (edit.op === 'splice') return typeof now === 'string' && now.slice(edit.start, edit.end) === edit.value;
  return false;
}

/** Whether a fix has edits and none of them changes the manifest. */
export function changesNothing(manifest: Manifest, edits: readonly Edit[]): boolean {
  return edits.length > 0 && edits.every((edit) => editChangesNothing(manifest, edit));
}

/**
 * Whether an edit cannot be written where its path goes: through a value that is neither a mapping, a list nor null
 * (a string where a mapping belongs), past the end of a list, or a splice into what is not a string. A fix with such
 * an edit would be written in part, so it is given as one to make by hand instead.
 */
function editUnwritable(manifest: Manifest, edit: Edit): boolean {
  if (edit.op === 'add-document') return false;
  const object = editedObject(manifest, edit);
  if (!object) return false;
  const path = edit.path.slice(object.base.length);
  let now: unknown = object.value;
  for (const [i, segment] of path.entries()) {
    if (now === undefined || now === null) return edit.op === 'splice';
    if (typeof segment === 'number') {
      if (!Array.isArray(now) || segment > now.length || (segment === now.length && i < path.length - 1)) return true;
    } else if (!isRecord(now)) return true;
    now = (now as Record<string | number, unknown>)[segment];
  }
  if (edit.op === 'splice') return typeof now !== 'string';
  if (edit.op === 'append') return now !== undefined && now !== null && !Array.isArray(now);
  return false;
}

/** Whether any edit of a fix cannot be written (see editUnwritable). */
export function unwritable(manifest: Manifest, edits: readonly Edit[]): boolean {
  return edits.some((edit) => editUnwritable(manifest, edit));
}
