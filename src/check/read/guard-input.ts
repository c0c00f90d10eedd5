/**
 * Checks on the raw text before the YAML parser sees it: size, binary data and runaway flow nesting.
 * Each failure is an `InputProblem` that says what was found, where, and which limit it passed.
 */
import { formatKiB, MAX_INPUT_BYTES, MAX_NESTING_DEPTH } from './limits.ts';

/** Why an input cannot be checked, with the line and column (1-based) when there is a place to point at. */
export interface InputProblem {
  message: string;
  line?: number;
  column?: number;
}

/**
 * Characters YAML does not allow in a stream (C0 controls other than tab, newline and carriage return,
 * DEL, C1 controls other than NEL), plus U+FFFD, which a decoder leaves where the bytes were not UTF-8.
 */
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u0084\u0086-\u009F\uFFFD\uFFFE\uFFFF]/;

/** The 1-based line and column of a character offset. */
export function positionOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** The size of a text in UTF-8 bytes. */
export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** A problem for an input over the size limit, given its size in bytes. */
export function tooLarge(bytes: number): InputProblem {
  return {
    message:
      `The input is ${formatKiB(bytes)}; the checker reads at most ${formatKiB(MAX_INPUT_BYTES)}. `
      + 'Check the model-server manifests on their own, one file at a time.',
  };
}

function describeCharacter(char: string): string {
  if (char === '\u0000') return 'a NUL byte';
  if (char === '\uFFFD') return 'bytes that are not UTF-8';
  return `the control character U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The deepest `[`/`{` nesting, skipping comments and, inside flow collections, quoted text. Block
 * nesting is measured after parsing; this scan stops inputs like `[[[[…` before they reach the parser.
 */
function deepFlowOffset(text: string, limit: number): number | undefined {
  let depth = 0;
  let quoteChar = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoteChar) {
      if (c === '\\' && quoteChar === '"') i++;
      else if (c === quoteChar) quoteChar = '';
      continue;
    }
    if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) {
      const end = text.indexOf('\n', i);
      if (end === -1) break;
      i = end;
    } else if (depth > 0 && (c === '"' || c === "'")) {
      quoteChar = c;
    } else if (c === '[' || c === '{') {
      if (++depth > limit) return i;
    } else if ((c === ']' || c === '}') && depth > 0) {
      depth--;
    }
  }
  return undefined;
}

/** The first reason this text cannot be checked, or `undefined` when it may go to the parser. */
export function guardText(text: string, maxBytes = MAX_INPUT_BYTES): InputProblem | undefined {
  // A string never has fewer UTF-8 bytes than UTF-16 code units, so this bound needs no encoding.
  if (text.length > maxBytes) return tooLarge(text.length);
  if (Number.isFinite(maxBytes)) {
    const bytes = utf8Length(text);
    if (bytes > maxBytes) return tooLarge(bytes);
  }
  if (text.trim() === '') return { message: 'The input is empty: paste a manifest (YAML), or choose a file.' };
  const bad = NOT_TEXT.exec(text);
  if (bad) {
    return {
      message: `The input has ${describeCharacter(bad[0])}, so it looks like binary data, not a YAML manifest.`,
      ...positionOf(text, bad.index),
    };
  }
  const deep = deepFlowOffset(text, MAX_NESTING_DEPTH);
  if (deep !== undefined) {
    return {
      message: `The input nests more than ${MAX_NESTING_DEPTH} levels of [ ] or { }; no Kubernetes manifest is that deep.`,
      ...positionOf(text, deep),
    };
  }
  return undefined;
}
