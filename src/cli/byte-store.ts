/**
 * An append-only store of texts that keeps them out of memory: in a temporary file that is removed as soon as it is
 * open (so nothing is left behind however the process ends, and no other user can read it), or, where no temporary
 * file can be made, in memory. `hitless check` keeps a large input's parts and its findings here between the pass
 * that makes them and the one that reads them.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Bytes written to the file at once (texts are gathered until there are this many). */
const WRITE_BYTES = 256 * 1024;

/**
 * Bytes read at once by `texts`: the strings read stay below 128 KiB, the largest ordinary object of V8's young
 * generation (a larger one lives in the large-object space until a full collection).
 */
const READ_BYTES = 60 * 1024;

/** Texts by entry number, from 0 in the order appended. */
export interface ByteStore {
  /** Where the texts are: in the temporary file, or in memory (no temporary file could be made). */
  readonly kind: 'file' | 'memory';
  /** Store a text; returns its entry number. */
  append(text: string): number;
  readonly size: number;
  text(entry: number): string;
  /**
   * The texts of the entries in the order given, joined, in pieces of about `bytes` (entries that sit next to each
   * other in the store are read at once).
   */
  texts(entries: Iterable<number>, bytes?: number): Generator<string>;
  close(): void;
}

/** A growable array of numbers, kept outside the JavaScript heap. */
export class Numbers {
  values = new Float64Array(1024);
  size = 0;
  push(value: number): void {
    if (this.size === this.values.length) {
      const larger = new Float64Array(this.values.length * 2);
      larger.set(this.values);
      this.values = larger;
    }
    this.values[this.size++] = value;
  }
}

/** The temporary file, open for reading and writing and already unlinked where the system allows it. */
function openTemporary(parent: string): { fd: number; remove: () => void } | undefined {
  let dir: string | undefined;
  try {
    dir = mkdtempSync(join(parent, 'hitless-store-'));
    const file = join(dir, 'store');
    const fd = openSync(file, 'w+', 0o600);
    const remove = () => {
      try {
        unlinkSync(file);
        rmdirSync(dir!);
      } catch {
        // Left for close() (a system that cannot remove an open file) or for the system's cleaning of tmpdir.
      }
    };
    remove();
    return { fd, remove };
  } catch {
    if (dir) {
      try {
        rmdirSync(dir);
      } catch {
        // Nothing was made in it, or it cannot be removed: the store lives in memory either way.
      }
    }
    return undefined;
  }
}

/** A store in a temporary file (in `parent`, the system's temporary folder), or in memory when none can be made. */
export function openByteStore(parent = tmpdir()): ByteStore {
  const file = openTemporary(parent);
  return file ? fileStore(file.fd, file.remove) : memoryStore();
}

function fileStore(fd: number, remove: () => void): ByteStore {
  const offsets = new Numbers();
  const lengths = new Numbers();
  let written = 0;
  // Texts are encoded into this buffer as they come, so that none is held as a string until it is written.
  const pending = Buffer.allocUnsafe(WRITE_BYTES);
  let pendingBytes = 0;
  const write = (bytes: Uint8Array) => {
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at, written + at);
    written += bytes.length;
  };
  const flush = () => {
    if (pendingBytes === 0) return;
    write(pending.subarray(0, pendingBytes));
    pendingBytes = 0;
  };
  // One buffer for every read (a new one each time was external memory that only a full collection gives back).
  let readBuffer = Buffer.allocUnsafe(WRITE_BYTES);
  const read = (offset: number, length: number): string => {
    if (offset + length > written) flush();
    if (length > readBuffer.length) readBuffer = Buffer.allocUnsafe(length);
    let at = 0;
    while (at < length) {
      const n = readSync(fd, readBuffer, at, length - at, offset + at);
      if (n === 0) throw new Error('the temporary store ended early');
      at += n;
    }
    return readBuffer.toString('utf8', 0, length);
  };
  return {
    kind: 'file',
    append(text) {
      const length = Buffer.byteLength(text, 'utf8');
      if (pendingBytes + length > WRITE_BYTES) flush();
      offsets.push(written + pendingBytes);
      lengths.push(length);
      if (length > WRITE_BYTES) write(Buffer.from(text, 'utf8'));
      else pendingBytes += pending.write(text, pendingBytes, 'utf8');
      return offsets.size - 1;
    },
    get size() {
      return offsets.size;
    },
    text: (entry) => read(offsets.values[entry], lengths.values[entry]),
    *texts(entries, bytes = READ_BYTES) {
      let start = -1;
      let end = -1;
      for (const entry of entries) {
        const offset = offsets.values[entry];
        const length = lengths.values[entry];
        if (start !== -1 && (offset !== end || end - start + length > bytes)) {
          yield read(start, end - start);
          start = -1;
        }
        if (start === -1) start = offset;
        end = offset + length;
      }
      if (start !== -1) yield read(start, end - start);
    },
    close() {
      closeSync(fd);
      remove();
    },
  };
}

function memoryStore(): ByteStore {
  let stored: string[] = [];
  return {
    kind: 'memory',
    append: (text) => stored.push(text) - 1,
    get size() {
      return stored.length;
    },
    text: (entry) => stored[entry],
    *texts(entries, bytes = READ_BYTES) {
      let piece = '';
      for (const entry of entries) {
        piece += stored[entry];
        if (piece.length >= bytes) {
          yield piece;
          piece = '';
        }
      }
      if (piece) yield piece;
    },
    close() {
      stored = [];
    },
  };
}
