/**
 * The drain plan's types: what `plan()` returns and the parts it is made of (derivation steps, warnings, capped
 * settings). Kept apart from the code that computes them, so that plan.ts and its helpers (plan-gateway, plan-release,
 * plan-rollout, warnings) can share them without importing each other in a circle.
 */
import type { Basis } from '../facts/profiles.ts';
import type { DrainFlagAt } from '../facts/releases.ts';

/** One step of the derivation: the value, its arithmetic (also the YAML comment) and why. */
export interface DerivationStep {
  field: string;
  value: number | string;
  formula: string;
  why: string;
}

/** One probe as the manifest will carry it. */
export interface PlannedProbe {
  path?: string;
  periodSeconds: number;
  failureThreshold: number;
  timeoutSeconds: number;
}

/** Where the removal p99 came from. */
export type RemovalSource = 'given' | 'profile' | 'health-check';

/** The drain plan: every number the manifest, the pages and the CLI show. */
export interface Plan {
  modelVersion: number;
  gateway: string;
  modelServer: string;
  removalSeconds: number;
  removalSource: RemovalSource;
  removalBasis: Basis | 'given';
  preStopSeconds: number;
  preStopAction: 'sleep' | 'exec' | 'none';
  maxRequestSeconds: number;
  maxRequestDerived: boolean;
  drainSeconds: number;
  unboundedDrain: boolean;
  teardownSeconds: number;
  terminationGracePeriodSeconds: number;
  /** The model server's release the plan is for, or null when it cannot be told (see `plan-release.ts`). */
  modelServerRelease: string | null;
  modelServerReleaseSource: ReleaseSource;
  /** What that release says about the drain flag (`releases.ts`). */
  drainFlagStatus: DrainFlagAt['kind'];
  /**
   * The model server's drain setting, or null when it has no flag or the release predates it. Set for an unknown
   * release too, with a warning (see `plan-release.ts` for why).
   */
  drainFlag: { flag: string; seconds: number } | null;
  /** The gateway's own request timeout the manifest sets, or null when its profile has none. */
  gatewayRequestTimeoutSeconds: number | null;
  /**
   * The least request timeout that covers the longest request with the drain headroom, or null when the profile
   * has no request timeout. The manifest's value is this, raised to the gateway's floor or default, or capped.
   */
  gatewayRequestTimeoutNeededSeconds: number | null;
  /** The gateway's connection-draining timeout the manifest sets, or null when its profile has none. */
  gatewayDrainingSeconds: number | null;
  /** Gateway settings held at their maximum, below what the plan wanted. */
  cappedGatewaySettings: CappedSetting[];
  strategy: { maxSurge: number; maxUnavailable: number };
  progressDeadlineSeconds: number;
  /** Rollout steps: ⌈replicas / max(maxSurge, maxUnavailable)⌉. */
  rolloutSteps: number;
  /** Worst case for one step: model load + grace (a terminating pod's GPU is free only when it exits). */
  rolloutStepSeconds: number;
  /** Worst case for the whole rollout: steps × step seconds. */
  rolloutSeconds: number;
  /** Replicas that serve during a step (replicas − maxUnavailable), and that as a whole percent, rounded down. */
  rolloutServingReplicas: number;
  rolloutCapacityPercent: number;
  /** The PodDisruptionBudget the manifest carries, or null when the input turns it off. */
  podDisruptionBudget: { maxUnavailable: number } | null;
  probes: { startup: PlannedProbe; readiness: PlannedProbe; liveness: PlannedProbe };
  warnings: Warning[];
  derivation: DerivationStep[];
}

/** A gateway setting that could not be as large as the plan wanted. */
export interface CappedSetting {
  setting: string;
  wantedSeconds: number;
  maxSeconds: number;
}

/** Where the plan's model-server release came from. */
export type ReleaseSource = 'given' | 'image' | 'image-name' | 'pinned' | 'unknown';

/** The codes of the things the reader should know about the plan (see warnings.ts), in no particular order. */
export const WARNING_CODES = [
  'removal-estimate',
  'tpot-default-other-model',
  'removal-example',
  'health-check-only',
  'fail-open-endpoint-view',
  'no-prestop',
  'exec-sleep',
  'drain-flag-min-version',
  'drain-flag-too-old',
  'drain-flag-release-unknown',
  'drain-fixed-shorter',
  'drain-unbounded-server',
  'no-drain',
  'unbounded-drain-cost',
  'drain-cap-below-request',
  'liveness-faster-than-readiness',
  'single-replica-outage',
  'gateway-setting-capped',
  'grace-exceeds-autoscaler',
  'route-timeout-default',
  'route-timeout-unsupported',
] as const;

/** The severity and text of one thing the reader should know about the plan (see warnings.ts). */
export type WarningCode = (typeof WARNING_CODES)[number];

/**
 * `error`: the manifest as emitted drops requests or will not do what the plan says (a release without the drain
 * flag); `warning`: a margin or a fact is missing and requests may be cut; `info`: something to know. The checker
 * passes these on with the same severity; `hitless generate` prints errors and warnings on stderr.
 */
export type WarningSeverity = 'error' | 'warning' | 'info';

/** A page of the site that says how to act on a warning (a site path, and the words of the link). */
export interface WarningLink {
  path: string;
  label: string;
}

export interface Warning {
  code: WarningCode;
  severity: WarningSeverity;
  message: string;
  /** Where the site says how to measure or fix what the warning is about. */
  see?: WarningLink;
}
