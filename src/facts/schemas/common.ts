/** Schema parts every data-file kind shares: texts, ids, numbers in a range, sources and release ranges. */
import { z } from './zod.ts';
import { describeValue } from '../parse-data.ts';
import { compareReleases, RELEASE } from '../releases.ts';

export const ID = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const URL_PATTERN = /^https:\/\/[^\s]+$/;
/** A model name as Hugging Face writes it (`Qwen/Qwen3-32B`). */
export const MODEL = /^[A-Za-z0-9][A-Za-z0-9._/:-]*$/;

/** Refuse the value at `path` (within the value a refinement checks) with `message`. */
export function refuse(ctx: z.RefinementCtx, path: PropertyKey[], message: string): void {
  ctx.addIssue({ code: 'custom', path, message });
}

/** A string with something in it besides spaces. */
export const text = z
  .string()
  .regex(/\S/, { error: (i) => `must be a non-empty string, found ${describeValue(i.input)}` });

/** An id: lower case, digits and inner dashes. */
export const id = z.string().regex(ID);

/** A whole number in [min, max]. */
export function wholeNumber(min: number, max: number) {
  const error = (i: { input?: unknown }) =>
    `must be a whole number from ${min} to ${max}, found ${describeValue(i.input)}`;
  return z.int({ error }).min(min, { error }).max(max, { error });
}

/** A number in [min, max]. */
export function numberFrom(min: number, max: number) {
  const error = (i: { input?: unknown }) => `must be a number from ${min} to ${max}, found ${describeValue(i.input)}`;
  return z.number({ error }).min(min, { error }).max(max, { error });
}

/** How a number is known: written down by the project, measured by someone, or guessed. */
export const basis = z.enum(['documented', 'observed', 'estimate', 'example']);
export type Basis = z.output<typeof basis>;

/** The ids of the sources a fact cites: at least one. */
export const sourceIds = z.array(id).min(1);

/**
 * A public source a file cites, with what it was checked against and when: `at` names the release tag, commit or
 * documentation version that was read (`vLLM v0.18.0 docs`, `main at 055e47c2`, `PR, merged`), and `checked` is the
 * date (YYYY-MM-DD) someone last read it for the facts that cite it.
 */
export const source = z.strictObject({
  id,
  title: text,
  url: z.string().regex(URL_PATTERN),
  at: text,
  checked: z.string().regex(DATE),
});
export type Source = z.output<typeof source>;

/** The latest `checked` date of a file's sources. */
export function latestChecked(sources: readonly Source[]): string {
  return sources.map((s) => s.checked).reduce((a, b) => (b > a ? b : a));
}

/** A release (`0.18.0`, `25.05`); a bare 25.10 reaches YAML's reader as the number 25.1, so it must be quoted. */
const release = z
  .string({
    error: (i) =>
      typeof i.input === 'number' ? `must be a quoted release such as '25.05', found the number ${i.input}` : undefined,
  })
  .regex(RELEASE, {
    error: (i) => `must be a release such as 0.18.0 or 25.05 (quote it), found ${JSON.stringify(i.input)}`,
  });

/** The releases of a product a fact holds for: `since` inclusive, `until` exclusive (see `releaseInRange`). */
export const releaseRange = { since: release.optional(), until: release.optional() };
export type ReleaseRange = { since?: string; until?: string };

/** A range whose `until` is not after its `since` is refused at `until`. */
export function checkRange(range: ReleaseRange, ctx: z.RefinementCtx): void {
  if (range.since !== undefined && range.until !== undefined && compareReleases(range.since, range.until) >= 0)
    refuse(ctx, ['until'], `must be a later release than since (${range.since}), found ${range.until}`);
}

/** Every `sources:` list of ids in a file (outside manifest templates) must name a source in `known`. */
export function checkSourceRefs(
  node: unknown,
  known: ReadonlySet<string>,
  ctx: z.RefinementCtx,
  path: PropertyKey[] = [],
) {
  if (Array.isArray(node)) {
    node.forEach((item, i) => checkSourceRefs(item, known, ctx, [...path, i]));
  } else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'sources' && Array.isArray(value) && value.every((v) => typeof v === 'string')) {
        value.forEach((ref, i) => {
          if (!known.has(ref))
            refuse(ctx, [...path, key, i], `names source "${ref}", which the file's sources list does not declare`);
        });
      } else if (key !== 'sources' && key !== 'manifest') {
        checkSourceRefs(value, known, ctx, [...path, key]);
      }
    }
  }
}
