/**
 * Run a real HAProxy for one lab run: write its config into the run's temp dir, start it in the
 * foreground (tracked by PID), talk to its runtime API over the admin unix socket, and read its
 * request log (termination flags per request id) and its health-check state changes.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { BACKEND, haproxyConfig, type HaproxyConfigOptions } from './haproxy-config.ts';
import { eachLine, type LabResources } from './processes.ts';
import type { DataPlane, DataPlaneOptions } from './proxy.ts';

/** Where the lab finds HAProxy (Debian's package installs it here). */
export const HAPROXY = process.env.HITLESS_HAPROXY ?? '/usr/sbin/haproxy';

/** A running HAProxy: a data plane, and its runtime API's socket. */
export interface Haproxy extends DataPlane {
  socket: string;
}

/** Log entries kept per run at most. */
const MAX_LOGGED = 100_000;

/** HAProxy's version line, e.g. "2.6.12-1+deb12u4", or null when it is not installed. */
export function haproxyVersion(): string | null {
  try {
    const out = execFileSync(HAPROXY, ['-v'], { encoding: 'utf8', timeout: 5000 });
    return /version (\S+)/.exec(out)?.[1] ?? out.split('\n')[0];
  } catch {
    return null;
  }
}

/** A free TCP port on 127.0.0.1, found by binding port 0 and closing again. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Start a proxy on a free port; retries twice if the port was taken before the proxy bound it. */
export async function onFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

/** Send one runtime API command (one per connection) and return the answer; bounded by 2 s. */
function runtime(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const conn = connect(socket);
    let answer = '';
    const timer = setTimeout(() => {
      conn.destroy();
      reject(new Error(`runtime API: no answer to "${command}"`));
    }, 2000);
    conn.setEncoding('utf8');
    conn.on('connect', () => conn.write(`${command}\n`));
    conn.on('data', (part: string) => {
      answer += part;
    });
    conn.on('end', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    conn.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/**
 * Start HAProxy in front of the pods, the spare slot disabled (its frontend port is chosen here); retries twice if
 * the port was taken.
 */
export async function startHaproxy(resources: LabResources, dir: string, options: DataPlaneOptions): Promise<Haproxy> {
  const servers = [...options.pods, ...(options.spare ? [{ name: options.spare, port: 1, disabled: true }] : [])];
  return onFreePort((frontendPort) =>
    startOnce(resources, dir, { servers, checks: options.checks, frontendPort, adminSocket: join(dir, 'admin.sock') }),
  );
}

async function startOnce(resources: LabResources, dir: string, options: HaproxyConfigOptions): Promise<Haproxy> {
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig(options));
  const child = resources.spawn(HAPROXY, ['-db', '-f', file]);
  const socket = options.adminSocket;
  const server = (pod: string) => `${BACKEND}/${pod}`;
  const requests = new Map<string, { server: string | null; flags: string }>();
  const proxy: Haproxy = {
    pid: child.pid!,
    port: options.frontendPort,
    socket,
    requestLog: () => requests,
    stateChanges: [],
    remove: async (pod, state) => void (await runtime(socket, `set server ${server(pod)} state ${state}`)),
    closeSessions: async (pod) => void (await runtime(socket, `shutdown sessions server ${server(pod)}`)),
    admit: async (pod, port) => {
      await runtime(socket, `set server ${server(pod)} addr 127.0.0.1 port ${port}`);
      await runtime(socket, `set server ${server(pod)} state ready`);
    },
  };
  const onLine = (line: string) => {
    // request id, server, status, termination state (the flags a lost request is reported with)
    const req = /^req (\S+) (\S+) (\d+) (\S+)/.exec(line);
    if (req) {
      if (requests.size < MAX_LOGGED)
        requests.set(req[1], { server: req[2] === '<NOSRV>' ? null : req[2], flags: req[4] });
      return;
    }
    const change = /Server \S+\/(\S+) is (UP|DOWN)/.exec(line);
    if (change) {
      const last = proxy.stateChanges.at(-1);
      if (!last || last.server !== change[1] || last.state !== change[2])
        proxy.stateChanges.push({ at: performance.now(), server: change[1], state: change[2] });
    }
  };
  eachLine(child.stdout!, onLine);
  eachLine(child.stderr!, onLine);
  let errors = '';
  child.stderr!.on('data', (text: string) => {
    if (errors.length < 4000) errors += text;
  });
  // Wait (up to 3 s) until the runtime API answers.
  for (let i = 0; i < 150; i++) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    try {
      await runtime(proxy.socket, `show servers state ${BACKEND}`);
      return proxy;
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  await resources.release([proxy.pid]);
  throw new Error(`HAProxy did not start: ${errors.trim().split('\n').slice(-3).join(' / ') || 'no output'}`);
}
