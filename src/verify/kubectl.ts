/**
 * Run kubectl (from PATH) for `--restart`: every command carries the namespace and context the user
 * named, runs without a shell, and is bounded in time. Only the commands below exist here: read the
 * Deployment, list its pods, `rollout restart` it, wait on `rollout status`.
 */
import { execFile } from 'node:child_process';

/** Where verify restarts and what. */
export interface RestartTarget {
  deployment: string;
  namespace: string;
  context: string | null;
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The kubectl binary: $HITLESS_KUBECTL or `kubectl` on PATH. */
const KUBECTL = process.env.HITLESS_KUBECTL || 'kubectl';

function scopeArgs(t: RestartTarget): string[] {
  return [...(t.context ? [`--context=${t.context}`] : []), `--namespace=${t.namespace}`];
}

/** The commands verify may run, as argument lists. */
export const COMMANDS = {
  getDeployment: (t: RestartTarget) => [...scopeArgs(t), 'get', `deployment/${t.deployment}`, '-o', 'json'],
  listPods: (t: RestartTarget, selector: string) => [...scopeArgs(t), 'get', 'pods', '-l', selector, '-o', 'json'],
  restart: (t: RestartTarget) => [...scopeArgs(t), 'rollout', 'restart', `deployment/${t.deployment}`],
  waitRollout: (t: RestartTarget, timeoutSeconds: number) => [
    ...scopeArgs(t),
    'rollout',
    'status',
    `deployment/${t.deployment}`,
    `--timeout=${timeoutSeconds}s`,
  ],
};

/** Run kubectl with `args`, bounded by `timeoutMs` (and `signal`); never throws (code 127 when kubectl is missing). */
export function kubectl(args: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<KubectlResult> {
  return new Promise((resolve) => {
    execFile(
      KUBECTL,
      args,
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8', signal },
      (error, stdout, stderr) => {
        const err = error as
          | (Omit<NodeJS.ErrnoException, 'code'> & { code?: number | string; killed?: boolean })
          | null;
        const code = err === null ? 0 : err.code === 'ENOENT' ? 127 : typeof err.code === 'number' ? err.code : 1;
        resolve({
          code,
          stdout,
          stderr:
            err?.code === 'ENOENT' ? `${KUBECTL} was not found on PATH` : stderr || (err?.killed ? 'timed out' : ''),
        });
      },
    );
  });
}

/** Why a command failed, in one line: the first line of its stderr, else its exit code. */
export function failure(result: KubectlResult): string {
  return result.stderr.trim().split('\n')[0] || `exit code ${result.code}`;
}

/** The command as a person would type it (for the plan and the events). */
export function shown(args: readonly string[]): string {
  return ['kubectl', ...args].map((a) => (/^[\w./=:,-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}
