/**
 * For `npm run bench`: how many concurrent streams one verify process holds. Two modes, each run as its
 * own process by scripts/bench.ts:
 *   node bench-hold.ts serve            a stand-in streaming one SSE event per token every 50 ms (20
 *                                       tokens/s a stream, one event a token, as vLLM streams); prints its port
 *   node bench-hold.ts hold PORT N      verify's load engine opening N streams over 2 s and holding them;
 *                                       prints one JSON line: event-loop lag p99 and max while all N were open
 */
import { Agent, createServer } from 'node:http';
import { startLoad } from '../src/verify/load.ts';
import { quantile } from '../src/verify/report.ts';

/** Wall ms between two events of a stream. */
export const TOKEN_MS = 50;
/** Seconds over which the N streams are opened, and seconds they are all held afterwards. */
export const RAMP_SECONDS = 2;
export const HOLD_SECONDS = 6;

/** What one hold measured. */
export interface HoldResult {
  streams: number;
  /** Most streams in flight at once. */
  peakInFlight: number;
  lagP99Ms: number;
  lagMaxMs: number;
  /** SSE events the client read per second, over the whole run (ramp and hold). */
  eventsPerSecond: number;
  /** Share of one core the process used while holding (user + system CPU time over wall time). */
  cpuShare: number;
  ok: number;
  /** Requests that did not end ok (arrivals skipped at the concurrency bound are not requests). */
  lost: number;
}

function serve(): void {
  // One timer for every stream (not one each), so the stand-in spends its CPU on writing, not on timers.
  const streams = new Map<import('node:http').ServerResponse, number>();
  const limit = (RAMP_SECONDS + HOLD_SECONDS + 2) * (1000 / TOKEN_MS);
  setInterval(() => {
    for (const [res, tokens] of streams) {
      if (tokens + 1 < limit) {
        streams.set(res, tokens + 1);
        res.write(
          'data: {"id":"b","object":"text_completion","choices":[{"index":0,"text":" tok","finish_reason":null}]}\n\n',
        );
      } else {
        streams.delete(res);
        res.end(
          'data: {"id":"b","object":"text_completion","choices":[{"index":0,"text":"","finish_reason":"length"}]}\n\ndata: [DONE]\n\n',
        );
      }
    }
  }, TOKEN_MS);
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      streams.set(res, 0);
      res.on('close', () => streams.delete(res));
    });
  });
  server.listen(0, '127.0.0.1', () =>
    process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`),
  );
  process.stdin.resume();
  process.stdin.on('end', () => process.exit(0)); // exits with its parent
}

async function hold(port: number, streams: number): Promise<HoldResult> {
  const agent = new Agent({ keepAlive: false });
  const load = startLoad({
    target: {
      url: new URL(`http://127.0.0.1:${port}/v1/completions`),
      body: '{"model":"bench","prompt":"x","max_tokens":1000,"stream":true}',
      headers: {},
      timeoutMs: 60_000,
      agent,
    },
    ratePerSecond: streams / RAMP_SECONDS,
    concurrency: streams,
  });
  const lags: number[] = [];
  let peakInFlight = 0;
  let last = performance.now();
  const sampler = setInterval(() => {
    const now = performance.now();
    lags.push(Math.max(0, now - last - 10));
    last = now;
    peakInFlight = Math.max(peakInFlight, load.stats.inFlight);
  }, 10);
  await new Promise((r) => setTimeout(r, RAMP_SECONDS * 1000));
  load.stopSending();
  // Measure only while every stream is open: from half a second after the ramp to the end of the hold.
  await new Promise((r) => setTimeout(r, 500));
  lags.length = 0;
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  await new Promise((r) => setTimeout(r, (HOLD_SECONDS - 0.5) * 1000));
  const window = lags.slice().sort((a, b) => a - b);
  const cpu = process.cpuUsage(cpuBefore);
  const cpuShare = (cpu.user + cpu.system) / 1000 / (performance.now() - wallBefore);
  const results = await load.finished;
  clearInterval(sampler);
  agent.destroy();
  const ok = results.filter((r) => r.outcome === 'ok').length;
  const events = results.reduce((sum, r) => sum + r.events, 0);
  return {
    streams,
    peakInFlight,
    lagP99Ms: Math.round(quantile(window, 0.99)),
    lagMaxMs: Math.round(window.at(-1) ?? 0),
    eventsPerSecond: Math.round(events / ((performance.now() - load.zeroMs) / 1000)),
    cpuShare: Math.round(cpuShare * 100) / 100,
    ok,
    lost: results.length - ok,
  };
}

const [mode, port, n] = process.argv.slice(2);
if (mode === 'serve') serve();
else if (mode === 'hold') hold(Number(port), Number(n)).then((r) => process.stdout.write(`${JSON.stringify(r)}\n`));
