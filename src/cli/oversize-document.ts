/**
 * The size of a YAML document already known to be over the checker's limit, measured as the rest of it is read
 * without keeping it: only its bytes are counted, up to the next line that starts a document (`---` before a space,
 * a tab, a line break or the end) or the input's end. Past `MAX_MEASURED_BYTES` measuring stops: the message then
 * says "over" that, and an endless source (`/dev/zero`) is refused after reading that much.
 */

/** The most bytes of one oversize document read to measure it. */
export const MAX_MEASURED_BYTES = 64 * 2 ** 20;

/** A document start after a line break; a match at the very end waits for the next character. */
const START = /\n---(?=[ \t\r\n]|$)/g;

/** Measures one oversize document: `push` each text read; a number is its size in bytes once its end is known. */
export interface OversizeMeasure {
  /** The size once the document ended in `text` (or passed MAX_MEASURED_BYTES), else undefined. */
  push(text: string): number | undefined;
  /** The size at the input's end. */
  end(): number;
  /** Whether the measure stopped at MAX_MEASURED_BYTES (the size is a lower bound). */
  readonly capped: boolean;
}

/** Start measuring a document of which `bytes` were read, `tail` being the text read last (for a start across reads). */
export function measureOversize(bytes: number, tail: string): OversizeMeasure {
  let total = bytes;
  let last = tail.slice(-4);
  let capped = false;
  const find = (text: string, ended: boolean): number | undefined => {
    const combined = last + text;
    START.lastIndex = 0;
    const m = START.exec(combined);
    // A start at the very end of what was read waits for the next character (the input's end allows it).
    if (m && (ended || m.index + 4 < combined.length)) {
      // The document ends with the line break before `---`: the bytes from `---` on are not part of it.
      return total - Buffer.byteLength(combined.slice(m.index + 1), 'utf8');
    }
    last = combined.slice(-4);
    return undefined;
  };
  return {
    push(text) {
      total += Buffer.byteLength(text, 'utf8');
      const size = find(text, false);
      if (size !== undefined) return size;
      if (total > MAX_MEASURED_BYTES) {
        capped = true;
        return total;
      }
      return undefined;
    },
    end() {
      return find('', true) ?? total;
    },
    get capped() {
      return capped;
    },
  };
}
