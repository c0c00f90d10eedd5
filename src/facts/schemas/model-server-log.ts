/**
 * A model server's shutdown log (`shutdownLog` in a model-server data file): the lines it prints at each step of a
 * shutdown, with placeholders, the release whose wording and order they follow, and the sources. The model-server
 * page, the verify-a-rollout guide and the lab's stand-in all render these lines; nothing else holds them.
 */
import { z } from 'zod';
import { sourceIds, text, wholeNumber } from './common.ts';

/**
 * A line, or a line printed only while requests still run. Placeholders: `{drainSeconds}` (the drain bound),
 * `{mode}` (drain or abort), `{count}` (what the server waits for, or the requests still running),
 * `{ids}` (the running request ids, quoted and comma-separated), `{secondsLeft}` (whole seconds left of the bound),
 * `{models}` (model versions with requests in flight), `{model}` (the model's name), `{pid}` (the process id). A line the real server does not
 * print starts with "(stand-in)".
 */
const line = z.union([text, z.strictObject({ whileRunning: text })]);
const lines = z.array(line).default(() => []);

/** The lines a model server prints at each step of its shutdown, as the release `follows` prints them. */
export const shutdownLogSchema = z.strictObject({
  /** The release (and files) whose wording and order the lines follow. */
  follows: text,
  /** At SIGTERM. */
  sigterm: lines,
  /** At SIGTERM and then every `everySeconds` while the server waits, while something is left to wait for. */
  progress: z.strictObject({ line: text, everySeconds: wholeNumber(1, 60) }).optional(),
  /** When nothing is left to wait for. */
  drained: lines,
  /** When the drain bound runs out with requests still running. */
  bound: lines,
  /** After the teardown, just before the process exits. */
  exit: lines,
  /** When a health check arrives during the drain. */
  healthDuringShutdown: text.optional(),
  sources: sourceIds,
});

/** One model server's shutdown log lines, by step. */
export type ShutdownLogLines = z.output<typeof shutdownLogSchema>;
