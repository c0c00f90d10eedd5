/**
 * Round a duration up to whole seconds, after first rounding it to the nearest millisecond,
 * so that floating-point noise cannot add a second: 30 × 1.1 = 33.000000000000004 gives 33, not 34.
 */
export function ceilSeconds(seconds: number): number {
  return Math.ceil(Math.round(seconds * 1000) / 1000);
}

/** Round to the nearest millisecond, for values that stay fractional (a given removal p99). */
export function roundMs(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/** Write a number of seconds for comments and messages: "30s", "49.152s". */
export function formatSeconds(seconds: number): string {
  return `${roundMs(seconds)}s`;
}

/** Write a multiplier for comments: 50 → "1.5", 0 → "1". */
export function formatFactor(percent: number): string {
  return String(roundMs(1 + percent / 100));
}
