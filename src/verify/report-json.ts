/**
 * A verify report as the text of `JSON.stringify(report, null, 2)`, in pieces: the request rows one at a time, so
 * that a report of millions of requests is never one string (V8 refuses a string over about 512 MiB).
 */
import type { VerifyReport } from './report.ts';

/** The report's JSON (two-space indents, as `JSON.stringify(report, null, 2)` writes it) in pieces, with a final newline. */
export function* reportJsonPieces(report: VerifyReport): Generator<string> {
  const { perRequest } = report;
  if (perRequest.length === 0) {
    yield `${JSON.stringify(report, null, 2)}\n`;
    return;
  }
  const marker = '"perRequest": []';
  const head = JSON.stringify({ ...report, perRequest: [] }, null, 2);
  const at = head.lastIndexOf(marker);
  yield `${head.slice(0, at)}"perRequest": [\n`;
  for (let i = 0; i < perRequest.length; i++)
    yield `${i === 0 ? '' : ',\n'}    ${JSON.stringify(perRequest[i], null, 2).replace(/\n/g, '\n    ')}`;
  yield `\n  ]${head.slice(at + marker.length)}\n`;
}
