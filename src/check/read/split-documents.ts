/**
 * Split manifest text into parts of whole YAML documents, at the lines that start a document (`---` at the start of
 * a line, alone or before a space, a tab or content). YAML forbids such a line inside a scalar, so a split never
 * cuts a document; a part parsed alone reads as the same documents as in the whole text. Splitting is a scan of
 * the text, with no parsing, so a large input is cut into parts before any of it is parsed.
 */

/** A part of the input: one or more whole YAML documents, and the 1-based line of the input it starts on. */
export interface Part {
  text: string;
  line: number;
}

const DOCUMENT_START = /^---(?=[ \t\r\n]|$)/gm;

/** Lines that hold nothing a document is made of: blank, comment and directive (`%YAML`) lines. */
const PRELUDE_ONLY = /^(?:[ \t]*(?:#.*)?|%.*)(?:\r?\n(?:[ \t]*(?:#.*)?|%.*))*\r?\n?$/;

/** The line breaks in `text`. */
export function lineBreaks(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Which of `count` pieces (parts, files) holds position `at` (a line, a document), the pieces starting at increasing
 * positions `startOf(i)`: the last that starts at or before it, else the first. A binary search.
 */
export function pieceAt(count: number, at: number, startOf: (i: number) => number): number {
  let [lo, hi] = [0, count - 1];
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (startOf(mid) <= at) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The parts of `text`. Comments and directives before the first `---` stay with the document that follows them, as
 * YAML reads them. The whole text given at once to `documentSplitter`.
 */
export function splitDocuments(text: string): Part[] {
  const splitter = documentSplitter();
  return [...splitter.push(text), ...splitter.end()];
}

/** A splitter of text that arrives in pieces: `push` each piece in order, then `end`; each returns the parts found. */
export interface DocumentSplitter {
  push(text: string): Part[];
  end(): Part[];
}

/**
 * Split text that arrives in pieces (a file read in chunks) into the parts of the whole text, each as soon as the
 * line that starts the next document is read; only the unfinished part is held.
 */
export function documentSplitter(firstLine = 1): DocumentSplitter {
  const starts = new RegExp(DOCUMENT_START.source, 'gm');
  /** The text from the start of the unfinished part, and the line it starts on. */
  let pending = '';
  let line = firstLine;
  /** Where the next search for a document start begins: every start before it has been found. */
  let from = 1;
  let first = true;
  let carried: Part | undefined;
  /** End the part at `end` of `pending`: a first part of comments and directives only is carried into the next. */
  const take = (end: number, out: Part[], last: boolean) => {
    const body = pending.slice(0, end);
    if (first && !last && !body.startsWith('---') && PRELUDE_ONLY.test(body)) carried = { text: body, line };
    else {
      out.push(carried ? { text: carried.text + body, line: carried.line } : { text: body, line });
      carried = undefined;
    }
    first = false;
    line += lineBreaks(body);
    pending = pending.slice(end);
  };
  const scan = (ended: boolean): Part[] => {
    const out: Part[] = [];
    starts.lastIndex = Math.max(1, from);
    for (let match = starts.exec(pending); match; match = starts.exec(pending)) {
      // `---` at the end of what has been read starts a document only if the next character allows it.
      if (!ended && match.index + 3 >= pending.length) {
        from = match.index;
        return out;
      }
      take(match.index, out, false);
      starts.lastIndex = 1;
    }
    // A start is three characters and a look at the next: one in the last three may still be completed.
    from = pending.length - 3;
    return out;
  };
  return {
    push(text) {
      pending += text;
      return scan(false);
    },
    end() {
      const out = scan(true);
      take(pending.length, out, true);
      return out;
    },
  };
}
