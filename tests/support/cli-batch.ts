/**
 * Run many CLI calls in one process: `node tests/support/cli-batch.ts CASES.json RESULTS.json`. CASES.json is a list
 * of argv arrays; each runs through `main(argv)` in turn with stdout and stderr captured (the CLI's direct writes to
 * file descriptors 1 and 2 and its streams' writes), and RESULTS.json gets `{ code, stdout, stderr }` for each.
 * Spawning a process a case costs about half a second on a busy machine; this costs one start for the lot.
 */
import fs from 'node:fs';
import { main } from '../../src/cli/main.ts';

const [casesFile, resultsFile] = process.argv.slice(2);
const cases = JSON.parse(fs.readFileSync(casesFile, 'utf8')) as string[][];
const writeSync = fs.writeSync;
const writeFileSync = fs.writeFileSync;
const streamWrite = { stdout: process.stdout.write, stderr: process.stderr.write };
const results: { code: number; stdout: string; stderr: string }[] = [];

for (const argv of cases) {
  const captured = { stdout: '', stderr: '' };
  const text = (chunk: unknown) =>
    typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
  // writeOutput writes (fd, bytes, offset) until every byte is out: take the rest at once.
  fs.writeSync = ((fd: number, buffer: unknown, offset?: number, ...rest: unknown[]) => {
    if (fd !== 1 && fd !== 2) return (writeSync as (...a: unknown[]) => number)(fd, buffer, offset, ...rest);
    const bytes =
      typeof buffer === 'string' ? Buffer.from(buffer) : Buffer.from(buffer as Uint8Array).subarray(offset ?? 0);
    captured[fd === 1 ? 'stdout' : 'stderr'] += bytes.toString('utf8');
    return bytes.length;
  }) as typeof fs.writeSync;
  for (const name of ['stdout', 'stderr'] as const)
    process[name].write = ((chunk: unknown, ...rest: unknown[]) => {
      captured[name] += text(chunk);
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      if (done) process.nextTick(done);
      return true;
    }) as typeof process.stdout.write;
  let code: number;
  try {
    code = await main(argv);
  } finally {
    fs.writeSync = writeSync;
    process.stdout.write = streamWrite.stdout;
    process.stderr.write = streamWrite.stderr;
  }
  results.push({ code, ...captured });
}
writeFileSync(resultsFile, JSON.stringify(results));
