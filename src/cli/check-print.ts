/**
 * How `hitless check` prints a finding or a problem at the input's own file and line (the inputs are checked as one
 * joined text; `Joined` says where each file starts in it): as text, as a GitHub Actions annotation, or as JSON.
 */
import type { Finding, InputProblem } from '../check/index.ts';
import { pieceAt } from '../check/read/split-documents.ts';
import type { Joined } from './check-input.ts';
import { annotationLevel, formatAnnotation } from './github-annotations.ts';

/** The file and its own line of a line of the joined text (the file alone, or '', for a finding without a line). */
export function placeOf(joined: Joined, line: number | undefined): { file: string; line?: number } {
  const { starts } = joined;
  if (line === undefined) return { file: starts.length === 1 ? starts[0].name : '' };
  const file = starts[pieceAt(starts.length, line, (i) => starts[i].line)];
  return { file: file.name, line: line - file.line + 1 };
}

/** `file:line` of a line of the joined text (the file alone, or '', for a finding without a line). */
export function locate(joined: Joined, line: number | undefined): string {
  const place = placeOf(joined, line);
  return place.line === undefined ? place.file : `${place.file}:${place.line}`;
}

/** A problem as `file:line:column: message`, its message naming the file's own line. */
export function problemText(joined: Joined, problem: InputProblem): string {
  if (problem.line === undefined) return problem.message;
  const { file, line } = placeOf(joined, problem.line);
  // The message's own line (`at line N`, with or without a column) is the joined text's: say the file's.
  const message = problem.message.replace(new RegExp(`at line ${problem.line}\\b`), `at line ${line}`);
  return `${file}:${line}${problem.column ? `:${problem.column}` : ''}: ${message}`;
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((l, i) => (i === 0 ? l : `${by}${l}`))
    .join('\n');
}

/** A finding as the text format prints it. */
function findingText(joined: Joined, f: Finding): string {
  const where = [locate(joined, f.line), f.object, f.path].filter(Boolean).join('  ');
  const lines = [`  ${f.severity.padEnd(7)} ${f.code}${where ? `  ${where}` : ''}`, `          ${f.message}`];
  // Nothing is written by check itself: an applied fix is one the diff (--format diff) or the fixed manifest carries.
  if (f.fix)
    lines.push(
      f.remedy === 'applied'
        ? `          fixable: ${indent(f.fix.text, '                   ')}`
        : `          fix (manual): ${indent(f.fix.text, '               ')}`,
    );
  else lines.push(`          (${f.remedy})`);
  return lines.join('\n');
}

export /** One finding as `--format` prints it (a JSON finding with the comma that goes before all but the first). */
function findingPrinter(format: string, joined: Joined): (f: Finding) => string {
  if (format === 'github')
    // One workflow annotation per finding, on its file and line, so the run shows them on the changed lines.
    return (f) => {
      const { file, line } = placeOf(joined, f.line);
      const fix = f.fix ? ` ${f.remedy === 'manual' ? 'Fix (manual)' : 'Fixable'}: ${f.fix.text}` : '';
      return `${formatAnnotation({
        level: annotationLevel(f.severity),
        file: file === '-' || file === '' ? undefined : file,
        line: file === '-' ? undefined : line,
        title: `hitless ${f.code}${f.object ? ` (${f.object})` : ''}`,
        message: `${f.path ? `${f.path}: ` : ''}${f.message}${fix}`,
      })}\n`;
    };
  if (format === 'json')
    return ({ fix, ...f }) => {
      const { file, line } = placeOf(joined, f.line);
      const json = { ...f, file: file || undefined, line, fix: fix?.text };
      return `,\n${JSON.stringify(json, null, 2).replace(/^/gm, '    ')}`;
    };
  return (f) => `${findingText(joined, f)}\n`;
}
