/** The time axis of the drain timeline: a step that gives readable ticks at any width. */

const STEPS = [1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 43200, 86400];

/** Tick positions in seconds from 0 to `spanSeconds`, at most `maxTicks` of them (at least two). */
export function ticksFor(spanSeconds: number, maxTicks: number): number[] {
  const limit = Math.max(2, maxTicks);
  const step = STEPS.find((s) => spanSeconds / s <= limit - 1) ?? STEPS[STEPS.length - 1];
  const ticks: number[] = [];
  for (let t = 0; t <= spanSeconds + 1e-9; t += step) ticks.push(t);
  return ticks;
}

/**
 * Labels for a whole axis in one unit: hours when every tick is a whole hour (and the axis reaches 3 h), minutes
 * when every tick is a whole minute (and it reaches 10 min), seconds otherwise. One axis never mixes `0s` and `10m`.
 */
export function tickLabels(ticks: readonly number[]): string[] {
  const last = ticks[ticks.length - 1] ?? 0;
  if (last >= 10800 && ticks.every((t) => t % 3600 === 0)) return ticks.map((t) => `${t / 3600}h`);
  if (last >= 600 && ticks.every((t) => t % 60 === 0)) return ticks.map((t) => `${t / 60}m`);
  return ticks.map((t) => `${t}s`);
}

/** Break a label into lines of at most `maxChars` characters, at spaces; a longer word keeps its own line. */
export function wrapLabel(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > maxChars) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
