/**
 * The generator's highlighter off the main thread: each message `{ id, code }` is answered with
 * `{ id, html }` (highlight.ts's HTML for the manifest) or `{ id, error }`.
 */
import { highlightHtml } from './highlight.ts';

/** A request to the worker. */
export interface HighlightRequest {
  id: number;
  code: string;
}

/** The worker's answer to one request. */
export type HighlightReply = { id: number; html: string } | { id: number; error: string };

self.onmessage = (event: MessageEvent<HighlightRequest>) => {
  const { id, code } = event.data;
  highlightHtml(code).then(
    (html) => self.postMessage({ id, html } satisfies HighlightReply),
    (error: unknown) => self.postMessage({ id, error: String(error) } satisfies HighlightReply),
  );
};
