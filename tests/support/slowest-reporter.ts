/**
 * A node:test reporter that prints, at the end of the run, the slowest test files (wall time of each file's
 * process, start-up included) and the slowest single tests, so a slow suite is seen where it is. Use it beside
 * the spec reporter: `--test-reporter=spec --test-reporter=./tests/support/slowest-reporter.ts` with a destination
 * for each. SLOWEST_COUNT sets how many of each are listed (default 10).
 */
import { relative } from 'node:path';

interface TestEventData {
  name?: string;
  nesting?: number;
  file?: string;
  details?: { duration_ms?: number };
}

interface TestEvent {
  type: string;
  data?: TestEventData;
}

/** Seconds with one decimal, right-aligned for a table. */
function secondsText(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`.padStart(8);
}

/** Collect file and test durations; print the slowest of each when the run ends. */
export default async function* slowestReporter(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const count = Number(process.env.SLOWEST_COUNT ?? 10);
  const files: [string, number][] = [];
  const tests: [string, number][] = [];
  const started = Date.now();
  for await (const event of source) {
    if (event.type !== 'test:complete' || !event.data?.file) continue;
    const { name = '', nesting, file, details } = event.data;
    const ms = details?.duration_ms ?? 0;
    const path = relative(process.cwd(), file);
    // The runner reports each file as a test of nesting 0 named by its path; the file's own tests follow it.
    if (nesting === 0 && name === path) files.push([path, ms]);
    else if (nesting === 0) tests.push([`${path}: ${name}`, ms]);
  }
  const top = (rows: [string, number][]): string =>
    rows
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([label, ms]) => `${secondsText(ms)}  ${label}`)
      .join('\n');
  const fileTotalMs = files.reduce((sum, [, ms]) => sum + ms, 0);
  yield `\nSlowest test files (wall time of each file's process; ${files.length} files, `
    + `${(fileTotalMs / 1000).toFixed(0)} s summed, ${((Date.now() - started) / 1000).toFixed(0)} s elapsed):\n${top(files)}\n`;
  yield `\nSlowest tests:\n${top(tests)}\n`;
}
