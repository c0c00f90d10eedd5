/** What a `hitless verify` run is asked to do, as the CLI parsed it from its flags (src/cli/verify-options.ts). */
import type { RestartTarget } from './kubectl.ts';

/** Which OpenAI-compatible API to call. */
export type Api = 'completions' | 'chat';

/** A checked `hitless verify` invocation. */
export interface VerifyOptions {
  mode: 'run' | 'merge' | 'emit-job' | 'help';
  url: URL | null;
  api: Api;
  model: string;
  ratePerSecond: number;
  concurrency: number;
  /** Null with --restart and no --duration: the rollout decides. */
  durationSeconds: number | null;
  maxTokens: number;
  prompt: string;
  /** Header name → value. Never printed or saved. */
  headers: Record<string, string>;
  timeoutSeconds: number;
  idHeader: string | null;
  format: 'text' | 'json';
  reportFile: string | null;
  quiet: boolean;
  /** Exit 0 even when requests were lost (the emitted Job's shards: the report says what was lost). */
  exitZero: boolean;
  restart: (RestartTarget & { warmupSeconds: number; rolloutTimeoutSeconds: number }) | null;
  job: { image: string; shards: number; name: string; namespace: string; headerSecret: string | null } | null;
  mergeFiles: string[];
}
