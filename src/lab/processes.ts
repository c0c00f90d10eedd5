/**
 * Everything the lab starts, so that it can all be stopped: child processes are tracked by PID and
 * killed by PID (never by name), temporary directories are removed, both in `finally` blocks and
 * when the lab itself gets SIGINT or SIGTERM.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Tracked processes and temp directories. */
export class LabResources {
  private readonly children = new Map<number, ChildProcess>();
  private readonly dirs = new Set<string>();

  /** Spawn a process and track it until it exits. */
  spawn(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options, detached: false });
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
      waits.push(new Promise((resolve) => {
        const timer = setTimeout(resolve, 2000);
        child.once('exit', () => { clearTimeout(timer); resolve(); });
      }));
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

  /** PIDs still tracked. */
  running(): number[] {
    return [...this.children.keys()];
  }

  private removeDir(dir: string): void {
    rmSync(dir, { recursive: true, force: true });
    this.dirs.delete(dir);
  }
}

/**
 * Make SIGINT and SIGTERM stop everything the lab started before it exits (130 / 143).
 * Returns a function that removes the handlers again.
 */
export function stopOnSignals(resources: LabResources, onStop: (signal: string) => void = () => {}): () => void {
  const handler = (signal: NodeJS.Signals) => {
    resources.releaseAll();
    onStop(signal);
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
