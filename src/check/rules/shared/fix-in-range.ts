/**
 * The last step of every fix: a value it would write into a whole-number field of content/kubernetes/value-ranges.yaml
 * must be one the API server accepts, and the object it leaves must break no relation of that file the object did
 * not already break. A fix that would (a grace period past int64 after adding the drain to a huge preStop, a
 * progress deadline past int32 or not above minReadySeconds) writes nothing and says what to do by hand instead.
 */
import type { ValueRanges } from '../../../facts/profiles.ts';
import { isRecord, type Segment } from '../../read/path.ts';
import type { ManifestObject } from '../../read/read-manifest.ts';
import { brokenRelations, maximumOf, rangeAt, writable } from '../../workload/value-ranges.ts';
import { manualFix, type Fix } from '../findings.ts';

/** Each number a value holds, with its path from the value (the value's own for a number). */
function numbersIn(value: unknown, path: Segment[] = []): [Segment[], unknown][] {
  if (isRecord(value)) return Object.entries(value).flatMap(([k, v]) => numbersIn(v, [...path, k]));
  if (Array.isArray(value)) return value.flatMap((v, i) => numbersIn(v, [...path, i]));
  return typeof value === 'number' ? [[path, value]] : [];
}

/** The fix as given when every value it writes is in range, else a manual remedy that names the value out of range. */
export function fixInRange(
  fix: Fix | undefined,
  object: ManifestObject | undefined,
  ranges: ValueRanges,
): Fix | undefined {
  if (!fix) return fix;
  for (const edit of fix.edits) {
    if (edit.op !== 'set') continue;
    const base = object?.base ?? [];
    const own = base.every((s, i) => edit.path[i] === s) ? edit.path.slice(base.length) : edit.path;
    for (const [inner, value] of numbersIn(edit.value)) {
      const path = [...own, ...inner];
      const range = rangeAt(path, ranges, object?.kind);
      if (!range || writable(value, range)) continue;
      const key = String(path.at(-1));
      return manualFix(
        `the fix would set ${key} to ${value}, outside the ${range.minimum} to ${maximumOf(range)} the API server accepts `
          + `(${range.type}), so the checker wrote nothing; bring the values it was worked out from into range, then check again.`,
      );
    }
  }
  return object ? fixKeepsRelations(fix, object, ranges) : fix;
}

/** Set `value` at `path` in a copy of `root` made as it goes (the parts the path passes through are copied). */
function setIn(root: unknown, path: readonly Segment[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(root) && typeof head === 'number')
    return root.map((v, i) => (i === head ? setIn(v, rest, value) : v));
  const copy: Record<string, unknown> = isRecord(root) ? { ...root } : {};
  copy[String(head)] = setIn(copy[String(head)], rest, value);
  return copy;
}

/**
 * The fix as given unless the object it leaves breaks a relation it did not break before, or one whose fields the fix
 * writes (a fix that sets a field must leave it valid, whatever it was).
 */
function fixKeepsRelations(fix: Fix, object: ManifestObject, ranges: ValueRanges): Fix {
  let after: unknown = object.value;
  const written = new Set<string>();
  for (const edit of fix.edits) {
    if (edit.op !== 'set' || edit.document !== object.document) continue;
    if (!object.base.every((s, i) => edit.path[i] === s)) continue;
    const own = edit.path.slice(object.base.length);
    after = setIn(after, own, edit.value);
    written.add(own.join('.'));
  }
  if (after === object.value) return fix;
  const before = new Set(brokenRelations(object.value, object.kind, ranges).map((b) => b.relation));
  const broken = brokenRelations(after, object.kind, ranges).find(
    ({ relation: r }) => !before.has(r) || written.has(r.left.path) || written.has(r.right.path),
  );
  if (!broken) return fix;
  return manualFix(
    `with the fix, ${broken.message}, which the API server refuses, so the checker wrote nothing; change the values by hand, then check again.`,
  );
}
