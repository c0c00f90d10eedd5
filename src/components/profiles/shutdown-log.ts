/**
 * A model server's shutdown log lines as a reader would see them for a plan: `{drainSeconds}` in a profile's
 * line stands for the drain the plan sets. The model-server pages and the verify-a-rollout guide both use this.
 */
import type { ModelServerProfile } from '../../facts/profiles.ts';

/** The profile's shutdown log lines with `{drainSeconds}` replaced by the plan's drain. */
export function shutdownLogFor(server: ModelServerProfile, drainSeconds: number): string[] {
  return server.shutdownLog.map((line) => line.replaceAll('{drainSeconds}', String(drainSeconds)));
}
