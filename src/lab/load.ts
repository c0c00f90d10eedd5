/**
 * The load generator: sends each scheduled request through HAProxy on its own connection at its
 * time, reads the SSE stream to the end, and classifies what it saw. Every request has a time limit,
 * so the generator always finishes.
 */
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { classify, type Outcome } from './classify.ts';
import type { ScheduledRequest } from './load-mix.ts';
import { toModelSeconds, toWallMs } from './scale.ts';

/** What happened to one request. Times are model seconds after the deletion. */
export interface RequestRecord {
  id: number;
  at: number;
  seconds: number;
  started: number;
  ended: number;
  outcome: Outcome;
  status: number | null;
  /** The pod that served or refused it (from the stream's header or HAProxy's log). */
  pod: string | null;
  /** HAProxy's termination state, e.g. SC-- (connection refused), SD-- (server died mid-body). */
  flags: string | null;
}

/** Model seconds a request may run beyond its length before the client gives up on it. */
const CLIENT_SLACK_SECONDS = 15;

function send(port: number, item: ScheduledRequest, deletionAt: number): Promise<RequestRecord> {
  const started = performance.now();
  const since = (t: number) => Math.round(toModelSeconds(t - deletionAt) * 1000) / 1000;
  return new Promise((resolve) => {
    let status: number | undefined;
    let pod: string | null = null;
    let body = '';
    let complete = false;
    let timedOut = false;
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({
        id: item.id,
        at: item.at,
        seconds: item.seconds,
        started: since(started),
        ended: since(performance.now()),
        outcome: classify({ status, complete, body, timedOut }),
        status: status ?? null,
        pod,
        flags: null,
      });
    };
    const payload = JSON.stringify({ model: 'lab', prompt: 'drain', max_tokens: item.maxTokens, stream: true });
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/completions',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          'x-lab-id': String(item.id),
        },
      },
      (res) => {
        status = res.statusCode;
        pod = typeof res.headers['x-pod'] === 'string' ? res.headers['x-pod'] : null;
        res.setEncoding('utf8');
        res.on('data', (part: string) => {
          if (body.length < 200_000) body += part;
        });
        res.on('end', () => {
          complete = res.complete;
        });
        res.on('error', () => {});
        res.on('close', () => {
          complete = complete || res.complete;
          done();
        });
      },
    );
    const timer = setTimeout(
      () => {
        timedOut = true;
        req.destroy();
        done();
      },
      toWallMs(item.seconds + CLIENT_SLACK_SECONDS),
    );
    req.on('error', () => done());
    req.end(payload);
  });
}

/**
 * Send the whole schedule relative to `deletionAt` (a performance.now() time) and resolve with
 * every request's record once all have ended. Requests whose time has already passed go at once.
 */
export function runLoad(
  port: number,
  schedule: readonly ScheduledRequest[],
  deletionAt: number,
): Promise<RequestRecord[]> {
  return Promise.all(
    schedule.map(async (item) => {
      await sleep(Math.max(0, deletionAt + toWallMs(item.at) - performance.now()));
      return send(port, item, deletionAt);
    }),
  );
}
