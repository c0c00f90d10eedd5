/**
 * The `routeTimeout` block of a gateway data file: what the gateway does with a Gateway API HTTPRoute's
 * `spec.rules[].timeouts.request`, and how long it lets a request run when the route sets none.
 */
import {
  at,
  failAt,
  optional,
  readBoolean,
  readNumber,
  readObject,
  readString,
  type DataCursor,
} from './check-data.ts';
import { readSourceIds } from './read-profile-common.ts';

/** A gateway's request timeout on an HTTPRoute rule, read at a named release. */
export interface RouteTimeoutFact {
  /** Whether the gateway applies `timeouts.request` (false: it refuses or ignores the field). */
  honored: boolean;
  /** The timeout a request gets when the route sets none; absent when there is none. */
  defaultSeconds?: number;
  /**
   * For a gateway that does not take `timeouts` on the route: the setting that bounds a response instead, and
   * whether it counts the whole response (`total`) or only a gap between two reads (`between-reads`).
   */
  instead?: { setting: string; defaultSeconds: number; scope: 'total' | 'between-reads' };
  /** What the gateway does, in a sentence or two, for the gateway's page and the plan's notes. */
  summary: string;
  sources: string[];
}

/** Validate a gateway's `routeTimeout` block. */
export function readRouteTimeout(value: unknown, cursor: DataCursor): RouteTimeoutFact {
  const o = readObject(value, cursor, ['honored', 'defaultSeconds', 'instead', 'summary', 'sources']);
  const fact: RouteTimeoutFact = {
    honored: readBoolean(o.honored, at(cursor, 'honored')),
    summary: readString(o.summary, at(cursor, 'summary')),
    sources: readSourceIds(o.sources, at(cursor, 'sources')),
  };
  const defaultSeconds = optional(o.defaultSeconds, at(cursor, 'defaultSeconds'), (v, c) =>
    readNumber(v, c, 1, 86400, true),
  );
  if (defaultSeconds !== undefined) fact.defaultSeconds = defaultSeconds;
  const instead = optional(o.instead, at(cursor, 'instead'), (v, c) => {
    const i = readObject(v, c, ['setting', 'defaultSeconds', 'scope']);
    return {
      setting: readString(i.setting, at(c, 'setting')),
      defaultSeconds: readNumber(i.defaultSeconds, at(c, 'defaultSeconds'), 1, 86400, true),
      scope: (() => {
        const scope = readString(i.scope, at(c, 'scope'));
        if (scope !== 'total' && scope !== 'between-reads')
          failAt(at(c, 'scope'), `must be total or between-reads, found ${JSON.stringify(scope)}`);
        return scope as 'total' | 'between-reads';
      })(),
    };
  });
  if (instead !== undefined) fact.instead = instead;
  if (fact.honored && fact.instead)
    failAt(at(cursor, 'instead'), 'is only for a gateway that does not honor timeouts.request');
  if (!fact.honored && !fact.instead)
    failAt(at(cursor, 'instead'), 'is required when honored is false: say what bounds a response instead');
  return fact;
}
