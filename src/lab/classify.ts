/**
 * How a request ended, from what the client saw. Refused: the gateway (or the server before any
 * token) answered 502/503. Cut: the stream broke off without its end (the server died or was killed).
 * Aborted: the server ended the stream itself with an error event. Error: the lab's own failure
 * (no answer at all, a timeout, another status); any error makes the run unusable.
 */

import type { RawResponse } from '../verify/request.ts';

export type Outcome = 'ok' | 'refused' | 'cut' | 'aborted' | 'error';

/** Every outcome, in report order. */
export const OUTCOMES: readonly Outcome[] = ['ok', 'refused', 'cut', 'aborted', 'error'];

export function zeroCounts(): Record<Outcome, number> {
  return { ok: 0, refused: 0, cut: 0, aborted: 0, error: 0 };
}

/** The line that ends a complete stream (OpenAI-style SSE). */
export const DONE_EVENT = 'data: [DONE]\n\n';

/** The marker the stand-in puts in the error event of an aborted stream. */
export const ABORT_MARKER = '"type":"server_shutdown"';

export function classify(facts: RawResponse): Outcome {
  if (facts.status === undefined) return 'error';
  if (facts.status === 502 || facts.status === 503) return 'refused';
  if (facts.status !== 200) return 'error';
  if (facts.timedOut) return 'error';
  if (facts.body.includes(ABORT_MARKER)) return 'aborted';
  if (!facts.complete) return 'cut';
  return facts.body.endsWith(DONE_EVENT) ? 'ok' : 'cut';
}
