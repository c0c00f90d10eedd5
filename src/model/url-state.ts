/**
 * The generator's state in a URL query: `v=2` plus every input that differs from its default, keyed by
 * its flag (`?v=2&gateway=istio&max-output-tokens=8192`). `v` is the drain model's version: a link made under an
 * older model opens the current one with a list of every value that changed, old → new (`migrate.ts`). Reading a
 * query never fails: bad, unknown or tampered values fall back to their defaults and each one yields a notice the
 * page shows.
 */
import { fieldFor } from './fields.ts';
import { migrateInputs, type Migration } from './migrate.ts';
import { MODEL_VERSION } from './plan.ts';
import { quoteForMessage } from './parse-value.ts';
import type { Profiles } from '../facts/profiles.ts';
import { changedInputs, resolveInputs, type DrainInputs } from './resolve.ts';

/** The version of the query format: the drain model's version; a link carries it so later models can read old links. */
const URL_STATE_VERSION = String(MODEL_VERSION);

/**
 * The longest query the page reads; anything longer is ignored as tampered. src/site/long-link.mjs drops a
 * longer one from the address before the page requests anything (a test keeps the two numbers in step).
 */
export const MAX_QUERY_LENGTH = 4000;

/** What the page says about a query longer than it reads. */
export const LONG_QUERY_NOTICE = `The link's settings are longer than ${MAX_QUERY_LENGTH} characters and were ignored; showing the defaults.`;

/** Inputs read from a query, the raw values that were accepted, and notices about the rest. */
export interface QueryState {
  inputs: DrainInputs;
  /** Accepted values by flag, as the form should show them. */
  raw: Record<string, string>;
  notices: string[];
  /** For a link made under an older drain model: the version and every value that changed for its inputs. */
  migration?: Migration;
}

/** The query string (without `?`) for a set of inputs: the version and the non-default values. */
export function encodeQuery(inputs: DrainInputs, profiles: Profiles): string {
  const params = new URLSearchParams();
  params.set('v', URL_STATE_VERSION);
  for (const [flag, value] of changedInputs(inputs, profiles)) params.set(flag, value);
  return params.toString();
}

/** Read a query string (with or without `?`) into inputs, falling back to defaults with notices. */
export function decodeQuery(search: string, profiles: Profiles): QueryState {
  const notices: string[] = [];
  const text = search.startsWith('?') ? search.slice(1) : search;
  if (text.length > MAX_QUERY_LENGTH) {
    notices.push(LONG_QUERY_NOTICE);
    return { ...resolveInputs({}, profiles), raw: {}, notices };
  }
  const params = new URLSearchParams(text);
  const raw: Record<string, string> = {};
  const version = params.get('v');
  // An older model's link (v=1) is migrated below; a link without v is read as the current model's.
  const olderVersion =
    version !== null && /^[1-9]\d{0,2}$/.test(version) && Number(version) < MODEL_VERSION ? Number(version) : undefined;
  if (version !== null && version !== URL_STATE_VERSION && olderVersion === undefined) {
    notices.push(
      `The link was made by settings format v${quoteForMessage(version.slice(0, 10)).slice(1, -1)}; this page reads v${URL_STATE_VERSION}, so some values may not carry over.`,
    );
  }
  for (const [key, value] of params) {
    if (key === 'v') continue;
    const spec = fieldFor(key);
    if (!spec || spec.flag !== key) {
      notices.push(`The link has an unknown setting ${quoteForMessage(key)}; it was ignored.`);
    } else if (key in raw) {
      notices.push(`The link sets ${key} more than once; the first value was used.`);
    } else {
      raw[key] = value;
    }
  }
  const resolved = resolveInputs(raw, profiles);
  for (const error of resolved.errors) {
    notices.push(`${error.message}; the default was used instead.`);
    delete raw[error.flag];
  }
  if (olderVersion !== undefined) {
    const migrated = migrateInputs(raw, olderVersion, profiles);
    return { ...resolveInputs(migrated.raw, profiles), raw: migrated.raw, notices, migration: migrated.migration };
  }
  return { inputs: resolved.inputs, raw, notices };
}
