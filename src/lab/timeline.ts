/**
 * Request outcomes over time, for the lab page's chart: requests counted by outcome in fixed-width
 * buckets of the time each one ended (when a refusal, cut or abort happened), in model seconds after
 * the deletion.
 */
import type { Outcome } from './classify.ts';

/** One bucket: [from, from + width) with a count per outcome. */
export type Bucket = { from: number } & Record<Outcome, number>;

export interface Timeline {
  width: number;
  buckets: Bucket[];
}

/** Model seconds per bucket on the chart. */
const BUCKET_SECONDS = 2;

/**
 * Count outcomes per bucket from `from` to `to` (both rounded outward to the bucket width).
 * Requests that ended outside the range are counted in the first or last bucket.
 */
export function bucketOutcomes(
  records: readonly { ended: number; outcome: Outcome }[],
  from: number,
  to: number,
  width: number = BUCKET_SECONDS,
): Timeline {
  const start = Math.floor(from / width) * width;
  const count = Math.max(1, Math.ceil((to - start) / width));
  const buckets: Bucket[] = [];
  for (let i = 0; i < count; i++)
    buckets.push({ from: start + i * width, ok: 0, refused: 0, cut: 0, aborted: 0, error: 0 });
  for (const r of records) {
    const index = Math.min(count - 1, Math.max(0, Math.floor((r.ended - start) / width)));
    buckets[index][r.outcome]++;
  }
  return { width, buckets };
}

/** The median of numbers (the mean of the middle two for an even count); 0 for none. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
