/**
 * The shutdown log lines a stand-in prints. They are the stand-in's own output, shaped like each real server's
 * log at the release its data file's `shutdownLog.follows` names, in the order that release prints them; the
 * lines and their sources are in that block (content/model-servers/<id>.yaml), which reaches the stand-in in its
 * config. A line the real server does not print is marked "(stand-in)". Seconds in them are model seconds.
 */
import { fillLogLines } from '../facts/shutdown-log.ts';
import type { ServerShutdown } from './setup.ts';

/** The model the stand-in serves, as its log names it. */
const MODEL_NAME = 'lab';

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

/** The log lines for a shutdown behaviour, from the server's `shutdownLog` block (none when it has none). */
export function shutdownLog(s: ServerShutdown, pid: number): ShutdownLog {
  const log = s.log;
  const base = {
    drainSeconds: s.boundSeconds ?? 0,
    mode: s.mode === 'abort' ? 'abort' : 'drain',
    model: MODEL_NAME,
    pid,
  };
  const left = (seconds: number | null) => Math.max(0, Math.round(seconds ?? 0));
  const progress = log?.progress;
  return {
    sigterm: fillLogLines(log?.sigterm ?? [], base),
    progress: progress
      ? (count, secondsLeft, ids) =>
          fillLogLines([progress.line], {
            ...base,
            count,
            secondsLeft: left(secondsLeft),
            ids: ids.map((id) => `'${id}'`).join(', '),
          })[0]
      : null,
    progressEverySeconds: progress?.everySeconds ?? 5,
    drained: (secondsLeft) => fillLogLines(log?.drained ?? [], { ...base, secondsLeft: left(secondsLeft) }),
    bound: (count) => fillLogLines(log?.bound ?? [], { ...base, count, models: count > 0 ? 1 : 0 }),
    exit: fillLogLines(log?.exit ?? [], base),
    health: log?.healthDuringShutdown ?? null,
  };
}
