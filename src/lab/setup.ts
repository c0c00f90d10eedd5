/**
 * What one lab run applies: the gateway's routing (push removal and/or health checks), the pod's
 * preStop and grace period, and the stand-in's SIGTERM behaviour. All times are model seconds.
 * scenarios.ts derives a setup from the drain model's plan; this file turns profiles into setups.
 */
import type { Plan } from '../model/plan.ts';
import type { GatewayProfile, Mechanism, ModelServerProfile } from '../facts/profiles.ts';
import type { ShutdownLogLines } from '../facts/schemas/model-server-log.ts';
import type { RolloutOrder } from './kubelet-rules.ts';
import type { CheckSettings } from './haproxy-config.ts';
import type { ProxyKind } from './proxy.ts';

/** How the stand-in model server reacts to SIGTERM. */
export interface ServerShutdown {
  /** drain: stop taking new requests and let running ones finish; abort: end running ones at once; exit: die at once. */
  mode: 'drain' | 'abort' | 'exit';
  /** Longest drain, or null for no bound of its own (SGLang). */
  boundSeconds: number | null;
  /** What happens to requests still running when the bound runs out. */
  afterBound: 'aborted' | 'cut';
  /** New requests during the drain: the listener closes (connection refused) or they get a 503. */
  newRequests: 'refuse-connection' | 'answer-503';
  /**
   * What the drain waits for: running requests, or every open HTTP connection (Triton 24.04+ waits for its
   * connections to close, idle keep-alive ones included, out of the same --exit-timeout-secs budget).
   */
  waitsFor: ModelServerProfile['drain']['waitsFor'];
  /** What the health paths answer while draining (vLLM's /health has no draining check: it passes). */
  healthWhileDraining: ModelServerProfile['drain']['healthWhileDraining'];
  /** Model seconds of teardown after the drain before the process exits. */
  teardownSeconds: number;
  /** The log lines the stand-in prints, from the server's data file (none when it has none). */
  log?: ShutdownLogLines;
}

export interface LabSetup {
  scenario: string;
  /** The data plane standing in for the gateway. */
  proxy: ProxyKind;
  gateway: string;
  modelServer: string;
  mechanism: Mechanism;
  /** When the control plane removes the pod from the load balancer (null: only checks notice). */
  pushSeconds: number | null;
  /** The push: the picker stops choosing the pod (drain) or its endpoint is removed (maint); nginx reloads for both. */
  pushState: 'drain' | 'maint';
  checks: CheckSettings | null;
  /**
   * After the push, the gateway lets requests already on the pod run this long, then closes them
   * (a connection-draining timeout such as GKE's drainingTimeoutSec); null: no such limit.
   */
  gatewayDrainingSeconds: number | null;
  /** What the model's removal p99 is for this gateway (the plan's removalSeconds). */
  planRemovalSeconds: number;
  preStopSeconds: number;
  /** The preStop hook first makes the pod's health check fail, then sleeps. */
  preStopFailsHealth: boolean;
  graceSeconds: number;
  shutdown: ServerShutdown;
  rolling: RolloutOrder | null;
  /** Idle keep-alive connections the gateway holds open to the deleted pod, as a connection pool does. */
  idleConnections: number;
  /** The paths the stand-in answers as health checks: the profile's probe paths, readiness first. */
  healthPaths: string[];
  /** The plan's drain flag as it is set (`--shutdown-timeout=45`), for reports. */
  plan: { drainFlag: string | null };
  /** How this setup departs from the plan, in words (empty for the plan itself). */
  changes: string[];
}

/** Model seconds the stand-in spends on teardown after its drain (the plan allows 15). */
export const LAB_TEARDOWN_SECONDS = 2;

/** Model seconds a replacement stand-in takes to "load its model" before /health answers 200. */
export const LAB_STARTUP_SECONDS = 3;

/**
 * GKE's HealthCheckPolicy defaults (5 s interval, 5 s timeout, 2 failures): the checks the lab's
 * endpoint-view gateway runs besides removing the pod from its endpoint list.
 */
const ENDPOINT_VIEW_CHECKS = { intervalSeconds: 5, threshold: 2, timeoutSeconds: 5 };

/** Checks rise after this many passes (HAProxy's default is 2). */
const CHECK_RISE = 2;

/**
 * The stand-in's SIGTERM behaviour for a model-server profile and its drain setting, as the corrected facts say
 * (fact check rows #4, #26, #36-39, #44-45, #53): every server stops taking new connections (for SGLang an
 * assumption, the cautious one: its code shows no path that refuses new requests while it drains); a `flag` server
 * drains for the flag's value (the plan's, else the flag's default); what outlives the bound is aborted with an
 * error event by a server whose zero aborts (vLLM) and cut by the others (TGI's launcher kills its web server,
 * Triton exits once its one --exit-timeout-secs budget is spent); what it waits for and what its health paths
 * answer meanwhile are the profile's `drain.waitsFor` and `drain.healthWhileDraining`.
 * Reads the kind and the flag from the profile, so it works for TGI as `fixed` (90 s) and as `flag`.
 */
export function shutdownFor(server: ModelServerProfile, plan: Pick<Plan, 'drainFlag'>): ServerShutdown {
  const base = {
    teardownSeconds: LAB_TEARDOWN_SECONDS,
    log: server.shutdownLog,
    newRequests: 'refuse-connection' as const,
    waitsFor: server.drain.waitsFor,
    healthWhileDraining: server.drain.healthWhileDraining,
  };
  const drain = server.drain;
  if (drain.kind === 'none') return { ...base, mode: 'exit', boundSeconds: 0, afterBound: 'cut' };
  if (drain.kind === 'unbounded') return { ...base, mode: 'drain', boundSeconds: null, afterBound: 'cut' };
  if (drain.kind === 'fixed') return { ...base, mode: 'drain', boundSeconds: drain.fixedSeconds!, afterBound: 'cut' };
  const seconds = plan.drainFlag?.seconds ?? drain.defaultSeconds ?? 0;
  const afterBound = drain.zeroAborts ? ('aborted' as const) : ('cut' as const);
  if (seconds === 0 && drain.zeroAborts) return { ...base, mode: 'abort', boundSeconds: 0, afterBound };
  return { ...base, mode: 'drain', boundSeconds: seconds, afterBound };
}

/** A profile's probe paths, readiness first, without repeats ('/health' for a profile whose probes are TCP). */
export function healthPathsOf(server: ModelServerProfile): string[] {
  const { readiness, startup, liveness } = server.probes;
  const paths = [readiness.path, startup.path, liveness.path].filter((p) => p !== undefined);
  return paths.length > 0 ? [...new Set(paths)] : ['/health'];
}

/** The load balancer's routing for a gateway's mechanism. */
export function routingFor(
  gateway: GatewayProfile,
  plan: Pick<Plan, 'removalSeconds'>,
  checkPath: string,
  healthCheck: { intervalSeconds: number; threshold: number; timeoutSeconds: number },
): Pick<LabSetup, 'pushSeconds' | 'pushState' | 'checks' | 'mechanism'> {
  const mechanism = gateway.mechanism;
  if (mechanism === 'epp-only') {
    // The gateway sends each request where the Endpoint Picker points; the picker drops the pod
    // when its watch sees the deletion, which the lab models as a push at the removal p99.
    return { mechanism, pushSeconds: plan.removalSeconds, pushState: 'drain', checks: null };
  }
  const c = mechanism === 'endpoint-view' ? ENDPOINT_VIEW_CHECKS : healthCheck;
  return {
    mechanism,
    pushSeconds: mechanism === 'endpoint-view' ? plan.removalSeconds : null,
    pushState: 'maint',
    checks: {
      path: checkPath,
      intervalSeconds: c.intervalSeconds,
      fall: c.threshold,
      rise: CHECK_RISE,
      timeoutSeconds: c.timeoutSeconds,
    },
  };
}
