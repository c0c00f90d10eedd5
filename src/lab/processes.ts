/**
 * Everything the lab starts, so that it can all be stopped: child processes are tracked by PID and
 * killed by PID (never by name), temporary directories are removed, both in `finally` blocks and
 * when the lab itself gets SIGINT, SIGTERM or SIGHUP, or its parent goes away. Each child's life is
 * tied to the lab's: on Linux it starts under `setpriv --pdeathsig KILL`, so the kernel kills it
 * when the lab dies, even by SIGKILL (stand-ins also exit when their IPC channel to the lab closes).
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** util-linux's setpriv, which sets the parent-death signal and then runs the command in its place. */
const SETPRIV = '/usr/bin/setpriv';

/** Whether children can be tied to the lab with a parent-death signal (Linux with setpriv). */
function canTieToParent(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    accessSync(SETPRIV, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The command line that runs `command` so that the kernel SIGKILLs it when its parent (the lab) dies. */
export function tiedCommand(
  command: string,
  args: readonly string[],
  tie: boolean = canTieToParent(),
): [string, string[]] {
  return tie ? [SETPRIV, ['--pdeathsig', 'KILL', '--', command, ...args]] : [command, [...args]];
}

/** Tracked processes and temp directories. */
export class LabResources {
  private readonly children = new Map<number, ChildProcess>();
  private readonly dirs = new Set<string>();
  private readonly tie = canTieToParent();

  /** Spawn a process whose life is tied to the lab's, and track it until it exits. */
  spawn(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
    const [file, fileArgs] = tiedCommand(command, args, this.tie);
    const child = spawn(file, fileArgs, { stdio: ['ignore', 'pipe', 'pipe'], ...options, detached: false });
    if (child.pid === undefined) throw new Error(`could not start ${command}`);
    const pid = child.pid;
    this.children.set(pid, child);
    child.once('exit', () => this.children.delete(pid));
    child.once('error', () => this.children.delete(pid));
    return child;
  }

  /** A new temp directory, removed by `release` or `releaseAll`. */
  tempDir(prefix = 'hitless-lab-'): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.dirs.add(dir);
    return dir;
  }

  /** Send a signal to one tracked process by PID; false when it is not (or no longer) running. */
  signal(pid: number, signal: NodeJS.Signals): boolean {
    if (!this.children.has(pid)) return false;
    try {
      process.kill(pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  /** SIGKILL the given tracked processes (by PID) and wait, bounded, until they are gone; remove the dirs. */
  async release(pids: readonly number[], dirs: readonly string[] = []): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const pid of pids) {
      const child = this.children.get(pid);
      if (!child) continue;
      waits.push(
        new Promise((resolve) => {
          const timer = setTimeout(resolve, 2000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
        }),
      );
      this.signal(pid, 'SIGKILL');
    }
    await Promise.all(waits);
    for (const dir of dirs) this.removeDir(dir);
  }

  /** Synchronously SIGKILL every tracked process and remove every temp dir (for exits and signals). */
  releaseAll(): void {
    for (const pid of [...this.children.keys()]) this.signal(pid, 'SIGKILL');
    for (const dir of [...this.dirs]) this.removeDir(dir);
  }

  private removeDir(dir: string): void {
    rmSync(dir, { recursive: true, force: true });
    this.dirs.delete(dir);
  }
}

/** Call `onLine` with each whole line a child prints on `stream` (an unfinished last line waits for its end). */
export function eachLine(stream: Readable, onLine: (line: string) => void): void {
  stream.setEncoding('utf8');
  let buffered = '';
  stream.on('data', (text: string) => {
    const lines = (buffered + text).split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  });
}

/** The signals that stop the lab, and the exit code for each (128 + signal number). */
export const STOP_SIGNALS: Readonly<Record<'SIGINT' | 'SIGTERM' | 'SIGHUP', number>> = {
  SIGHUP: 129,
  SIGINT: 130,
  SIGTERM: 143,
};

/** How often the lab checks that its parent is still there, in ms. */
const PARENT_POLL_MS = 200;

/**
 * Make SIGINT, SIGTERM and SIGHUP, and the loss of the parent process (a wrapper or npm killed without a
 * chance to forward a signal; the lab is then re-parented), stop everything the lab started before it exits
 * (130 / 143 / 129). Returns a function that removes the handlers again.
 */
export function stopOnSignals(resources: LabResources, onStop: (reason: string) => void = () => {}): () => void {
  const stop = (reason: string, code: number) => {
    resources.releaseAll();
    onStop(reason);
    process.exit(code);
  };
  const handlers = Object.entries(STOP_SIGNALS).map(([signal, code]) => {
    const handler = () => stop(signal, code);
    process.once(signal, handler);
    return [signal, handler] as const;
  });
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid !== parent) stop(`parent process ${parent} went away`, STOP_SIGNALS.SIGHUP);
  }, PARENT_POLL_MS);
  watch.unref();
  return () => {
    clearInterval(watch);
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}
