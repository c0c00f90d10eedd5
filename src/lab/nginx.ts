/**
 * Run a real nginx for one lab run the way NGINX Gateway Fabric runs open-source nginx: each endpoint change writes
 * the config anew and reloads it. NGF v2.6.7 sends its agent the files (internal/controller/nginx/agent/agent.go,
 * UpdateConfig; upstreams change in place only with NGINX Plus), and the agent it pins, v3.11.2, sends the master
 * SIGHUP and waits for a worker newer than the old ones (internal/nginx/nginx_instance_operator.go, Reload and
 * checkWorkers; pkg/host/exec/exec.go, KillProcess). The reload's old workers finish the requests they hold while
 * new ones take new requests (nginx.org/en/docs/control.html).
 * nginx runs as PID 1 of a PID namespace of its own (`unshare --pid --fork --kill-child`): its workers outlive a
 * killed master, but not the namespace's first process, so however the lab stops, the kernel ends them all.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { onFreePort } from './haproxy.ts';
import { ACCESS_LOG, nginxConfig, type NginxEndpoint } from './nginx-config.ts';
import { eachLine, type LabResources } from './processes.ts';
import type { DataPlane, DataPlaneOptions } from './proxy.ts';

/** Where the lab finds nginx (Debian's nginx-light and nginx packages install it here). */
export const NGINX = process.env.HITLESS_NGINX ?? '/usr/sbin/nginx';

/** util-linux's unshare. */
const UNSHARE = '/usr/bin/unshare';

/** Wall ms the lab waits for nginx to start, or for a reload's new worker. */
const WAIT_MS = 3000;

/**
 * Each request's line in the access log: its id, the pod chosen (by address), and the statuses to the client and
 * from the pod as its own account (e.g. "502 502": the pod refused the connection).
 */
function readAccessLog(file: string, names: ReadonlyMap<string, string>) {
  const requests = new Map<string, { server: string | null; flags: string }>();
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return requests;
  }
  for (const line of text.split('\n')) {
    const req = /^req (\S+) (\S+) (\d+) (\S+)/.exec(line);
    if (req) requests.set(req[1], { server: names.get(req[2]) ?? null, flags: `${req[3]} ${req[4]}` });
  }
  return requests;
}

/** nginx's version, e.g. "1.22.1", or null when it is not installed. */
export function nginxVersion(): string | null {
  const out = spawnSync(NGINX, ['-v'], { encoding: 'utf8', timeout: 5000 });
  if (out.status !== 0) return null;
  return /nginx\/(\S+)/.exec(`${out.stderr}${out.stdout}`)?.[1] ?? null;
}

/** A running nginx: a data plane that reloads on each endpoint change. */
export interface Nginx extends DataPlane {
  /** Completed reloads (each verified by a worker of the new generation). */
  reloads: number;
}

/** Start nginx in front of the pods (its port is chosen here); retries twice if the port was taken. */
export async function startNginx(resources: LabResources, dir: string, options: DataPlaneOptions): Promise<Nginx> {
  return onFreePort((port) => startOnce(resources, dir, options, port));
}

/** The nginx master's PID: the one child of unshare (read from /proc), or null while there is none. */
function childOf(pid: number): number | null {
  try {
    const child = Number(readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ')[0]);
    return child > 0 ? child : null;
  } catch {
    return null;
  }
}

async function startOnce(
  resources: LabResources,
  dir: string,
  options: DataPlaneOptions,
  port: number,
): Promise<Nginx> {
  const file = join(dir, 'nginx.conf');
  let endpoints: NginxEndpoint[] = [...options.pods];
  const names = new Map(endpoints.map((e) => [`127.0.0.1:${e.port}`, e.name]));
  const write = () =>
    writeFileSync(
      file,
      nginxConfig({ dir, frontendPort: port, endpoints, shutdownTimeoutSeconds: options.gatewayDrainingSeconds }),
    );
  write();
  // Unprivileged, the PID namespace needs a user namespace, where the lab's user is root.
  const user = process.getuid?.() === 0 ? [] : ['--user', '--map-root-user'];
  const args = [...user, '--pid', '--fork', '--kill-child=SIGKILL', NGINX, '-e', 'stderr', '-p', dir, '-c', file];
  const child = resources.spawn(UNSHARE, [...args, '-g', 'daemon off;']);
  let generations = 0;
  let errors = '';
  let exited = false;
  let waiter: { resolve: () => void; reject: (e: Error) => void; after: number } | null = null;
  const proxy: Nginx = {
    pid: child.pid!,
    port,
    requestLog: () => readAccessLog(join(dir, ACCESS_LOG), names),
    stateChanges: [],
    reloads: 0,
    remove: (pod) => change(() => (endpoints = endpoints.filter((e) => e.name !== pod))),
    closeSessions: null,
    admit: (pod, podPort) =>
      change(() => {
        names.set(`127.0.0.1:${podPort}`, pod);
        endpoints = [...endpoints, { name: pod, port: podPort }];
      }),
  };
  eachLine(child.stderr!, (line) => {
    // Anything but nginx's notices: its errors, and unshare's own (no PID namespace without privileges or user namespaces).
    if (errors.length < 4000 && line.trim() && !/\[(notice|info|warn)\]/.test(line)) errors += `${line}\n`;
    if (/start worker process \d+/.test(line)) generations++;
    if (waiter && generations > waiter.after) waiter.resolve();
    else if (waiter && /\[emerg\]/.test(line)) waiter.reject(new Error(`nginx did not reload: ${line}`));
  });
  child.once('exit', () => {
    exited = true;
    waiter?.reject(new Error(`nginx exited: ${errors.trim().split('\n').slice(-2).join(' / ') || 'no output'}`));
  });
  /** Resolve once a worker newer than `after` generations has started; bounded by WAIT_MS. */
  const newWorker = (after: number) =>
    new Promise<void>((resolve, reject) => {
      if (generations > after) return resolve();
      if (exited) return reject(new Error('nginx is not running'));
      const done = (f: () => void) => () => {
        clearTimeout(timer);
        waiter = null;
        f();
      };
      const fail = (e: Error) => done(() => reject(e))();
      const timer = setTimeout(() => fail(new Error(`no new nginx worker within ${WAIT_MS} ms`)), WAIT_MS);
      waiter = { resolve: done(resolve), reject: fail, after };
    });
  // Reloads one at a time: write the config, SIGHUP the master, wait for the new generation.
  let queue = Promise.resolve();
  const change = (edit: () => void): Promise<void> => {
    const next = queue.then(async () => {
      const master = childOf(proxy.pid);
      if (exited || master === null) throw new Error('nginx is not running');
      edit();
      write();
      const before = generations;
      process.kill(master, 'SIGHUP');
      await newWorker(before);
      proxy.reloads++;
    });
    queue = next.catch(() => {});
    return next;
  };
  try {
    await newWorker(0);
    return proxy;
  } catch (error) {
    await resources.release([proxy.pid]);
    throw new Error(
      `nginx did not start: ${errors.trim().split('\n').slice(-3).join(' / ') || (error as Error).message}`,
    );
  }
}
