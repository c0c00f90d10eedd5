/**
 * Apply a unified diff (`---` / `+++` header, `@@ -a,b +c,d @@` hunks, ` `, `-` and `+` lines) to a text, strictly:
 * each hunk must start at the line it names, its context and removed lines must be the text's lines exactly, and
 * its counts must add up. No offsets and no fuzz, unlike `patch`, so a golden diff that applies gives one text only.
 * `\ No newline at end of file` after a line means that line has no line break. Written apart from the checker's
 * own diff (src/check/fix/diff.ts), so that a golden diff does not rest on the code it tests.
 */

/** A text's lines, each with its line break if it has one. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** The text with the diff applied; throws a sentence naming the hunk and line where the diff does not fit. */
export function applyUnifiedDiff(text: string, diff: string): string {
  const source = splitLines(text);
  const lines = splitLines(diff);
  let at = 0;
  if (!lines[at]?.startsWith('--- ') || !lines[at + 1]?.startsWith('+++ '))
    throw new Error('the diff does not start with --- and +++ lines');
  at += 2;
  const out: string[] = [];
  let copied = 0; // source lines consumed so far
  let hunkNumber = 0;
  while (at < lines.length) {
    const head = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(lines[at]);
    if (!head) throw new Error(`line ${at + 1} of the diff is not a hunk header: ${JSON.stringify(lines[at])}`);
    hunkNumber++;
    at++;
    const oldCount = head[2] === undefined ? 1 : Number(head[2]);
    const newCount = head[4] === undefined ? 1 : Number(head[4]);
    const oldStart = oldCount === 0 ? Number(head[1]) : Number(head[1]) - 1; // 0-based index of the hunk's first line
    if (oldStart < copied) throw new Error(`hunk ${hunkNumber} starts at line ${head[1]}, inside the hunk before it`);
    if (oldStart > source.length) throw new Error(`hunk ${hunkNumber} starts at line ${head[1]}, past the text's end`);
    out.push(...source.slice(copied, oldStart));
    copied = oldStart;
    const newStart = newCount === 0 ? Number(head[3]) : Number(head[3]) - 1;
    if (newStart !== out.length)
      throw new Error(
        `hunk ${hunkNumber} says its new text starts at line ${head[3]}, but that is line ${out.length + 1}`,
      );
    let removed = 0;
    let added = 0;
    while (at < lines.length && !lines[at].startsWith('@@')) {
      const raw = lines[at];
      const kind = raw[0];
      let body = raw.slice(1);
      at++;
      if (lines[at]?.startsWith('\\')) {
        body = body.replace(/\n$/, '');
        at++;
      }
      if (kind === ' ' || kind === '-') {
        if (source[copied] !== body)
          throw new Error(
            `hunk ${hunkNumber}, line ${copied + 1}: the diff has ${JSON.stringify(body)}, the text has ${JSON.stringify(source[copied] ?? '(end)')}`,
          );
        copied++;
        removed++;
        if (kind === ' ') {
          out.push(body);
          added++;
        }
      } else if (kind === '+') {
        out.push(body);
        added++;
      } else throw new Error(`hunk ${hunkNumber}: a line starts with neither space, - nor +: ${JSON.stringify(raw)}`);
    }
    if (removed !== oldCount || added !== newCount)
      throw new Error(`hunk ${hunkNumber} says -${oldCount} +${newCount} lines but has -${removed} +${added}`);
  }
  out.push(...source.slice(copied));
  return out.join('');
}
