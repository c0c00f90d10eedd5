/**
 * `hitless verify --report FILE.html`: the path is checked before the first request (its folder exists and can be
 * written), so that a long run is never measured into a place that cannot take it; the page is written after the
 * summary is printed, and a write that fails anyway says so without changing the run's exit code.
 */
import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './args.ts';

/** Why `file` cannot take the report, or undefined when it can. */
function reportPathProblem(file: string): string | undefined {
  const folder = dirname(resolve(file));
  try {
    if (!statSync(folder).isDirectory()) return `its folder ${folder} is not a folder`;
    accessSync(folder, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? `its folder ${folder} does not exist`
      : `its folder ${folder} cannot be written (${code})`;
  }
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return 'is not a file';
    accessSync(file, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') return `cannot be written (${code})`;
  }
  return undefined;
}

/** Refuse a `--report` path that cannot take the report (a UsageError, exit 2), before any work. */
export function checkReportPath(file: string | null): void {
  const problem = file === null ? undefined : reportPathProblem(file);
  if (problem) throw new UsageError(`--report ${file}: ${problem}; nothing was sent`);
}

/** Write the page; on failure say so on stderr (the run's results are already printed). */
export function writeReport(file: string, html: () => string): void {
  try {
    writeFileSync(file, html());
    process.stderr.write(`hitless verify: wrote ${file}\n`);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    process.stderr.write(
      `hitless verify: the report could not be written to ${file} (${e.code ?? e.message}); the results above are the run's\n`,
    );
  }
}
