/**
 * How the CLI ends when its output goes nowhere. A closed pipe (`hitless inputs | head -1`) ends the process
 * quietly with 141, the status of a process killed by SIGPIPE, as `yes | head -1` does; any other write error
 * (`> /dev/full`) ends it with 74 (EX_IOERR) and one line on stderr when stderr still works. Neither is 1, which
 * `hitless check` uses for findings, nor a stack trace.
 */
import { createRequire } from 'node:module';

/** Exit status for a closed output pipe: 128 + SIGPIPE (13). */
const EXIT_CLOSED_PIPE = 141;
/** Exit status for any other output error: EX_IOERR from sysexits.h. */
const EXIT_OUTPUT_ERROR = 74;

type OutputName = 'stdout' | 'stderr';

let guarded = false;

/** End the process as the module comment says, for a write error on `name`. */
function endOnOutputError(name: OutputName, error: NodeJS.ErrnoException): never {
  if (error.code === 'EPIPE') process.exit(EXIT_CLOSED_PIPE);
  if (name === 'stdout') {
    try {
      process.stderr.write(`hitless: cannot write the output: ${error.message}\n`);
    } catch {
      // stderr is gone too: the status says it.
    }
  }
  process.exit(EXIT_OUTPUT_ERROR);
}

/**
 * Make write errors on stdout and stderr end the process quietly with the statuses above. Node makes
 * `process.stdout` and `process.stderr` when they are first used, loading its stream modules (several milliseconds
 * at startup), so the handlers go on each stream when it is made: a command that writes with `writeOutput` makes none.
 */
export function endQuietlyOnOutputErrors(): void {
  if (guarded) return;
  guarded = true;
  for (const name of ['stdout', 'stderr'] as const) {
    const watch = (stream: NodeJS.WriteStream) => stream.on('error', (error) => endOnOutputError(name, error));
    const property = Object.getOwnPropertyDescriptor(process, name);
    const make = property?.get;
    if (!make || !property.configurable) {
      watch(process[name]);
      continue;
    }
    let watched = false;
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: property.enumerable,
      get() {
        const stream = make.call(process) as NodeJS.WriteStream;
        if (!watched) {
          watched = true;
          watch(stream);
        }
        return stream;
      },
    });
  }
}

const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
const FDS = { stdout: 1, stderr: 2 } as const;
/** Outputs whose stream took over (a write would block) and outputs that failed (the process is ending). */
const streamed = new Set<OutputName>();
const failed = new Set<OutputName>();

/**
 * Write `text` to stdout or stderr with direct, synchronous writes to the file descriptor, without making Node's
 * stream for it. A descriptor that would block (a non-blocking pipe that is full) hands the rest, and every later
 * write, to the stream, which waits for the reader. A write error ends the process as a stream's error would: on
 * the next tick, after the writes already under way (see `endQuietlyOnOutputErrors`).
 */
export function writeOutput(name: OutputName, text: string): void {
  if (failed.has(name)) return;
  if (streamed.has(name)) {
    process[name].write(text);
    return;
  }
  const bytes = Buffer.from(text, 'utf8');
  let offset = 0;
  try {
    while (offset < bytes.length) offset += fs.writeSync(FDS[name], bytes, offset);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
      streamed.add(name);
      process[name].write(bytes.subarray(offset));
      return;
    }
    failed.add(name);
    process.nextTick(() => endOnOutputError(name, error as NodeJS.ErrnoException));
  }
}
