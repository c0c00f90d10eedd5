/**
 * The whole-number fields of a workload with the range the API server accepts for each (content/kubernetes/
 * value-ranges.yaml), and the judgement of a value against one: what the API server does with it once kubectl has
 * turned the YAML into JSON (see read/kube-yaml.ts for how the YAML's numbers are read).
 */
import type { ValueRange, ValueRanges } from '../../facts/profiles.ts';
import type { Segment } from '../read/path.ts';
import { quote } from '../read/path.ts';
import type { Workload } from './locate.ts';
import { containersOf } from './pod.ts';

/** The greatest value of a Go integer type; int64's is 2^63 − 1, which a double cannot hold, so the test is `< 2^63`. */
function fitsType(value: number, type: ValueRange['type']): boolean {
  return type === 'int32' ? value >= -(2 ** 31) && value <= 2 ** 31 - 1 : value >= -(2 ** 63) && value < 2 ** 63;
}

/** The greatest value a field accepts, for messages. */
export function maximumOf(range: ValueRange): string {
  return String(range.maximum ?? (range.type === 'int32' ? 2 ** 31 - 1 : '9223372036854775807'));
}

/** Why the API server refuses a value for a field, or undefined when it accepts it. */
export function rejection(raw: unknown, range: ValueRange): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'number') {
    // JSON has no NaN or infinity (kubectl stops), and a fraction or a number past the type is not decoded.
    if (!Number.isFinite(raw) || !Number.isInteger(raw)) return `${raw} is not a whole number`;
    if (!fitsType(raw, range.type)) return `${exact(raw)} does not fit its type, ${range.type}`;
    if (raw < range.minimum) return `${raw} is below ${range.minimum}`;
    if (range.maximum !== undefined && raw > range.maximum) return `${raw} is above ${range.maximum}`;
    return undefined;
  }
  if (typeof raw === 'string') return `${quote(raw)} is a string, not a number`;
  return `it is a ${Array.isArray(raw) ? 'list' : typeof raw}, not a number`;
}

/**
 * Whether a fix may write this value into a field: a whole number the API server accepts, and one a double holds
 * exactly (past 2^53 a sum the fix worked out may be off by thousands).
 */
export function writable(value: unknown, range: ValueRange): boolean {
  return Number.isSafeInteger(value) && rejection(value, range) === undefined;
}

/**
 * A number as the JSON kubectl sends: below 1e21 its exact digits (a double past 2^53 is an integer that JavaScript
 * prints rounded), from there in exponent form (1e+30), as Go's encoding/json writes a float64.
 */
function exact(value: number): string {
  return Number.isInteger(value) && !Number.isSafeInteger(value) && Math.abs(value) < 1e21
    ? BigInt(value).toString()
    : String(value);
}

/** The whole-number fields of a workload the checker reads or writes, each with its path from the object and range. */
export function fieldsOf(workload: Workload, ranges: ValueRanges): [Segment[], ValueRange][] {
  const fields: [Segment[], ValueRange][] = [];
  const templates = [workload.serving, ...(workload.workers ? [workload.workers] : [])];
  for (const range of ranges.fields) {
    if (range.kinds && !range.kinds.includes(workload.kind)) continue;
    const steps = range.path.split('.');
    if (range.within === 'object') fields.push([steps, range]);
    else if (range.within === 'podSpec')
      for (const template of templates) fields.push([[...template.specPath, ...steps], range]);
    else
      for (const template of templates)
        for (const c of containersOf(template)) fields.push([[...c.path, ...steps], range]);
  }
  return fields;
}

/**
 * The range of the field a fix writes at a path from the object (`undefined`: not a field of the data): a pod-spec or
 * container field by the end of its path, an object field by its whole path.
 */
export function rangeAt(path: readonly Segment[], ranges: ValueRanges): ValueRange | undefined {
  const keys = path.join('.');
  return ranges.fields.find((r) =>
    r.within === 'object' ? keys === r.path : keys.endsWith(`.${r.path}`) || keys === r.path,
  );
}
