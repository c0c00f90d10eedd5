/**
 * Send one streamed completion and classify how it ended. Plain node:http(s) with the caller's agent
 * (many concurrent streams need no more than that); a time limit per request; cancellable.
 */
import { request as httpRequest, type Agent as HttpAgent } from 'node:http';
import { request as httpsRequest, type Agent as HttpsAgent } from 'node:https';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { classifyRequest, type VerifyOutcome } from './outcome.ts';
import { createStreamReader } from './sse.ts';

/** Where and what to send; the same for every request of a run. */
export interface RequestTarget {
  url: URL;
  /** JSON body. */
  body: string;
  /** Extra headers (e.g. authorization). Never printed or saved. */
  headers: Readonly<Record<string, string>>;
  /** Header that carries each request's number, so gateway logs can be matched (optional). */
  idHeader?: string;
  timeoutMs: number;
  agent: HttpAgent | HttpsAgent;
}

/** What happened to one request. Times are ms after the run's start (performance.now based). */
export interface RequestResult {
  id: number;
  startMs: number;
  endMs: number;
  /** Time to the first output token, ms, or null when none came. */
  ttftMs: number | null;
  outcome: VerifyOutcome;
  status: number | null;
  /** Why a refused or cut request ended, in a few words (an error code or the stream's error). */
  detail: string | null;
  /** The user stopped it (second Ctrl-C): not counted as an outcome. */
  cancelled: boolean;
  /** SSE events received. */
  events: number;
}

/** A raw response: what the lab's classifier reads (src/lab/classify.ts), and what tests compare with it. */
export interface RawResponse {
  /** HTTP status, absent when no response head arrived. */
  status?: number;
  /** True when the response body ended properly (final chunk received). */
  complete: boolean;
  body: string;
  timedOut?: boolean;
}

export interface InFlight {
  readonly done: Promise<RequestResult>;
  cancel(): void;
}

/** A decoder for a response's content-encoding: null for none, undefined for one verify cannot read. */
function bodyOf(encoding: string | string[] | undefined): Transform | null | undefined {
  const name = String(encoding ?? '')
    .trim()
    .toLowerCase();
  if (name === '' || name === 'identity') return null;
  if (name === 'gzip' || name === 'x-gzip') return createGunzip();
  if (name === 'deflate') return createInflate();
  if (name === 'br') return createBrotliDecompress();
  return undefined;
}

/** The reader's error for an event over its bound (src/verify/sse.ts). */
const OVERSIZE_EVENT = 'an event longer than 1 MiB';

/** Longest body kept for `onRaw` (tests only). */
const RAW_LIMIT = 200_000;

/** Send request `id` now; `zeroMs` is the run's start (performance.now). */
export function sendRequest(
  target: RequestTarget,
  id: number,
  zeroMs: number,
  onRaw?: (id: number, raw: RawResponse) => void,
): InFlight {
  const started = performance.now();
  let status: number | undefined;
  let firstTokenAt: number | null = null;
  let timedOut = false;
  let cancelled = false;
  let complete = false;
  let detail: string | null = null;
  let raw = '';
  const reader = createStreamReader(() => {
    firstTokenAt = performance.now();
  });
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
    // An uncompressed stream is asked for; a compressed one is still decoded (see `bodyOf`).
    'accept-encoding': 'identity',
    'content-length': String(Buffer.byteLength(target.body)),
    ...target.headers,
  };
  if (target.idHeader) headers[target.idHeader] = String(id);
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  const { promise: done, resolve: settle } = Promise.withResolvers<RequestResult>();
  let settled = false;
  const finish = () => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    const facts = reader.end();
    if (onRaw) onRaw(id, { status, complete, body: raw, timedOut });
    const outcome = classifyRequest({ status, timedOut, stream: facts });
    if (outcome === 'aborted') detail = facts.error ?? `finish_reason ${facts.finishReason}`;
    else if (outcome === 'refused' && status !== undefined) detail = `HTTP ${status}`;
    else if (outcome === 'unreadable') detail = `${facts.malformed} event${facts.malformed === 1 ? '' : 's'} not JSON`;
    settle({
      id,
      startMs: started - zeroMs,
      endMs: performance.now() - zeroMs,
      ttftMs: firstTokenAt === null ? null : firstTokenAt - started,
      outcome,
      status: status ?? null,
      detail: outcome === 'ok' ? null : detail,
      cancelled,
      events: facts.events,
    });
  };
  const req = send(target.url, { method: 'POST', headers, agent: target.agent }, (res) => {
    status = res.statusCode;
    const type = String(res.headers['content-type'] ?? '');
    if (status !== undefined && status >= 200 && status <= 299 && !type.includes('text/event-stream')) {
      detail = `not an event stream (content-type ${JSON.stringify(type.slice(0, 60))}): does the endpoint stream?`;
    }
    const body = bodyOf(res.headers['content-encoding']);
    if (body === undefined) {
      detail = `content-encoding ${JSON.stringify(String(res.headers['content-encoding']).slice(0, 30))} cannot be decoded`;
      req.destroy();
    }
    const feed = (part: Buffer) => {
      reader.feed(part);
      if (onRaw && raw.length < RAW_LIMIT) raw += part.toString('utf8');
      // An event over the reader's bound (a flood of bytes, a decompression bomb) ends the stream: stop reading it.
      if (reader.facts.error === OVERSIZE_EVENT) req.destroy();
    };
    res.on('error', (error: NodeJS.ErrnoException) => {
      detail ??= error.code ?? error.message;
    });
    // A compressed body: decoded as it arrives; one that cannot be decoded is cut, with the reason.
    let undecodable = false;
    if (body) {
      res.pipe(body);
      body.on('error', (error: NodeJS.ErrnoException) => {
        undecodable = true;
        detail ??= `the ${res.headers['content-encoding']} body could not be decoded (${error.code ?? error.message})`;
        req.destroy();
      });
      res.on('close', () => {
        if (!res.complete) body.destroy();
      });
    }
    const stream = body ?? res;
    stream.on('data', feed);
    stream.on('close', () => {
      complete = res.complete && !undecodable;
      if (!complete) detail ??= 'the stream broke off';
      finish();
    });
  });
  const timer = setTimeout(() => {
    timedOut = true;
    detail = `no end after ${target.timeoutMs / 1000} s`;
    req.destroy();
    finish();
  }, target.timeoutMs);
  req.on('error', (error: NodeJS.ErrnoException) => {
    detail ??= error.code ?? error.message;
    // Without a response the 'close' of the response never comes: settle here. With one, 'close' settles.
    if (status === undefined) finish();
  });
  req.end(target.body);
  return {
    done,
    cancel() {
      if (settled) return;
      cancelled = true;
      req.destroy();
      finish();
    },
  };
}
