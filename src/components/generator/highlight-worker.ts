/**
 * The generator's highlighter off the main thread: each message `{ id, code }` is answered with
 * `{ id, lines }` (highlight.ts's HTML for each line of the manifest) or `{ id, error }`.
 */
import { highlightLines } from './highlight.ts';

export interface HighlightRequest {
  id: number;
  code: string;
}

export type HighlightReply = { id: number; lines: string[] } | { id: number; error: string };

self.onmessage = (event: MessageEvent<HighlightRequest>) => {
  const { id, code } = event.data;
  highlightLines(code).then(
    (lines) => self.postMessage({ id, lines } satisfies HighlightReply),
    (error: unknown) => self.postMessage({ id, error: String(error) } satisfies HighlightReply),
  );
};
