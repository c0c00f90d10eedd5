/**
 * Start model-server stand-ins (server-main.ts) as child processes, learn the port each one bound,
 * collect their log lines and lag reports, and wait (bounded) for their health checks to pass.
 */
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { LAB_TPOT_MS } from './load-mix.ts';
import { eachLine, type LabResources } from './processes.ts';
import type { StandInConfig } from './server-main.ts';

const SERVER_MAIN = fileURLToPath(new URL('./server-main.ts', import.meta.url));

/** A running stand-in. */
export interface Pod {
  name: string;
  pid: number;
  port: number;
  /** Resolves with the wall time (performance.now) and signal when the process exits. */
  exited: Promise<{ at: number; code: number | null; signal: string | null }>;
  /** Log lines with the wall time they arrived. */
  logs: { at: number; line: string }[];
  /** Worst event-loop lag the stand-in reported after the wall time `since`, in ms. */
  maxLagMs(since: number): number;
}

export type PodOptions = Omit<StandInConfig, 'tpotMs' | 'chunkTokens'>;

/** Tokens per streamed chunk: a chunk every half model second at 100 ms per token. */
const CHUNK_TOKENS = 5;

/** Start one stand-in and wait (up to 15 s: Node starts slowly on a busy machine) until it reports its port. */
export async function startPod(resources: LabResources, options: PodOptions): Promise<Pod> {
  const config: StandInConfig = { ...options, tpotMs: LAB_TPOT_MS, chunkTokens: CHUNK_TOKENS };
  const child = resources.spawn(process.execPath, ['--no-warnings', SERVER_MAIN, JSON.stringify(config)], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const logs: { at: number; line: string }[] = [];
  const lags: { at: number; ms: number }[] = [];
  const exited = new Promise<{ at: number; code: number | null; signal: string | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ at: performance.now(), code, signal }));
  });
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => {
    for (const line of text.split('\n'))
      if (line.trim() && logs.length < 500) logs.push({ at: performance.now(), line });
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${options.name} did not start within 15 s`)), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`${options.name} exited while starting`));
    });
    eachLine(child.stdout!, (line) => {
      const event = safeParse(line);
      if (event?.event === 'listening') {
        clearTimeout(timer);
        resolve(Number(event.port));
      }
      if (event?.event === 'lag' && lags.length < 1000) lags.push({ at: performance.now(), ms: Number(event.ms) });
    });
  });
  return {
    name: options.name,
    pid: child.pid!,
    port,
    exited,
    logs,
    maxLagMs: (since) => Math.max(0, ...lags.filter((l) => l.at >= since).map((l) => l.ms)),
  };
}

function safeParse(line: string): Record<string, unknown> | null {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** GET a path on 127.0.0.1 and return the status, or 0 on any error (bounded by `timeoutMs`). */
function getStatus(port: number, path: string, timeoutMs = 500): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}

/** Poll the health path every 20 ms until it answers 200; false if `withinMs` passes first. */
export async function waitHealthy(port: number, path: string, withinMs: number): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  for (let i = 0; i < 10_000 && performance.now() < deadline; i++) {
    if ((await getStatus(port, path)) === 200) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}
