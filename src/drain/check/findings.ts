/**
 * What the checker reports. Every finding has a stable `code` (tests, CI and the page rely on it), a
 * severity, the object and path it is about, what will happen during a rollout, and, where the checker
 * can say, the fix as a value or a YAML snippet with the edits that apply it.
 */
import type { WarningCode } from '../warnings.ts';
import type { Edit } from './edit.ts';

/** `error`: a request the settings say can happen is dropped or the rollout breaks. `warning`: a margin
 * the drain model adds is missing, or a rollout degrades. `info`: something to know or to check by hand. */
export type Severity = 'error' | 'warning' | 'info';

/** The checker's own codes; plan warnings keep their codes from `warnings.ts`. */
export type CheckCode =
  | 'prestop-missing'
  | 'prestop-too-short'
  | 'prestop-exceeds-grace'
  | 'prestop-sleep-unsupported'
  | 'prestop-unreadable'
  | 'grace-too-short'
  | 'drain-aborts-in-flight'
  | 'drain-flag-too-short'
  | 'drain-flag-exceeds-grace'
  | 'readiness-missing'
  | 'readiness-path-differs'
  | 'liveness-before-readiness'
  | 'startup-missing'
  | 'startup-too-short'
  | 'progress-deadline-too-short'
  | 'surge-without-spare-gpus'
  | 'strategy-recreate'
  | 'lws-worker-grace-shorter'
  | 'pool-selector-mismatch'
  | 'pool-port-not-exposed'
  | 'pool-api-removed'
  | 'gateway-timeout-too-short'
  | 'gateway-draining-too-short'
  | 'gateway-policy-missing'
  | 'model-server-unknown'
  | 'workload-skipped'
  | 'value-unreadable'
  | 'unknown-kind'
  | 'no-pool'
  | 'no-workload'
  | 'server-invocation-unknown'
  | 'shell-swallows-sigterm'
  | 'value-rejected'
  | 'serving-kind-unread'
  | 'lws-worker-prestop-missing'
  | 'value-out-of-range'
  | 'readiness-too-tight'
  | 'policy-target-elsewhere';

export type FindingCode = CheckCode | WarningCode;

/** A fix: what to write (a value or a YAML snippet), and the edits that write it. */
export interface Fix {
  text: string;
  edits: Edit[];
}

/** One finding about the manifest. */
export interface Finding {
  code: FindingCode;
  severity: Severity;
  /** `Kind/name` of the object, or '' for notes about the settings. */
  object: string;
  /** YAML document number, from 1. */
  document?: number;
  /** Path inside the document, as `spec.template.spec.containers[0].lifecycle`; '' for notes about the settings. */
  path: string;
  /** 1-based line of the path (or of its nearest part that exists). */
  line?: number;
  /** What will happen during a rollout, in a sentence or two. */
  message: string;
  fix?: Fix;
  /** `applied`: the fixed manifest carries the fix. `manual`: the fix (or the message) says what to do by hand. */
  remedy: 'applied' | 'manual';
  /** Set when the workload's `hitless.dev/ignore` annotation names this code: the reason given there. */
  suppressed?: string;
}

/** One rule: its code, its severity (and when that changes) and what it looks for. */
export interface Rule {
  code: CheckCode;
  severity: string;
  checks: string;
}

/** Every rule of the checker, in report order. The guide page lists them from here. */
export const RULES: readonly Rule[] = [
  { code: 'prestop-missing', severity: 'error', checks: 'The model-server container has no preStop hook, while the plan sleeps before SIGTERM.' },
  { code: 'prestop-too-short', severity: 'error below the removal p99; warning below removal + margin', checks: 'The preStop sleep ends before every gateway has stopped routing to the pod.' },
  { code: 'prestop-exceeds-grace', severity: 'error', checks: 'The preStop sleep is longer than terminationGracePeriodSeconds.' },
  { code: 'prestop-sleep-unsupported', severity: 'error', checks: 'The sleep action on a Kubernetes version that does not enable it (below 1.30: alpha and off in 1.29, absent before).' },
  { code: 'prestop-unreadable', severity: 'info', checks: 'A preStop hook that is not a sleep, so its length is unknown.' },
  { code: 'grace-too-short', severity: 'error below preStop + longest request; warning below preStop + drain + teardown', checks: 'terminationGracePeriodSeconds leaves too little time after the preStop sleep.' },
  { code: 'drain-aborts-in-flight', severity: 'error', checks: 'A server whose drain flag defaults to aborting (vLLM --shutdown-timeout) runs without it, or with 0.' },
  { code: 'drain-flag-too-short', severity: 'error below the longest request; warning below the drain budget', checks: 'The server\u2019s drain flag (or its default) ends the drain early.' },
  { code: 'drain-flag-exceeds-grace', severity: 'warning', checks: 'The drain flag is longer than the grace period leaves after the preStop sleep and teardown.' },
  { code: 'readiness-missing', severity: 'error without a startup probe; warning with one', checks: 'The model-server container has no readiness probe.' },
  { code: 'readiness-path-differs', severity: 'info', checks: 'A readiness path other than the model-server profile\u2019s, with the profile\u2019s reasons.' },
  { code: 'liveness-before-readiness', severity: 'warning', checks: 'Liveness gives up (period × threshold) before readiness does.' },
  { code: 'startup-missing', severity: 'error when liveness would restart a loading model; info otherwise', checks: 'No startup probe for the model load.' },
  { code: 'startup-too-short', severity: 'error', checks: 'The startup probe gives up before the model load time.' },
  { code: 'progress-deadline-too-short', severity: 'warning', checks: 'progressDeadlineSeconds is below grace + model load (and the 600 s floor).' },
  { code: 'surge-without-spare-gpus', severity: 'error when maxUnavailable is 0; warning otherwise', checks: 'maxSurge above 0 while the cluster has no spare GPUs for an extra pod.' },
  { code: 'strategy-recreate', severity: 'error', checks: 'The Recreate strategy removes every pod before new ones load.' },
  { code: 'lws-worker-grace-shorter', severity: 'warning', checks: 'A LeaderWorkerSet\u2019s workers get SIGKILL before the leader\u2019s drain ends.' },
  { code: 'lws-worker-prestop-missing', severity: 'warning', checks: 'A LeaderWorkerSet worker with no preStop hook exits at SIGTERM while the leader drains, taking the group down.' },
  { code: 'value-out-of-range', severity: 'warning', checks: 'A value the manifest states that is outside the range the drain model reads (readiness failureThreshold 600), so the check could not use it.' },
  { code: 'readiness-too-tight', severity: 'warning', checks: 'A readiness probe every second with a one-second timeout: a busy server misses it and leaves the pool mid-load.' },
  { code: 'pool-selector-mismatch', severity: 'error', checks: 'An InferencePool selector that matches no pod template in the manifest.' },
  { code: 'pool-port-not-exposed', severity: 'error when the container lists other ports; warning when it lists none', checks: 'An InferencePool targetPort the model-server container does not expose.' },
  { code: 'pool-api-removed', severity: 'info', checks: 'An InferencePool in the removed inference.networking.x-k8s.io API.' },
  { code: 'gateway-timeout-too-short', severity: 'error below the longest request; warning below the plan\u2019s gateway timeout', checks: 'A gateway policy or HTTPRoute timeout that cuts long responses.' },
  { code: 'gateway-draining-too-short', severity: 'warning', checks: 'A gateway connection-draining timeout shorter than the pod\u2019s preStop + drain.' },
  { code: 'gateway-policy-missing', severity: 'warning; info when the gateway is only the checker\u2019s default', checks: 'No policy of the kind the gateway needs (GKE\u2019s GCPBackendPolicy) targets the InferencePool, so its 30 s response timeout and 0 s connection draining apply; the fix is the generator\u2019s policy.' },
  { code: 'model-server-unknown', severity: 'info', checks: 'A workload with GPUs or a pool whose model server the checker cannot tell.' },
  { code: 'workload-skipped', severity: 'info', checks: 'A workload that runs no model server the checker knows.' },
  { code: 'value-unreadable', severity: 'info', checks: 'A drain field that is set to something other than a whole number.' },
  { code: 'unknown-kind', severity: 'info', checks: 'Objects of kinds the checker does not read (ignored).' },
  { code: 'no-pool', severity: 'info', checks: 'Model-server workloads without an InferencePool in the input.' },
  { code: 'no-workload', severity: 'info', checks: 'An InferencePool without a workload in the input.' },
  { code: 'server-invocation-unknown', severity: 'warning when the server aborts without its drain flag; info otherwise', checks: 'The command that starts the model server cannot be found with certainty, so its drain flag is a manual fix.' },
  { code: 'value-rejected', severity: 'error', checks: 'A whole-number field the API server refuses as written (a quoted number, a negative count, a fraction).' },
  { code: 'serving-kind-unread', severity: 'warning', checks: 'A model-serving kind the checker cannot read (production-stack VLLMRuntime, KServe InferenceService, KubeRay RayService), named so that the run does not read as a pass.' },
  { code: 'shell-swallows-sigterm', severity: 'error', checks: 'A shell is PID 1 and starts the model server without exec, so SIGTERM never reaches the server.' },
];

const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Sort findings by severity, then by document and line, keeping rule order otherwise. */
export function sortFindings(findings: Finding[]): Finding[] {
  return findings
    .map((f, i) => [f, i] as const)
    .sort(([a, i], [b, j]) => ORDER[a.severity] - ORDER[b.severity] || (a.document ?? 0) - (b.document ?? 0) || (a.line ?? 0) - (b.line ?? 0) || i - j)
    .map(([f]) => f);
}

/** Counts by severity. */
export function countFindings(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of findings) counts[f.severity]++;
  return counts;
}

/** "2 errors, 1 warning, 3 notes", or "No findings". */
export function describeCounts(counts: Record<Severity, number>): string {
  const parts: string[] = [];
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (counts.error) parts.push(plural(counts.error, 'error'));
  if (counts.warning) parts.push(plural(counts.warning, 'warning'));
  if (counts.info) parts.push(plural(counts.info, 'note'));
  return parts.length ? parts.join(', ') : 'No findings';
}
