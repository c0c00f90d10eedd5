/**
 * The manifest as lines, so that a change re-renders only the lines it changed. A keystroke changes a few lines of a
 * manifest of about two hundred; replacing the whole highlighted text on every change made the browser lay out all
 * of it twice (plain text, then the worker's colours). A line whose text was highlighted before keeps its colours
 * until the worker answers for the new text.
 */

/** One line to render: its text (without the newline) and its highlighted inner HTML, if known. */
export interface ManifestLine {
  text: string;
  /** The line's inner HTML (ending in its newline), or null to show the text as it is. */
  html: string | null;
}

/** The highlighter's answer for one text: the inner HTML of each of its lines. */
export interface HighlightedLines {
  code: string;
  lines: string[];
}

/** A manifest's lines, without their newlines (the manifest ends in one). */
export function splitLines(code: string): string[] {
  return code.replace(/\n$/, '').split('\n');
}

/** Each line's text mapped to its highlighted HTML in an answer; the first occurrence wins. */
export function knownLinesOf(answer: HighlightedLines): Map<string, string> {
  const known = new Map<string, string>();
  splitLines(answer.code).forEach((text, i) => {
    const html = answer.lines[i];
    if (html !== undefined && !known.has(text)) known.set(text, html);
  });
  return known;
}

/**
 * The lines of `code` to render: highlighted from `exact` when it answers for exactly this text, else each line
 * from `known` when its text was highlighted before, else as text.
 */
export function linesToRender(
  code: string,
  exact: HighlightedLines | null,
  known: ReadonlyMap<string, string>,
): ManifestLine[] {
  const complete = exact !== null && exact.code === code;
  return splitLines(code).map((text, i) => ({
    text,
    html: complete ? (exact.lines[i] ?? null) : (known.get(text) ?? null),
  }));
}
