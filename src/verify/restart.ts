/**
 * `--restart deployment/NAME`: read the Deployment's selector, say what will happen, and after the
 * warm-up `kubectl rollout restart` it, wait for `rollout status`, and report the pods' changes as
 * timeline events (one listing a second). Nothing else in the cluster is read or changed.
 */
import { COMMANDS, failure, kubectl, shown, type RestartTarget } from './kubectl.ts';
import type { VerifyOptions } from './options.ts';
import { deploymentSelector, podChanges, readPods, type PodState } from './pods.ts';

/** kubectl could not do what verify needs; the CLI reports it and exits 2. */
export class RestartError extends Error {
  name = 'RestartError';
}

/** The Deployment `--restart` names, with its warm-up and rollout timeout. */
type Restart = NonNullable<VerifyOptions['restart']>;

const POLL_SECONDS = 1;
const READ_TIMEOUT_MS = 30_000;

/** Read the Deployment and return its pod selector; throws RestartError when it cannot be read. */
export async function readDeploymentSelector(target: RestartTarget): Promise<string> {
  const args = COMMANDS.getDeployment(target);
  const result = await kubectl(args, READ_TIMEOUT_MS);
  if (result.code !== 0) throw new RestartError(`${shown(args)} failed: ${failure(result)}`);
  try {
    return deploymentSelector(JSON.parse(result.stdout));
  } catch (error) {
    throw new RestartError(`deployment/${target.deployment}: ${(error as Error).message}`);
  }
}

/** What verify will do, said before it does it. */
export function restartPlan(target: Restart, selector: string): string {
  const { warmupSeconds, rolloutTimeoutSeconds } = target;
  return [
    `hitless verify will restart one Deployment and change nothing else:`,
    `  1. send load for ${warmupSeconds} s (Ctrl-C now and nothing is restarted)`,
    `  2. run: ${shown(COMMANDS.restart(target))}`,
    `  3. watch its pods (${shown(COMMANDS.listPods(target, selector))}, every ${POLL_SECONDS} s)`,
    `     and wait: ${shown(COMMANDS.waitRollout(target, rolloutTimeoutSeconds))}`,
    `  4. keep the load on for the longest request seen, then stop and report`,
  ].join('\n');
}

export interface PodWatch {
  /** Take one last listing and stop. */
  stop(): Promise<void>;
}

/** List the pods every POLL_SECONDS and report each change through `onEvent`. */
export function watchPods(target: RestartTarget, selector: string, onEvent: (what: string) => void): PodWatch {
  let previous: Map<string, PodState> | null = null;
  let stopped = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let busy: Promise<void> = Promise.resolve();
  const poll = async () => {
    const result = await kubectl(COMMANDS.listPods(target, selector), READ_TIMEOUT_MS);
    let pods: Map<string, PodState>;
    try {
      if (result.code !== 0) throw new Error(failure(result));
      pods = readPods(JSON.parse(result.stdout));
    } catch (error) {
      if (failures++ === 0) onEvent(`listing pods failed: ${(error as Error).message}`);
      return;
    }
    if (previous === null)
      onEvent(`${pods.size} pod(s) before the restart: ${[...pods.keys()].sort().join(', ') || 'none'}`);
    else for (const change of podChanges(previous, pods)) onEvent(change);
    previous = pods;
  };
  const loop = () => {
    busy = poll().finally(() => {
      if (!stopped) timer = setTimeout(loop, POLL_SECONDS * 1000);
    });
  };
  loop();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await busy;
      await poll();
    },
  };
}

export type RolloutEnd = 'complete' | 'failed' | 'not-started' | 'interrupted';

/** Restart the Deployment and wait for the rollout (`signal` stops the wait); `onEvent` gets each step. */
export async function restartDeployment(
  target: Restart,
  onEvent: (what: string) => void,
  signal?: AbortSignal,
): Promise<RolloutEnd> {
  const { rolloutTimeoutSeconds } = target;
  const restart = COMMANDS.restart(target);
  onEvent(shown(restart));
  const started = await kubectl(restart, READ_TIMEOUT_MS);
  if (started.code !== 0) {
    onEvent(`rollout restart failed: ${failure(started)}`);
    return 'not-started';
  }
  const status = await kubectl(
    COMMANDS.waitRollout(target, rolloutTimeoutSeconds),
    (rolloutTimeoutSeconds + 30) * 1000,
    signal,
  );
  if (signal?.aborted) {
    onEvent('stopped waiting for the rollout (Ctrl-C); it goes on in the cluster');
    return 'interrupted';
  }
  if (status.code !== 0) {
    onEvent(`rollout did not complete: ${failure(status)}`);
    return 'failed';
  }
  onEvent('rollout complete');
  return 'complete';
}
