/**
 * Gateway API durations (GEP-2257): one to four parts of digits and a unit, `h`, `m`, `s` or `ms`,
 * such as `300s` or `1h30m`. `0s` turns a timeout off.
 */
const DURATION = /^([0-9]{1,5}(h|m|s|ms)){1,4}$/;
const PART = /([0-9]{1,5})(ms|h|m|s)/g;
const UNIT_SECONDS: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };

/** Seconds in a Gateway API duration, or `undefined` when the text is not one. */
export function parseDuration(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined;
  let seconds = 0;
  for (const [, digits, unit] of text.matchAll(PART)) seconds += Number(digits) * UNIT_SECONDS[unit];
  return Math.round(seconds * 1000) / 1000;
}
