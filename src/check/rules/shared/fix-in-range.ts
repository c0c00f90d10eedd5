/**
 * The last step of every fix: a value it would write into a whole-number field of content/kubernetes/value-ranges.yaml
 * must be one the API server accepts. A fix whose value is not (a grace period past int64 after adding the drain to a
 * huge preStop, a progress deadline past int32) writes nothing and says what to do by hand instead.
 */
import type { ValueRanges } from '../../../facts/profiles.ts';
import { isRecord, type Segment } from '../../read/path.ts';
import type { ManifestObject } from '../../read/read-manifest.ts';
import { maximumOf, rangeAt, writable } from '../../workload/value-ranges.ts';
import type { Fix } from '../findings.ts';

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
      const range = rangeAt(path, ranges);
      if (!range || writable(value, range)) continue;
      const key = String(path.at(-1));
      return {
        text:
          `Manual: the fix would set ${key} to ${value}, outside the ${range.minimum} to ${maximumOf(range)} the API server accepts `
          + `(${range.type}), so the checker wrote nothing; bring the values it was worked out from into range, then check again.`,
        edits: [],
      };
    }
  }
  return fix;
}
