/** Run a batch of CLI calls in one child process (tests/support/cli-batch.ts) and return each call's result. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BATCH = new URL('./cli-batch.ts', import.meta.url).pathname;

/** What one CLI call gave: its exit code and everything it wrote. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run each argv through the CLI's `main` in one process (at most `timeoutMs` for all); results in order. */
export async function runBatch(cases: string[][], timeoutMs = 60_000): Promise<CliResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'cli-batch-'));
  try {
    writeFileSync(join(dir, 'cases.json'), JSON.stringify(cases));
    const child = spawn(process.execPath, [BATCH, join(dir, 'cases.json'), join(dir, 'results.json')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    if (status !== 0) throw new Error(`the batch of ${cases.length} CLI calls ended with ${status}: ${stderr}`);
    return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as CliResult[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
