/**
 * The shutdown log lines a stand-in prints. They are the stand-in's own output, shaped like each real server's
 * log at the release STAND_IN_LOG_FORMAT names (labels.ts), in the order that release prints them (see the fact
 * check, rows #13, #29-31, #41, #48-49, #56). A line the real server does not print is marked "(stand-in)".
 * Seconds in them are model seconds.
 */
import type { ServerShutdown } from './setup.ts';

/** The lines for each step of a shutdown. */
export interface ShutdownLog {
  sigterm: string[];
  /**
   * Printed at SIGTERM and then every `progressEverySeconds` while the server waits, with what it waits for
   * (running requests, or open connections for Triton), the whole seconds left of its bound, and request ids.
   */
  progress: ((waiting: number, secondsLeft: number | null, ids: readonly string[]) => string) | null;
  progressEverySeconds: number;
  /** Printed when nothing is left to wait for, with the whole seconds left of the bound. */
  drained: (secondsLeft: number | null) => string[];
  /** Printed when the bound runs out with `running` requests still running. */
  bound: (running: number) => string[];
  /** Printed after the teardown, just before the process exits. */
  exit: string[];
  /** Printed when a health check arrives during the drain, for servers that log it. */
  health: string | null;
}

/** The log lines for a shutdown behaviour (its `profile` names the server they follow). */
export function shutdownLog(s: ServerShutdown, pid: number): ShutdownLog {
  const bound = s.boundSeconds ?? 0;
  switch (s.profile) {
    case 'vllm':
      // launcher.py logs the first two lines, async_llm.py the third; uvicorn's lines follow once the drain returns.
      return {
        sigterm: [
          '[shutdown] API server: shutdown triggered',
          `[shutdown] API server: stopping engine client mode=${s.mode === 'abort' ? 'abort' : 'drain'} timeout=${bound}s`,
          `[shutdown] AsyncLLM: start timeout=${bound}s`,
          '[shutdown] EngineCore: trigger received signal=SIGTERM',
        ],
        progress: null,
        progressEverySeconds: 5,
        drained: () => [],
        bound: (n) => [`(stand-in) the ${bound} s shutdown timeout ran out; ${n} requests aborted`],
        exit: [
          'Shutting down',
          'Waiting for application shutdown.',
          'Application shutdown complete.',
          `Finished server process [${pid}]`,
        ],
        health: null,
      };
    case 'sglang':
      return {
        sigterm: ['SIGTERM received. signum=15 frame=<frame>. Draining requests and shutting down...'],
        progress: (n, _left, ids) =>
          `Gracefully exiting... Remaining number of requests ${n}. Remaining requests remaining_rids=[${ids.map((id) => `'${id}'`).join(', ')}].`,
        progressEverySeconds: 5,
        drained: () => ['Gracefully exiting... Remaining number of requests 0. Remaining requests remaining_rids=[].'],
        bound: (n) => [`(stand-in) SIGKILL with ${n} requests running`],
        exit: [],
        health: 'Health check request received during shutdown. Returning 503.',
      };
    case 'tgi':
      // The launcher's terminate("webserver", …, graceful-termination-timeout); the router's axum graceful shutdown;
      // then shutdown_shards, whose shard managers terminate("shard", …) with the same timeout.
      return {
        sigterm: [
          'Terminating webserver',
          'Waiting for webserver to gracefully shutdown',
          'signal received, starting graceful shutdown',
        ],
        progress: null,
        progressEverySeconds: 5,
        drained: () => ['webserver terminated', 'Shutting down shards'],
        bound: () => ['Killing webserver', 'webserver killed', 'Shutting down shards'],
        exit: ['Terminating shard', 'Waiting for shard to gracefully shutdown', 'shard terminated'],
        health: null,
      };
    case 'triton': {
      // HTTPServer::Stop counts down the one --exit-timeout-secs budget while connections stay open; core
      // InferenceServer::Stop gets what is left for in-flight inferences, then unloads the models.
      // Triton takes one off the budget per 1 s round; the stand-in's rounds come every model second, a little late.
      const left = (n: number | null) => Math.max(0, Math.round(n ?? 0));
      return {
        sigterm: ['Signal (15) received.'],
        progress: (n, secondsLeft) => `Timeout ${left(secondsLeft)}: Found ${n} HTTP service connections`,
        progressEverySeconds: 1,
        drained: (secondsLeft) => [
          'Waiting for in-flight requests to complete.',
          `Timeout ${left(secondsLeft)}: Found 0 model versions that have in-flight inferences`,
          'All models are stopped, unloading models',
          `Timeout ${left(secondsLeft)}: Found 0 live models and 0 in-flight non-inference requests`,
        ],
        bound: (n) => [
          'Waiting for in-flight requests to complete.',
          `Timeout 0: Found ${n > 0 ? 1 : 0} model versions that have in-flight inferences`,
          ...(n > 0 ? [`Model 'lab' (version 1) has ${n} in-flight inferences`] : []),
          'failed to stop server: Exit timeout expired. Exiting immediately.',
        ],
        exit: [],
        health: null,
      };
    }
    default:
      return {
        sigterm: ['cleaning up before exit...'],
        progress: null,
        progressEverySeconds: 5,
        drained: () => [],
        bound: (n) => [`(stand-in) exiting with ${n} requests running`],
        exit: [],
        health: null,
      };
  }
}
