/**
 * The model-server stand-in, one process per pod: streams OpenAI-style SSE chunks for the requested
 * number of tokens, serves health paths, and on SIGTERM behaves as its profile's server does
 * (drain up to a bound, drain without bound, abort running requests, or exit at once). It listens on
 * 127.0.0.1 on a port the kernel picks, reports it as a JSON line on stdout, logs its own shutdown
 * lines, shaped like the real server's (server-logs.ts), on stderr, and ends each response's connection
 * so the load balancer holds none open. It exits when the lab's IPC channel closes, so it never
 * outlives the lab.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ABORT_MARKER, DONE_EVENT } from './classify.ts';
import { startLagMonitor } from '../verify/lag.ts';
import { toWallMs } from './scale.ts';
import { shutdownLog } from './server-logs.ts';
import type { ServerShutdown } from './setup.ts';

/** The stand-in's settings, passed as one JSON argument. */
export interface StandInConfig {
  name: string;
  shutdown: ServerShutdown;
  /** The paths answered as health checks (the profile's probe paths). */
  healthPaths: string[];
  /** The preStop hook creates this file to make the health check fail. */
  drainFile: string;
  startupSeconds: number;
  tpotMs: number;
  chunkTokens: number;
  lagNoiseMs: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as StandInConfig;
const healthPaths = new Set(config.healthPaths);
const MAX_TOKENS = 100_000;
const log = shutdownLog(config.shutdown, process.pid);
/** A running response stream and the timer of its next chunk. */
type Stream = { id: string; res: ServerResponse; timer: NodeJS.Timeout | undefined };
const streams = new Set<Stream>();
/** Every open HTTP connection (Triton's drain waits for these). */
const connections = new Set<Socket>();
let phase: 'loading' | 'serving' | 'draining' = config.startupSeconds > 0 ? 'loading' : 'serving';
let seq = 0;

const emit = (event: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(event)}\n`);
const say = (line: string) => process.stderr.write(`INFO ${new Date().toISOString().slice(11, 23)} ${line}\n`);

function health(res: ServerResponse): void {
  let ok = phase === 'serving' && !existsSync(config.drainFile);
  if (phase === 'draining' && config.shutdown.healthWhileDraining === 'passes') ok = true;
  if (phase === 'draining' && log.health) say(log.health);
  res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json', connection: 'close' });
  res.end(ok ? '{"status":"ok"}' : '{"status":"unavailable"}');
}

function reject(res: ServerResponse, why: string): void {
  res.writeHead(503, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify({ error: { message: why, type: 'unavailable' } }));
}

function stream(req: IncomingMessage, res: ServerResponse, body: string): void {
  let tokens = 16;
  try {
    tokens = Math.min(MAX_TOKENS, Math.max(1, Number(JSON.parse(body).max_tokens) || 16));
  } catch {
    /* default */
  }
  const id = `cmpl-${config.name}-${++seq}`;
  const chunks = Math.ceil(tokens / config.chunkTokens);
  const every = toWallMs((config.chunkTokens * config.tpotMs) / 1000);
  const started = performance.now();
  const entry: Stream = { id, res, timer: undefined };
  streams.add(entry);
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'close',
    'x-pod': config.name,
  });
  let sent = 0;
  const next = () => {
    sent++;
    const text = ' tok'.repeat(Math.min(config.chunkTokens, tokens - (sent - 1) * config.chunkTokens));
    res.write(`data: {"id":"${id}","object":"text_completion","choices":[{"index":0,"text":"${text}"}]}\n\n`);
    if (sent >= chunks) {
      streams.delete(entry);
      res.end(DONE_EVENT);
      return;
    }
    entry.timer = setTimeout(next, Math.max(0, started + (sent + 1) * every - performance.now()));
  };
  entry.timer = setTimeout(next, every);
  res.on('close', () => {
    clearTimeout(entry.timer);
    streams.delete(entry);
  });
  req.on('error', () => {
    /* the lab's client went away */
  });
}

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method === 'GET' && healthPaths.has(path)) return health(res);
  if (req.method !== 'POST' || path !== '/v1/completions') {
    res.writeHead(404, { connection: 'close' });
    return void res.end();
  }
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (part: string) => {
    if (body.length < 10_000) body += part;
  });
  req.on('end', () => {
    if (phase === 'loading') return reject(res, 'model is loading');
    // A server that waits for its open connections (Triton) keeps serving requests that arrive on them.
    if (phase === 'draining' && config.shutdown.waitsFor !== 'connections')
      return reject(res, 'server is shutting down');
    stream(req, res, body);
  });
});
server.keepAliveTimeout = 1;
server.on('connection', (socket: Socket) => {
  connections.add(socket);
  socket.on('close', () => connections.delete(socket));
});

/** End every running stream with an error event, as a server that aborts its requests does. */
function abortAll(): void {
  for (const entry of streams) {
    clearTimeout(entry.timer);
    entry.res.end(`data: {"error":{"message":"Request aborted: server shutting down",${ABORT_MARKER}}}\n\n`);
  }
  streams.clear();
}

/** Tear down (model seconds), print the exit lines, and exit. */
function finish(): void {
  setTimeout(() => {
    for (const line of log.exit) say(line);
    process.exit(0);
  }, toWallMs(config.shutdown.teardownSeconds));
}

/** Cut every running stream: the process serving it goes away without ending it. */
function cutAll(): void {
  for (const entry of streams) clearTimeout(entry.timer);
  streams.clear();
  for (const socket of connections) socket.destroy();
}

function onSigterm(): void {
  if (phase === 'draining') return;
  phase = 'draining';
  emit({ event: 'sigterm', running: streams.size });
  for (const line of log.sigterm) say(line);
  const s = config.shutdown;
  if (s.mode === 'exit') process.exit(0);
  if (s.newRequests === 'refuse-connection') server.close();
  // Triton keeps its open connections (idle keep-alive ones too) and waits for them; the others drop idle ones.
  if (s.waitsFor !== 'connections') server.closeIdleConnections();
  if (s.mode === 'abort') {
    abortAll();
    finish();
    return;
  }
  const started = performance.now();
  const boundMs = s.boundSeconds === null ? Infinity : toWallMs(s.boundSeconds);
  const waiting = () => (s.waitsFor === 'connections' ? connections.size : streams.size);
  const secondsLeft = () =>
    s.boundSeconds === null ? null : s.boundSeconds - (performance.now() - started) / toWallMs(1);
  const progress = () => {
    const ids = [...streams].map((e) => e.id);
    if (log.progress && waiting() > 0) say(log.progress(waiting(), secondsLeft(), ids));
  };
  progress();
  let lastProgress = started;
  // Bounded: ends when nothing is left to wait for, at the drain bound, or at the latest after 10 wall minutes.
  const poll = setInterval(() => {
    const elapsed = performance.now() - started;
    if (performance.now() - lastProgress >= toWallMs(log.progressEverySeconds)) {
      lastProgress = performance.now();
      progress();
    }
    if (waiting() === 0) {
      clearInterval(poll);
      for (const line of log.drained(secondsLeft())) say(line);
      return finish();
    }
    if (elapsed >= boundMs || elapsed > 600_000) {
      clearInterval(poll);
      if (streams.size === 0) {
        // Only idle connections held the wait: nothing is lost, the server stops as if drained.
        for (const socket of connections) socket.destroy();
        for (const line of log.drained(0)) say(line);
        return finish();
      }
      const running = streams.size;
      if (s.afterBound === 'cut') cutAll();
      else abortAll();
      for (const line of log.bound(running)) say(line);
      finish();
    }
  }, 10);
}

process.on('SIGTERM', onSigterm);
process.on('disconnect', () => process.exit(1));
const lag = startLagMonitor();
setInterval(() => {
  const worst = lag.takeMax();
  if (worst > config.lagNoiseMs) emit({ event: 'lag', ms: Math.round(worst) });
}, 200).unref();
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  emit({ event: 'listening', port: typeof address === 'object' && address ? address.port : 0 });
  if (phase === 'loading')
    setTimeout(() => {
      phase = 'serving';
    }, toWallMs(config.startupSeconds));
});
