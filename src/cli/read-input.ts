/**
 * The one way the CLI reads the bytes it is given: a file, a FIFO (`<(kustomize build …)`, `/dev/stdin`), a device,
 * or stdin (`-`), in chunks of 64 KiB with a byte cap. Reading stops at the cap: at most the cap and one chunk are
 * read, so an endless source (`/dev/zero`) or a huge one is refused in time and memory linear in the cap, never
 * after the whole read. A failure is an InputError that names the source and why (exit 2).
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { UsageError } from './args.ts';

const CHUNK_BYTES = 64 * 1024;

/** A source that cannot be used: its name and why. The CLI prints it and exits 2. */
export class InputError extends UsageError {
  readonly source: string;
  readonly problem: string;
  /** The system's error code when the source could not be opened or read (ENOENT, EACCES…). */
  readonly code: string | undefined;
  constructor(source: string, problem: string, code?: string) {
    super(`${source} ${problem}`);
    this.name = 'InputError';
    this.source = source;
    this.problem = problem;
    this.code = code;
  }
}

/** "1 MiB", "256 KiB", "1 GiB": a byte cap as people read it. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1)).toLocaleString('en-US')} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** Why a cap was passed, as the message says it. */
function overLimit(maxBytes: number): string {
  return `is over the limit of ${formatBytes(maxBytes)} (reading stopped there)`;
}

/** Why a path cannot be opened, from its error. */
function openProblem(error: NodeJS.ErrnoException): string {
  if (error.code === 'ENOENT') return 'does not exist';
  if (error.code === 'EISDIR') return 'is a directory';
  return `cannot be read (${error.code ?? error.message})`;
}

/**
 * Read `name` (a path, or `-` for stdin) in chunks, giving each to `take` until the end, until `take` returns false,
 * or until more than `maxBytes` were read (an InputError). A path may be anything but a directory: a regular file,
 * a FIFO, a character device. Returns the bytes read.
 */
export async function readChunks(
  name: string,
  maxBytes: number,
  /** Returns false to stop reading; anything else goes on. */
  take: (chunk: Uint8Array) => unknown,
): Promise<number> {
  let total = 0;
  const give = (chunk: Uint8Array): boolean => {
    total += chunk.length;
    if (total > maxBytes) throw new InputError(name === '-' ? 'stdin' : name, overLimit(maxBytes));
    return take(chunk) !== false;
  };
  if (name === '-') {
    for await (const chunk of process.stdin) if (!give(chunk as Buffer)) break;
    return total;
  }
  readPathSync(name, maxBytes, give);
  return total;
}

/** Read a path in chunks with blocking reads (a FIFO waits for its writer) while `give` returns true. */
function readPathSync(name: string, maxBytes: number, give: (chunk: Uint8Array) => boolean): void {
  let fd: number;
  // A descriptor named by path (/dev/stdin, /dev/fd/N) that is a socket cannot be opened again (ENXIO), as when the
  // caller hands stdin over a socket pair (Node's child processes, some CI runners): it is read where it is.
  const inherited = /^\/(?:dev\/(?:stdin|fd\/(\d+))|proc\/self\/fd\/(\d+))$/.exec(name);
  let own = true;
  try {
    if (statSync(name).isDirectory()) throw new InputError(name, 'is a directory');
    try {
      fd = openSync(name, 'r');
    } catch (error) {
      if (!inherited || (error as NodeJS.ErrnoException).code !== 'ENXIO') throw error;
      fd = Number(inherited[1] ?? inherited[2] ?? 0);
      own = false;
    }
    // A regular file's size is known: one over the cap is refused without reading it.
    const opened = fstatSync(fd);
    if (opened.isFile() && opened.size > maxBytes) {
      closeSync(fd);
      throw new InputError(name, `is over the limit of ${formatBytes(maxBytes)} (${formatBytes(opened.size)})`);
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(name, openProblem(error as NodeJS.ErrnoException), (error as NodeJS.ErrnoException).code);
  }
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buffer);
      } catch (error) {
        throw new InputError(name, openProblem(error as NodeJS.ErrnoException), (error as NodeJS.ErrnoException).code);
      }
      if (n === 0 || !give(buffer.subarray(0, n))) return;
    }
  } finally {
    if (own) closeSync(fd);
  }
}

/** `readTextSync` for a file a flag names: one that cannot be opened or read is a usage error naming the system's code. */
export function readFlagFile(...args: Parameters<typeof readTextSync>): string {
  try {
    return readTextSync(...args);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    throw new UsageError(error.code ? `${error.source} cannot be read: ${error.code}` : error.message);
  }
}

/**
 * The whole text of a path (a file, a FIFO, a device; `-` is not taken) as UTF-8, at most `maxBytes`; `label` names
 * the source in messages (`--prompt-file x.txt`). Synchronous: for flags read while the options are parsed.
 */
export function readTextSync(
  name: string,
  maxBytes: number,
  label = name,
  /** Why a piece of the text shows the source is not what was asked for (stops the read), or undefined. */
  reject: (text: string) => string | undefined = () => undefined,
): string {
  // Decoded as it is read: bytes that are not UTF-8 (a binary file, /dev/urandom) stop the read at once.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const pieces: string[] = [];
  let total = 0;
  try {
    readPathSync(name, maxBytes, (chunk) => {
      total += chunk.length;
      if (total > maxBytes) throw new InputError(name, overLimit(maxBytes));
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        throw new InputError(name, 'is not UTF-8 text');
      }
      const problem = reject(text);
      if (problem) throw new InputError(name, problem);
      pieces.push(text);
      return true;
    });
    pieces.push(decoder.decode());
  } catch (error) {
    if (error instanceof InputError) throw new InputError(label, error.problem, error.code);
    if (error instanceof TypeError) throw new InputError(label, 'is not UTF-8 text');
    throw error;
  }
  return pieces.join('');
}
