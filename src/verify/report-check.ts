/**
 * Whether parsed JSON is a verify report (version 1) that `--merge` can take: every field of the report, of its
 * settings, of each event and of each request row is checked, and the first bad one is named with its path
 * (`perRequest[12].outcome`), so that a shard from another tool or a hand-edited one is refused before it is merged.
 */
import { VERIFY_OUTCOMES } from './outcome.ts';

type Check = (value: unknown) => string | null;

const show = (value: unknown) => (value === undefined ? 'missing' : JSON.stringify(value)?.slice(0, 60));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A finite number at least `min` (a whole one when `whole`). */
function num(min: number, whole = false): Check {
  return (v) =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && (!whole || Number.isInteger(v))
      ? null
      : `is ${show(v)}, not ${whole ? 'a whole number' : 'a number'} from ${min}`;
}

const str: Check = (v) => (typeof v === 'string' ? null : `is ${show(v)}, not a string`);
function nullOr(check: Check): Check {
  return (v) => (v === null ? null : check(v));
}
function optional(check: Check): Check {
  return (v) => (v === undefined ? null : check(v));
}
function oneOf(...allowed: readonly unknown[]): Check {
  return (v) => (allowed.includes(v) ? null : `is ${show(v)}, not one of ${allowed.join(', ')}`);
}

/** The first bad field of `value` against `shape`, as "path problem". */
function fields(value: unknown, shape: Record<string, Check>, path: string): string | null {
  if (!isObject(value)) return `${path || 'the report'} is ${show(value)}, not an object`;
  for (const [key, check] of Object.entries(shape)) {
    const problem = check(value[key]);
    if (problem) return `${path ? `${path}.` : ''}${key} ${problem}`;
  }
  return null;
}

const SETTINGS: Record<string, Check> = {
  url: str,
  api: oneOf('completions', 'chat'),
  model: str,
  ratePerSecond: num(0),
  concurrency: num(0, true),
  durationSeconds: nullOr(num(0)),
  maxTokens: num(0, true),
  timeoutSeconds: num(0),
};

const EVENT: Record<string, Check> = { atSeconds: num(0), what: str };

const ROW: Record<string, Check> = {
  id: num(0, true),
  shard: optional(num(0, true)),
  start: num(0),
  end: num(0),
  outcome: oneOf(...VERIFY_OUTCOMES, 'cancelled'),
  status: nullOr(num(100, true)),
  ttftMs: nullOr(num(0)),
  detail: nullOr(str),
};

const TTFT: Record<string, Check> = { p50: num(0), p99: num(0) };

// A shard from before `unreadable` was an outcome has no count for it: none.
const OUTCOMES: Record<string, Check> = Object.fromEntries(
  VERIFY_OUTCOMES.map((o) => [o, o === 'unreadable' ? optional(num(0, true)) : num(0, true)]),
);

const REPORT: Record<string, Check> = {
  requests: num(0, true),
  lost: num(0, true),
  skipped: optional(num(0, true)),
  cancelled: optional(num(0, true)),
  longestOkSeconds: optional(num(0)),
  clientMaxLagMs: optional(num(0)),
  shards: optional(num(1, true)),
};

/** Each element of an array field checked against `shape`. */
function everyOf(report: Record<string, unknown>, key: string, shape: Record<string, Check>): string | null {
  const list = report[key];
  if (!Array.isArray(list)) return `"${key}" is missing`;
  for (let i = 0; i < list.length; i++) {
    const problem = fields(list[i], shape, `${key}[${i}]`);
    if (problem) return problem;
  }
  return null;
}

/** Why `data` is not a verify report `--merge` can take, or null when it is one. */
export function reportProblem(data: unknown): string | null {
  if (!isObject(data)) return 'it is not an object';
  if (data.tool !== 'hitless verify') return '"tool" is not "hitless verify"';
  if (data.version !== 1) return `version ${JSON.stringify(data.version)} is not 1`;
  if (typeof data.startedAt !== 'string' || Number.isNaN(Date.parse(data.startedAt)))
    return '"startedAt" is not a time';
  if (!Array.isArray(data.perRequest)) return '"perRequest" is missing';
  if (!Array.isArray(data.events)) return '"events" is missing';
  if (!isObject(data.settings)) return '"settings" is missing';
  const problem =
    fields(data.settings, SETTINGS, 'settings')
    ?? fields(data, REPORT, '')
    ?? fields(data.outcomes, OUTCOMES, 'outcomes')
    ?? (data.ttftMs === null ? null : fields(data.ttftMs, TTFT, 'ttftMs'))
    ?? everyOf(data, 'events', EVENT)
    ?? everyOf(data, 'perRequest', ROW);
  if (problem) return problem;
  const rows = (data.perRequest as unknown[]).length;
  if (data.requests !== rows) return `requests is ${data.requests}, but perRequest has ${rows} rows`;
  return null;
}
