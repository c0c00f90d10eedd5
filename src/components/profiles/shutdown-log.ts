/**
 * A model server's shutdown log as a reader would see it for a plan: the lines of its data file's `shutdownLog`
 * for a drain that finishes (SIGTERM, one progress line, a health check if it logs one, drained, exit), with
 * `{drainSeconds}` the plan's drain and the other placeholders as examples. The model-server pages and the
 * verify-a-rollout guide both use this; the lab's stand-in prints the same lines (src/lab/server-logs.ts).
 */
import type { ModelServerProfile } from '../../facts/profiles.ts';
import { fillLogLines } from '../../facts/shutdown-log.ts';

/** The example values: one open request, what is left of the bound shown as N after the first wait line. */
const EXAMPLE = { mode: 'drain', count: 1, ids: '...', model: 'M', models: 1, pid: 'N' } as const;

/** The profile's shutdown log lines for a drain of `drainSeconds` that finishes (empty when it has none). */
export function shutdownLogFor(server: ModelServerProfile, drainSeconds: number): string[] {
  const log = server.shutdownLog;
  if (!log) return [];
  const values = { ...EXAMPLE, drainSeconds };
  return [
    ...fillLogLines(log.sigterm, values),
    ...fillLogLines(log.progress ? [log.progress.line] : [], { ...values, secondsLeft: drainSeconds }),
    ...(log.healthDuringShutdown ? [log.healthDuringShutdown] : []),
    ...fillLogLines(log.drained, { ...values, secondsLeft: 'N' }),
    ...fillLogLines(log.exit, values),
  ];
}
