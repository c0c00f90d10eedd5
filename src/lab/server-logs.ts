/**
 * Shutdown log lines the stand-in prints, shaped like each real model server's (see the
 * shutdownLog of its profile in content/model-servers/). Seconds in them are model seconds.
 */
import type { ServerShutdown } from './setup.ts';

/** The lines for each step of a shutdown. */
export interface ShutdownLog {
  sigterm: string[];
  /** Printed while draining, every `progressEverySeconds`, with the number of running requests. */
  progress: ((running: number, secondsLeft: number | null) => string) | null;
  progressEverySeconds: number;
  /** Printed when the drain bound runs out with requests still running. */
  bound: (running: number) => string;
  health: string | null;
  exit: string[];
}

/** The log lines for a profile and shutdown behaviour. */
export function shutdownLog(s: ServerShutdown, pid: number): ShutdownLog {
  const bound = s.boundSeconds ?? 0;
  switch (s.profile) {
    case 'vllm':
      return {
        sigterm: [
          '[shutdown] API server: shutdown triggered',
          `[shutdown] API server: stopping engine client mode=${s.mode === 'abort' ? 'abort' : 'drain'} timeout=${bound}s`,
          `[shutdown] AsyncLLM: start timeout=${bound}s`,
          '[shutdown] EngineCore: trigger received signal=SIGTERM',
          'Shutting down',
          'Waiting for connections to close. (CTRL+C to force quit)',
        ],
        progress: null,
        progressEverySeconds: 5,
        bound: (n) => `[shutdown] AsyncLLM: timeout reached, aborting ${n} requests`,
        health: null,
        exit: ['Waiting for application shutdown.', 'Application shutdown complete.', `Finished server process [${pid}]`],
      };
    case 'sglang':
      return {
        sigterm: ['SIGTERM received. signum=15 frame=None. Draining requests and shutting down...'],
        progress: (n) => `Gracefully exiting... remaining number of requests ${n}`,
        progressEverySeconds: 5,
        bound: (n) => `Force shutdown with ${n} requests remaining`,
        health: 'Health check request received during shutdown. Returning 503.',
        exit: ['Gracefully exiting... remaining number of requests 0', 'Killing the process tree'],
      };
    case 'tgi':
      return {
        sigterm: ['Terminating webserver', 'Waiting for webserver to gracefully shutdown'],
        progress: null,
        progressEverySeconds: 5,
        bound: (n) => `Webserver did not stop in ${bound}s; killing it with ${n} requests running`,
        health: null,
        exit: ['webserver terminated', 'Shutting down shards'],
      };
    case 'triton':
      return {
        sigterm: ['Signal (15) received.', 'Waiting for in-flight requests to complete.'],
        // A model stays live while it has inferences in flight; the count Triton prints is of non-inference requests.
        progress: (n, left) => `Timeout ${Math.max(0, Math.ceil(left ?? 0))}: Found ${n > 0 ? 1 : 0} live models and 0 in-flight non-inference requests`,
        progressEverySeconds: 1,
        bound: (n) => `Exit timeout expired. Exiting immediately with ${n} in-flight requests.`,
        health: null,
        exit: ['Timeout 0: Found 0 live models and 0 in-flight non-inference requests', 'All models are stopped, unloading models'],
      };
    default:
      return {
        sigterm: ['cleaning up before exit...'],
        progress: null,
        progressEverySeconds: 5,
        bound: (n) => `exiting with ${n} requests running`,
        health: null,
        exit: [],
      };
  }
}
