/** Fills in a model server's shutdown log lines (`shutdownLog` in its data file); the page, guide and lab share it. */
import type { ShutdownLogLines } from './schemas/model-server-log.ts';

/** The values a line's placeholders take (`{count}` and so on); one not given stays as written. */
export type LogValues = Readonly<Partial<Record<string, string | number>>>;

/** The lines of one step with their placeholders filled; a `whileRunning` line only when `{count}` is above 0. */
export function fillLogLines(lines: ShutdownLogLines['sigterm'], values: LogValues): string[] {
  const running = Number(values.count ?? 0) > 0;
  return lines.flatMap((line) => {
    if (typeof line !== 'string' && !running) return [];
    const text = typeof line === 'string' ? line : line.whileRunning;
    return [text.replace(/\{(\w+)\}/g, (whole, key: string) => String(values[key] ?? whole))];
  });
}
