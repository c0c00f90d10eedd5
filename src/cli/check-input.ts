/**
 * How `hitless check` reads its inputs: each file (or stdin) in chunks, decoded as UTF-8 as it arrives, joined as one
 * text (a `---` line between files, a line break after a file without one) and split into parts at the lines that
 * start a document (`documentSplitter`). An input within the page's limits (256 KiB, 500 documents) is kept and
 * checked whole. A larger one is checked in parts: each part is indexed as it is split (part-index.ts) and kept in a
 * temporary store (byte-store.ts) for the check of its batch, so that neither its text nor its parsed tree is held.
 */
import type { InputProblem } from '../check/read/guard-input.ts';
import { formatKiB, MAX_DOCUMENTS, MAX_INPUT_BYTES } from '../check/read/limits.ts';
import { indexParts, type PartsIndexer } from '../check/part-index.ts';
import { documentSplitter, lineBreaks, type Part } from '../check/read/split-documents.ts';
import type { Profiles } from '../facts/profiles.ts';
import { openByteStore, type ByteStore } from './byte-store.ts';
import { measureOversize, type OversizeMeasure } from './oversize-document.ts';
import { InputError, readChunks } from './read-input.ts';

/** The most bytes read from one input (file, FIFO or stdin): far beyond any cluster's manifests, short of a disk. */
const MAX_CHECK_BYTES = 2 ** 30;

/**
 * Characters of one unfinished document after which it is refused: a document over the checker's limit can never
 * be checked, so it is only measured from there (the 4 are for a `---` still undecided at the end of what was read).
 */
const MAX_DOCUMENT_CHARS = MAX_INPUT_BYTES + 4;

/** Where each file starts in the joined text (its line there), to turn a joined line back into file and line. */
export interface Joined {
  /** `addedBreak`: the file did not end with a line break, and the joined text adds one after it. */
  starts: { name: string; line: number; addedBreak?: true }[];
}

export interface Unreadable {
  name: string;
  problem: string;
}

/** The inputs as read: unreadable, whole (the joined text), or in parts (indexed, their texts in `store`). */
export type CheckInput = Joined &
  (
    | { kind: 'unreadable'; unreadable: Unreadable[] }
    | { kind: 'whole'; text: string }
    | {
        kind: 'parts';
        /** The joined text's bytes of UTF-8 and its parts. */
        bytes: number;
        parts: number;
        /** The index of the parts, unless only counted; the store holds part `i`'s text as entry `i`. */
        indexer?: PartsIndexer;
        store?: ByteStore;
        /** The first part that cannot be checked: the parts after it are counted, not indexed. */
        problem?: InputProblem;
      }
  );

/**
 * Run `fn` with `process.env` replaced by a plain copy of it, then put the real one back. The yaml parser reads
 * `process.env.LOG_TOKENS` for every token it parses (and the composer `LOG_STREAM` for every document); on the real
 * `process.env` each read is a call into the runtime, which was about 40% of the parse time of a large input.
 */
export function withPlainEnv<T>(fn: () => T): T {
  const real = Object.getOwnPropertyDescriptor(process, 'env');
  if (!real?.configurable || !('value' in real)) return fn();
  Object.defineProperty(process, 'env', { ...real, value: { ...process.env } });
  try {
    return fn();
  } finally {
    Object.defineProperty(process, 'env', real);
  }
}

const NOT_UTF8 = 'is not UTF-8 text; it looks like binary data, not a YAML manifest';

/**
 * Read one input (a file, a FIFO, a device, or stdin for `-`) in chunks through the bounded reader, giving its text
 * to `take` until `take` returns false; returns why it cannot be read. Bytes that are not UTF-8 stop the read.
 */
async function readOne(name: string, maxBytes: number, take: (text: string) => unknown): Promise<string | undefined> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let utf8 = true;
  const decode = (bytes?: Uint8Array): boolean => {
    try {
      const text = bytes ? decoder.decode(bytes, { stream: true }) : decoder.decode();
      return text ? take(text) !== false : true;
    } catch {
      utf8 = false;
      return false;
    }
  };
  let stopped = false;
  try {
    await readChunks(name, maxBytes, (bytes) => {
      stopped = !decode(bytes);
      return !stopped;
    });
  } catch (error) {
    if (error instanceof InputError) return error.problem;
    throw error;
  }
  if (!stopped) decode();
  return utf8 ? undefined : NOT_UTF8;
}

/**
 * Read the inputs in order as one text, giving it to `take` piece by piece as it is read: a `---` line between
 * inputs, and a line break after an input that does not end with one. Once an input cannot be read, the rest are
 * only read to find which others cannot.
 */
export async function readJoined(
  names: string[],
  /** Returns false to stop reading (the inputs after it are not read); anything else goes on. */
  take: (text: string) => unknown,
  maxBytes = MAX_CHECK_BYTES,
): Promise<Joined & { unreadable: Unreadable[]; stopped: boolean }> {
  const starts: Joined['starts'] = [];
  const unreadable: Unreadable[] = [];
  let line = 1;
  let stopped = false;
  for (const [i, name] of names.entries()) {
    const feed = unreadable.length === 0;
    if (i > 0) {
      if (feed) take('---\n');
      line += 1;
    }
    starts.push({ name, line });
    let last = '';
    const problem = await readOne(name, maxBytes, (text) => {
      line += lineBreaks(text);
      last = text[text.length - 1];
      if (feed && take(text) === false) stopped = true;
      return !stopped;
    });
    if (stopped) return { starts, unreadable, stopped };
    if (problem) unreadable.push({ name, problem });
    else if (last !== '' && last !== '\n') {
      if (feed) take('\n');
      line += 1;
      starts[starts.length - 1].addedBreak = true;
    }
  }
  return { starts, unreadable, stopped };
}

/**
 * Read the inputs for `hitless check`: whole when within the page's limits, else in parts, indexed (unless `index`
 * is false: `--format diff` only needs their count) and stored.
 */
export async function readCheckInput(
  names: string[],
  profiles: Profiles,
  index = true,
  /** Called after each piece read (to bound the young generation, see young-generation.ts). */
  poll: () => void = () => {},
): Promise<CheckInput> {
  const splitter = documentSplitter();
  /** The parts while the input is within the page's limits; undefined once it is checked in parts. */
  let kept: Part[] | undefined = [];
  let bytes = 0;
  let count = 0;
  let indexer: PartsIndexer | undefined;
  let store: ByteStore | undefined;
  let problem: InputProblem | undefined;
  const inParts = (part: Part) => {
    if (!indexer || !store || problem) return;
    problem = indexer.add(part);
    if (!problem) store.append(part.text);
  };
  const accept = (parts: Part[]) =>
    withPlainEnv(() => {
      for (const part of parts) {
        count++;
        bytes += Buffer.byteLength(part.text, 'utf8');
        if (!kept) inParts(part);
        else {
          kept.push(part);
          if (bytes > MAX_INPUT_BYTES || count > MAX_DOCUMENTS) {
            if (index) {
              indexer = indexParts(profiles);
              store = openByteStore();
            }
            for (const k of kept) inParts(k);
            kept = undefined;
          }
        }
      }
    });
  /** Characters and bytes read but not yet split into parts (the unfinished document), and the line it starts on. */
  let unsplit = 0;
  let unsplitBytes = 0;
  let unsplitLine = 1;
  /** Once the unfinished document passed the limit: its measure, and then its size. */
  let oversize: OversizeMeasure | undefined;
  let oversizeBytes: number | undefined;
  const read = await readJoined(names, (text) => {
    if (oversize) {
      oversizeBytes = oversize.push(text);
      return oversizeBytes === undefined;
    }
    const parts = splitter.push(text);
    unsplit += text.length;
    unsplitBytes += Buffer.byteLength(text, 'utf8');
    for (const part of parts) {
      unsplit -= part.text.length;
      unsplitBytes -= Buffer.byteLength(part.text, 'utf8');
    }
    const last = parts.at(-1);
    if (last) unsplitLine = last.line + lineBreaks(last.text);
    accept(parts);
    poll();
    // A document over the limit can never be checked: it is measured as the rest of it is read, not kept.
    if (unsplit > MAX_DOCUMENT_CHARS) oversize = measureOversize(unsplitBytes, text);
    return true;
  });
  if (read.unreadable.length > 0) {
    store?.close();
    return { kind: 'unreadable', starts: read.starts, unreadable: read.unreadable };
  }
  if (oversize) {
    // One document passed the checker's limit: nothing after it is read, and the input is not checked.
    store?.close();
    const size = oversizeBytes ?? oversize.end();
    const what = oversize.capped ? `over ${formatKiB(size)} (reading stopped there)` : formatKiB(size);
    return {
      kind: 'parts',
      starts: read.starts,
      bytes,
      parts: count,
      problem: {
        message: `The YAML document at line ${unsplitLine} is ${what}; the checker reads at most ${formatKiB(MAX_INPUT_BYTES)} per document.`,
        line: unsplitLine,
      },
    };
  }
  accept(splitter.end());
  if (kept) return { kind: 'whole', starts: read.starts, text: kept.map((p) => p.text).join('') };
  return { kind: 'parts', starts: read.starts, bytes, parts: count, indexer, store, problem };
}
