/**
 * How one request ended, as `hitless verify` sees it from the client side. The same kinds as the
 * lab's classifier (src/lab/classify.ts), with `timeout` where the lab has its own `error`:
 * ok: streamed to `[DONE]` or a finish reason. refused: no connection, or an HTTP error status (so
 * before any token). cut: the stream ended without a finish. aborted: the server ended the stream
 * with an error event or an `abort` finish reason. unreadable: an event's data was neither `[DONE]` nor JSON, so a
 * real client could not read the stream (whatever came after). timeout: the client's time limit ran out.
 */
import type { StreamFacts } from './sse.ts';

export type VerifyOutcome = 'ok' | 'refused' | 'cut' | 'aborted' | 'unreadable' | 'timeout';

/** Every outcome, in report order. */
export const VERIFY_OUTCOMES: readonly VerifyOutcome[] = ['ok', 'refused', 'cut', 'aborted', 'unreadable', 'timeout'];

/** The finish reason vLLM (and others) give a request they aborted. */
const ABORT_FINISH_REASON = 'abort';

/** What the client saw of one request. */
export interface RequestFacts {
  /** HTTP status, absent when no response head arrived (connection refused, reset, DNS…). */
  status?: number;
  timedOut: boolean;
  stream: StreamFacts;
}

export function classifyRequest(facts: RequestFacts): VerifyOutcome {
  if (facts.timedOut) return 'timeout';
  if (facts.status === undefined || facts.status < 200 || facts.status > 299) return 'refused';
  const s = facts.stream;
  if (s.error !== null || s.finishReason === ABORT_FINISH_REASON) return 'aborted';
  if (s.malformed > 0) return 'unreadable';
  if (s.done || s.finishReason !== null) return 'ok';
  return 'cut';
}

export function zeroCounts(): Record<VerifyOutcome, number> {
  return { ok: 0, refused: 0, cut: 0, aborted: 0, unreadable: 0, timeout: 0 };
}

/** Lost requests in a count: everything but ok. */
export function lostOf(counts: Record<VerifyOutcome, number>): number {
  return VERIFY_OUTCOMES.reduce((sum, o) => sum + (o === 'ok' ? 0 : counts[o]), 0);
}
