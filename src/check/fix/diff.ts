/**
 * A unified diff of the manifest and its fixed version (`hitless check --format diff`, the page's diff view),
 * from a longest common subsequence of lines. Manifests are at most 256 KiB, and fixes change few lines, so the
 * common prefix and suffix are cut first and the table covers only the changed middle.
 */

/** One line of a diff: kept, removed or added, with its line numbers. */
export interface DiffLine {
  kind: ' ' | '-' | '+';
  text: string;
  oldLine?: number;
  newLine?: number;
  /** The text's last line, without a line break after it (`\ No newline at end of file` in a unified diff). */
  noEol?: true;
}

/** Marks a last line without a line break, so that it differs from the same line with one (YAML has no NUL). */
const NO_EOL = '\u0000';

/** A text's lines, without the empty one after its final line break. */
function linesOf(text: string): string[] {
  return text === '' ? [] : (text.endsWith('\n') ? text.slice(0, -1) : `${text}${NO_EOL}`).split('\n');
}

/** A diff line, its text without the no-line-break mark and with `noEol` where it had it. */
function lineOf(kind: DiffLine['kind'], text: string, numbers: { oldLine?: number; newLine?: number }): DiffLine {
  return text.endsWith(NO_EOL)
    ? { kind, text: text.slice(0, -1), ...numbers, noEol: true }
    : { kind, text, ...numbers };
}

/** The lines of two texts, kept, removed and added, in order. */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = linesOf(before);
  const b = linesOf(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const table: Uint32Array[] = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
  for (let i = x.length - 1; i >= 0; i--)
    for (let j = y.length - 1; j >= 0; j--)
      table[i][j] = x[i] === y[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
  const out: DiffLine[] = a.slice(0, head).map((text, i) => lineOf(' ', text, { oldLine: i + 1, newLine: i + 1 }));
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      out.push(lineOf(' ', x[i], { oldLine: head + i + 1, newLine: head + j + 1 }));
      i++;
      j++;
    } else if (j < y.length && (i >= x.length || table[i][j + 1] > table[i + 1][j])) {
      out.push(lineOf('+', y[j], { newLine: head + j + 1 }));
      j++;
    } else {
      out.push(lineOf('-', x[i], { oldLine: head + i + 1 }));
      i++;
    }
  }
  for (let k = a.length - tail; k < a.length; k++)
    out.push(lineOf(' ', a[k], { oldLine: k + 1, newLine: k + 1 + b.length - a.length }));
  return out;
}

/** A unified diff (`--- a/NAME`, `+++ b/NAME`, hunks with 3 lines of context); '' when nothing changed. */
export function unifiedDiff(before: string, after: string, name: string, context = 3): string {
  if (before === after) return '';
  const lines = diffLines(before, after);
  const changed = lines.map((l, i) => (l.kind === ' ' ? -1 : i)).filter((i) => i !== -1);
  const hunks: [number, number][] = [];
  for (const i of changed) {
    const from = Math.max(0, i - context);
    const to = Math.min(lines.length - 1, i + context);
    const last = hunks.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else hunks.push([from, to]);
  }
  let out = `--- a/${name}\n+++ b/${name}\n`;
  for (const [from, to] of hunks) {
    const part = lines.slice(from, to + 1);
    const oldCount = part.filter((l) => l.kind !== '+').length;
    const newCount = part.filter((l) => l.kind !== '-').length;
    const oldStart = (part.find((l) => l.oldLine !== undefined)?.oldLine ?? 1) - (oldCount === 0 ? 1 : 0);
    const newStart = (part.find((l) => l.newLine !== undefined)?.newLine ?? 1) - (newCount === 0 ? 1 : 0);
    out += `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@\n`;
    for (const l of part) out += `${l.kind}${l.text}\n${l.noEol ? '\\ No newline at end of file\n' : ''}`;
  }
  return out;
}
