/**
 * The whole-number fields of a workload with the range the API server accepts for each (content/kubernetes/
 * value-ranges.yaml), and the judgement of a value against one: what the API server does with it once kubectl has
 * turned the YAML into JSON (see read/kube-yaml.ts for how the YAML's numbers are read).
 */
import type { ValueRange, ValueRanges, ValueRelation } from '../../facts/profiles.ts';
import { quote, valueAt, type Segment } from '../read/path.ts';
import type { Workload } from './locate.ts';
import { containersOf } from './pod.ts';

/**
 * The greatest value of a Go integer type (an IntOrString's count is an int32); int64's is 2^63 − 1, which a double
 * cannot hold, so the test is `< 2^63`.
 */
function fitsType(value: number, type: ValueRange['type']): boolean {
  return type === 'int64' ? value >= -(2 ** 63) && value < 2 ** 63 : value >= -(2 ** 31) && value <= 2 ** 31 - 1;
}

/** The greatest value a field accepts, for messages. */
export function maximumOf(range: ValueRange): string {
  return String(range.maximum ?? (range.type === 'int64' ? '9223372036854775807' : 2 ** 31 - 1));
}

/** What a field accepts, for messages: `a whole number from 0 to 2147483647 (int32)`. */
export function allowedOf(range: ValueRange): string {
  const count = `a whole number from ${range.minimum} to ${maximumOf(range)}`;
  if (range.type !== 'intOrPercent') return `${count} (${range.type})`;
  const percent =
    range.percentMaximum === undefined
      ? 'a percentage such as 25%'
      : `a percentage from 0% to ${range.percentMaximum}%`;
  return `${count} or ${percent}`;
}

/** A percentage as IntOrString validation accepts it (IsValidPercent): digits, then `%`. */
const PERCENT = /^[0-9]+%$/;

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
  if (typeof raw === 'string' && range.type === 'intOrPercent') {
    if (!PERCENT.test(raw)) return `${quote(raw)} is neither a count nor a percentage such as 25%`;
    const percent = Number(raw.slice(0, -1));
    if (range.percentMaximum !== undefined && percent > range.percentMaximum)
      return `${raw} is above ${range.percentMaximum}%`;
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
export function rangeAt(path: readonly Segment[], ranges: ValueRanges, kind?: string): ValueRange | undefined {
  const keys = path.join('.');
  return ranges.fields.find(
    (r) =>
      (!kind || !r.kinds || r.kinds.includes(kind))
      && (r.within === 'object' ? keys === r.path : keys.endsWith(`.${r.path}`) || keys === r.path),
  );
}

/** A relation between two fields of an object that its values break, with what to say. */
export interface BrokenRelation {
  relation: ValueRelation;
  /** The path of the field the API server names in its error. */
  path: Segment[];
  message: string;
}

/** A side's value as validation sees it: as written, or its default when absent. */
function sideOf(value: unknown, side: ValueRelation['left']): { raw: unknown; defaulted: boolean } {
  const raw = valueAt(value, side.path.split('.'));
  return raw === undefined || raw === null ? { raw: side.default, defaulted: true } : { raw, defaulted: false };
}

/** An IntOrString's value as getIntOrPercentValue reads it (25% is 25), or undefined when it is neither. */
function countOrPercent(raw: unknown): number | undefined {
  if (typeof raw === 'number' && Number.isInteger(raw)) return raw;
  return typeof raw === 'string' && PERCENT.test(raw) ? Number(raw.slice(0, -1)) : undefined;
}

/**
 * The relations of content/kubernetes/value-ranges.yaml an object of `kind` breaks. A side whose value is not a
 * number the relation can read is left to the field's own range (value-rejected says so), not judged here.
 */
export function brokenRelations(value: unknown, kind: string, ranges: ValueRanges): BrokenRelation[] {
  const broken: BrokenRelation[] = [];
  for (const relation of ranges.relations) {
    if (!relation.kinds.includes(kind)) continue;
    if (relation.when) {
      const at = valueAt(value, relation.when.path.split('.'));
      if ((at === undefined || at === null ? relation.when.default : at) !== relation.when.equals) continue;
    }
    const [left, right] = [sideOf(value, relation.left), sideOf(value, relation.right)];
    const [leftKey, rightKey] = [relation.left.path.split('.').at(-1), relation.right.path.split('.').at(-1)];
    const said = (side: { raw: unknown; defaulted: boolean }) =>
      `${typeof side.raw === 'string' ? side.raw : String(side.raw)}${side.defaulted ? ', the default' : ''}`;
    if (relation.relation === 'greaterThan') {
      if (typeof left.raw !== 'number' || typeof right.raw !== 'number') continue;
      if (!Number.isInteger(left.raw) || !Number.isInteger(right.raw) || left.raw > right.raw) continue;
      broken.push({
        relation,
        path: relation.left.path.split('.'),
        message: `${leftKey} (${said(left)}) is not greater than ${rightKey} (${said(right)}); ${leftKey} must be from ${right.raw + 1} to 2147483647`,
      });
    } else {
      const [l, r] = [countOrPercent(left.raw), countOrPercent(right.raw)];
      if (l !== 0 || r !== 0) continue;
      broken.push({
        relation,
        path: relation.right.path.split('.'),
        message: `${leftKey} (${said(left)}) and ${rightKey} (${said(right)}) are both 0; at least one must be above 0 (a count or a percentage)`,
      });
    }
  }
  return broken;
}
