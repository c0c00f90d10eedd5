/**
 * The lab always cleans up: signal each documented entry point mid-run (`npm run lab`, `npx hitless lab`, the
 * Node-20 re-exec wrapper bin/hitless.mjs, the lab itself with SIGKILL) and check that no process it started and
 * no port it bound remains 3 s later; and the same for nginx, whose workers outlive a killed master unless the lab
 * runs it in a PID namespace of its own. Needs HAProxy and nginx (each skipped without it, as `npm run test:lab`
 * needs them too).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { haproxyVersion } from '../../src/lab/haproxy.ts';
import { nginxVersion } from '../../src/lab/nginx.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LAB_ARGS = ['lab', '--scenario', 'recommended', '--gateway', 'istio', '--runs', '1'];
const NGINX_ARGS = [...LAB_ARGS, '--proxy', 'nginx'];
/** How long the entry point may take to reach the middle of a run (npx is slow on a busy machine). */
const START_WITHIN_MS = 60_000;
/** The bound: nothing the lab started remains this long after the signal. */
const GONE_WITHIN_MS = 3000;

interface Proc {
  pid: number;
  start: string;
  ppid: number;
  state: string;
  cmd: string;
}

function readProc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    // Fields after the name: state (3), ppid (4), …, starttime (22).
    return { pid, state: after[0], ppid: Number(after[1]), start: after[19], cmd };
  } catch {
    return null;
  }
}

function allProcs(): Proc[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p): p is Proc => p !== null);
}

/** Every process below `root`, the root included. */
function tree(root: number): Proc[] {
  const procs = allProcs();
  const found = procs.filter((p) => p.pid === root);
  for (let i = 0; i < found.length; i++) found.push(...procs.filter((p) => p.ppid === found[i].pid));
  return found;
}

/** TCP ports in LISTEN state, by socket inode. */
function listening(): Map<string, number> {
  const ports = new Map<string, number>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[3] === '0A') ports.set(f[9], parseInt(f[1].split(':')[1], 16));
    }
  }
  return ports;
}

/** The TCP ports the given processes listen on. */
function portsOf(pids: readonly number[]): number[] {
  const byInode = listening();
  const ports = new Set<number>();
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        if (inode && byInode.has(inode)) ports.add(byInode.get(inode)!);
      } catch {
        /* closed meanwhile */
      }
    }
  }
  return [...ports];
}

/** Still running: the same PID with the same start time, and not a zombie (a zombie holds no port and runs nothing). */
function alive(p: Proc): boolean {
  const now = readProc(p.pid);
  return now !== null && now.start === p.start && now.state !== 'Z';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Wait (bounded) until a run is under way: the proxy and the three stand-ins are up and listening below `root`. */
async function midRun(
  child: ChildProcess,
  output: () => string,
  nginx: boolean,
): Promise<{ procs: Proc[]; ports: number[] }> {
  const deadline = Date.now() + START_WITHIN_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    const procs = tree(child.pid!);
    // nginx: a worker is up (the master forks it once it listens), below the master, below unshare.
    const haproxy = procs.some((p) => (nginx ? /^nginx: worker process/ : /(^|\/)haproxy /).test(p.cmd));
    const standIns = procs.filter((p) => p.cmd.includes('server-main.ts')).length;
    const ports = haproxy && standIns >= 3 ? portsOf(procs.map((p) => p.pid)) : [];
    if (ports.length >= 4) return { procs, ports };
    await sleep(100);
  }
  throw new Error(
    `the lab did not reach the middle of a run within ${START_WITHIN_MS / 1000} s; output:\n${output().slice(-2000)}`,
  );
}

/**
 * Start an entry point, signal `target(tree)` mid-run, and check everything is gone within 3 s: processes, ports
 * and, unless the signal leaves the lab no chance to run (`leavesFolders`: SIGKILL to the lab itself), its
 * temporary folders. The lab makes them in a temporary directory of this run's own (TMPDIR), removed after.
 */
async function signalMidRun(
  command: string,
  args: string[],
  signal: NodeJS.Signals,
  target: (procs: Proc[], root: number) => number,
  { leavesFolders = false } = {},
): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'hitless-signals-'));
  const labFolders = () => readdirSync(tmp).filter((name) => name.startsWith('hitless-lab-'));
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TMPDIR: tmp },
  });
  let output = '';
  child.stdout!.on('data', (d) => {
    output += d;
  });
  child.stderr!.on('data', (d) => {
    output += d;
  });
  let procs: Proc[] = [];
  try {
    const running = await midRun(child, () => output, args.includes('nginx'));
    procs = running.procs;
    assert.notDeepEqual(labFolders(), [], 'the running lab keeps its files in a folder under TMPDIR');
    const ports = running.ports;
    process.kill(target(procs, child.pid!), signal);
    const deadline = Date.now() + GONE_WITHIN_MS;
    const kept = () => (leavesFolders ? [] : labFolders());
    let left = procs.filter(alive);
    let bound = ports.filter((port) => [...listening().values()].includes(port));
    while ((left.length > 0 || bound.length > 0 || kept().length > 0) && Date.now() < deadline) {
      await sleep(100);
      left = procs.filter(alive);
      bound = ports.filter((port) => [...listening().values()].includes(port));
    }
    assert.deepEqual(kept(), [], `temporary folders still there ${GONE_WITHIN_MS / 1000} s after ${signal}`);
    assert.deepEqual(
      left.map((p) => `${p.pid} ${p.cmd}`),
      [],
      `processes still running ${GONE_WITHIN_MS / 1000} s after ${signal}`,
    );
    assert.deepEqual(bound, [], `ports still bound ${GONE_WITHIN_MS / 1000} s after ${signal}`);
  } finally {
    // Never leak into other tests: anything left is stopped by PID.
    for (const p of procs.filter(alive)) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The lab's own process: the deepest one running src/cli/main.ts (Node 24). */
const labProcess = (procs: Proc[]) =>
  procs.filter((p) => /src\/cli\/main\.ts|bin\/hitless\.mjs/.test(p.cmd) && !p.cmd.startsWith('/usr/bin/node')).at(-1)!
    .pid;
const front = (_: Proc[], root: number) => root;

/** A system Node older than 22.18, which makes bin/hitless.mjs re-exec the project's Node 24. */
function oldSystemNode(): string | null {
  try {
    const version = execFileSync('/usr/bin/node', ['-v'], { encoding: 'utf8' }).trim();
    const [major, minor] = version.slice(1).split('.').map(Number);
    return major < 22 || (major === 22 && minor < 18) ? '/usr/bin/node' : null;
  } catch {
    return null;
  }
}

const skip = haproxyVersion() ? false : 'HAProxy is not installed';
const options = { skip, concurrency: false, timeout: START_WITHIN_MS + 30_000 };

test('SIGTERM to npm run lab stops everything the lab started', options, async () => {
  await signalMidRun('npm', ['run', '--silent', ...LAB_ARGS.slice(0, 1), '--', ...LAB_ARGS.slice(1)], 'SIGTERM', front);
});

test('SIGTERM to npx hitless lab stops everything the lab started', options, async () => {
  await signalMidRun('npx', ['hitless', ...LAB_ARGS], 'SIGTERM', front);
});

test('SIGINT to npx hitless lab stops everything the lab started', options, async () => {
  await signalMidRun('npx', ['hitless', ...LAB_ARGS], 'SIGINT', front);
});

const old = oldSystemNode();
test('SIGTERM to the Node-20 re-exec wrapper stops everything the lab started', {
  ...options,
  skip: skip || (old ? false : 'no system Node older than 22.18'),
}, async () => {
  await signalMidRun(old!, ['bin/hitless.mjs', ...LAB_ARGS], 'SIGTERM', front);
});

test('SIGKILL to the re-exec wrapper: the lab notices it lost its parent and stops everything', {
  ...options,
  skip: skip || (old ? false : 'no system Node older than 22.18'),
}, async () => {
  await signalMidRun(old!, ['bin/hitless.mjs', ...LAB_ARGS], 'SIGKILL', front);
});

test('SIGKILL to the lab itself leaves no HAProxy and no stand-in running', options, async () => {
  await signalMidRun(process.execPath, ['src/cli/main.ts', ...LAB_ARGS], 'SIGKILL', labProcess, {
    leavesFolders: true,
  });
});

const nginxOptions = { ...options, skip: nginxVersion() ? false : 'nginx is not installed' };

test('SIGTERM to npm run lab --proxy nginx stops nginx, its workers and the stand-ins', nginxOptions, async () => {
  await signalMidRun('npm', ['run', '--silent', 'lab', '--', ...NGINX_ARGS.slice(1)], 'SIGTERM', front);
});

test('SIGKILL to the lab itself leaves no nginx worker running', nginxOptions, async () => {
  await signalMidRun(process.execPath, ['src/cli/main.ts', ...NGINX_ARGS], 'SIGKILL', labProcess, {
    leavesFolders: true,
  });
});
