/**
 * The lab's scenarios, each derived from the drain model's real plan() for a gateway and model
 * server: the plan itself, and the usual mistakes (no preStop, a preStop shorter than removal, a
 * grace period shorter than preStop + drain, vLLM's default --shutdown-timeout=0, a drain flag shorter than
 * the longest request, a health-check-only gateway with and without the preStop the plan asks for).
 */
import { plan as makePlan, type Plan } from '../model/plan.ts';
import type { Mechanism, ModelServerProfile, Profiles } from '../facts/profiles.ts';
import { gatewayById, modelServerById, type DrainInputs } from '../model/resolve.ts';
import { rolloutOrder } from './kubelet-rules.ts';
import { LAB_MIX, LAB_TPOT_MS } from './load-mix.ts';
import { healthPathsOf, routingFor, shutdownFor, type LabSetup } from './setup.ts';

export interface ScenarioSpec {
  name: string;
  title: string;
  /** One sentence: what is done and what the model says about it. */
  summary: string;
  /** The scenario only makes sense for this detection mechanism (its first gateway is the default). */
  onlyMechanism?: Mechanism;
  /**
   * The scenario only makes sense for model servers whose profile fits (the first that fits is the default):
   * `fits` reads the profile, `needs` says in words what it needs.
   */
  onlyModelServers?: { fits: (server: ModelServerProfile) => boolean; needs: string };
  /** The scenario sets the model server's drain flag, so it needs a server whose profile has one. */
  needsDrainFlag?: boolean;
}

/** Every scenario, in report order. */
export const SCENARIOS: readonly ScenarioSpec[] = [
  {
    name: 'recommended',
    title: 'The plan',
    summary:
      'The settings the generator writes for this gateway and model server (for a health-check-only gateway, with a preStop that first fails the health check).',
  },
  {
    name: 'no-prestop',
    title: 'No preStop',
    summary: 'The plan without its preStop sleep: SIGTERM comes while the gateway still routes to the pod.',
  },
  {
    name: 'short-prestop',
    title: 'preStop shorter than removal',
    summary:
      'A preStop half as long as the removal p99: the pod stops accepting before the gateway stops routing to it.',
  },
  {
    name: 'short-grace',
    title: 'Grace shorter than preStop + drain',
    summary:
      'terminationGracePeriodSeconds leaves 5 s after the preStop instead of the drain: SIGKILL cuts long streams.',
  },
  {
    name: 'vllm-abort',
    title: 'vLLM with --shutdown-timeout=0',
    onlyModelServers: {
      fits: (server) => server.drain.kind === 'flag' && server.drain.zeroAborts === true,
      needs: 'a drain flag whose 0 aborts',
    },
    summary: "The plan with vLLM's default --shutdown-timeout=0, which aborts every running request at SIGTERM.",
  },
  {
    name: 'short-drain',
    title: 'Drain flag shorter than the longest request',
    needsDrainFlag: true,
    summary:
      "The plan with the model server's drain flag at 5 s: what still runs 5 s after SIGTERM is ended, aborted by vLLM, cut by the servers that stop or exit (TGI's launcher kills its web server; Triton's one --exit-timeout-secs budget runs out).",
  },
  {
    name: 'idle-connection',
    title: 'Triton with an idle pooled connection',
    onlyModelServers: {
      fits: (server) => server.drain.waitsFor === 'connections',
      needs: 'a drain that waits for open connections',
    },
    summary:
      'The plan, with the gateway holding one idle keep-alive connection to the pod, as a connection pool does: Triton waits for open connections out of its one --exit-timeout-secs budget, so the pod stays up for the whole budget although no request is lost.',
  },
  {
    name: 'hc-no-prestop',
    title: 'Health checks only, no preStop',
    onlyMechanism: 'health-check',
    summary: 'A load balancer that only health-checks, and no preStop: requests are refused until the checks fail.',
  },
  {
    name: 'hc-sleep-only',
    title: 'Health checks only, preStop sleep alone',
    onlyMechanism: 'health-check',
    summary:
      "The plan's preStop sleep without failing the health check: the pod passes checks while it sleeps, so the refusals only move to after SIGTERM.",
  },
  {
    name: 'rolling',
    title: 'Rolling update with the plan',
    summary:
      "The plan during a rolling update: a replacement pod starts before or after the old one goes, per the plan's strategy.",
  },
];

export function scenarioByName(name: string): ScenarioSpec | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

/**
 * The drain-model inputs for the lab's workload: its longest request is 300 tokens × 100 ms with
 * no prefill overhead (30 model seconds), so the plan's drain covers the lab's mix. Given inputs win.
 */
export function labRawInputs(
  given: Record<string, string>,
  gateway: string,
  modelServer: string,
): Record<string, unknown> {
  const longest = Math.max(...LAB_MIX.map((m) => m.maxTokens));
  const workload =
    given['max-request-seconds'] !== undefined
      ? {}
      : { 'max-output-tokens': String(longest), 'tpot-ms': String(LAB_TPOT_MS), 'prefill-overhead-percent': '0' };
  return { ...workload, ...given, gateway, 'model-server': modelServer };
}

/** Derive the setup of a scenario from resolved inputs and the plan the model gives for them. */
export function deriveSetup(
  spec: ScenarioSpec,
  inputs: DrainInputs,
  profiles: Profiles,
  planned: Plan = makePlan(inputs, profiles),
): LabSetup {
  const gateway = gatewayById(profiles, inputs.gateway);
  const server = modelServerById(profiles, inputs.modelServer);
  const hcFacts = gateway.healthCheck;
  const healthCheck = {
    intervalSeconds: inputs.healthCheckIntervalSeconds ?? hcFacts?.intervalSeconds ?? 5,
    threshold: inputs.healthCheckUnhealthyThreshold ?? hcFacts?.unhealthyThreshold ?? 2,
    timeoutSeconds: inputs.healthCheckTimeoutSeconds ?? hcFacts?.timeoutSeconds ?? 5,
  };
  const healthPaths = healthPathsOf(server);
  const routing = routingFor(gateway, planned, healthPaths[0], healthCheck);
  const setup: LabSetup = {
    scenario: spec.name,
    proxy: 'haproxy',
    gateway: gateway.id,
    modelServer: server.id,
    ...routing,
    gatewayDrainingSeconds: routing.pushSeconds === null ? null : planned.gatewayDrainingSeconds,
    planRemovalSeconds: planned.removalSeconds,
    preStopSeconds: planned.preStopSeconds,
    preStopFailsHealth: routing.mechanism === 'health-check',
    graceSeconds: planned.terminationGracePeriodSeconds,
    shutdown: shutdownFor(server, planned),
    rolling: null,
    idleConnections: 0,
    healthPaths,
    plan: { drainFlag: planned.drainFlag ? `${planned.drainFlag.flag}=${planned.drainFlag.seconds}` : null },
    changes: [],
  };
  if (setup.preStopFailsHealth) {
    setup.changes.push(
      `the preStop hook makes ${routing.checks!.path} answer 503 before it sleeps ${planned.preStopSeconds} s, and the server keeps serving until SIGTERM`,
    );
  }
  applyScenario(spec.name, setup, planned, server);
  return setup;
}

/** The number of model seconds short-grace leaves between the preStop's end and SIGKILL. */
const SHORT_GRACE_DRAIN_SECONDS = 5;

/** The drain flag's value in short-drain, in model seconds. */
const SHORT_DRAIN_SECONDS = 5;

function applyScenario(name: string, setup: LabSetup, planned: Plan, server: ModelServerProfile): void {
  switch (name) {
    case 'recommended':
      return;
    case 'no-prestop':
    case 'hc-no-prestop':
      setup.preStopSeconds = 0;
      setup.preStopFailsHealth = false;
      setup.changes = [`no preStop (the plan sleeps ${planned.preStopSeconds} s)`];
      return;
    case 'short-prestop':
      setup.preStopSeconds = Math.floor(planned.removalSeconds / 2);
      setup.changes.push(
        `preStop ${setup.preStopSeconds} s, half the ${planned.removalSeconds} s removal p99 (the plan sleeps ${planned.preStopSeconds} s)`,
      );
      return;
    case 'short-grace':
      setup.graceSeconds = planned.preStopSeconds + SHORT_GRACE_DRAIN_SECONDS;
      setup.changes.push(
        `terminationGracePeriodSeconds ${setup.graceSeconds} s, ${SHORT_GRACE_DRAIN_SECONDS} s after the preStop (the plan gives ${planned.terminationGracePeriodSeconds} s)`,
      );
      return;
    case 'vllm-abort':
      setup.shutdown = { ...setup.shutdown, mode: 'abort', boundSeconds: 0, afterBound: 'aborted' };
      setup.changes.push(
        `${server.drain.flag}=0, ${server.name}'s default (the plan sets ${setup.plan.drainFlag ?? 'a drain'})`,
      );
      return;
    case 'short-drain': {
      const flag = server.drain.flag;
      if (server.drain.kind !== 'flag' || !flag) throw new Error(`${server.id} has no drain flag`);
      setup.shutdown = { ...setup.shutdown, mode: 'drain', boundSeconds: SHORT_DRAIN_SECONDS };
      setup.changes.push(
        `${flag}=${SHORT_DRAIN_SECONDS} (the plan sets ${setup.plan.drainFlag ?? `none, so the server uses its default of ${server.drain.defaultSeconds ?? 0} s`})`,
      );
      return;
    }
    case 'idle-connection':
      setup.idleConnections = 1;
      setup.changes.push('the gateway holds one idle keep-alive connection to the pod from before the deletion');
      return;
    case 'hc-sleep-only':
      setup.preStopFailsHealth = false;
      setup.changes = [
        `the preStop only sleeps ${planned.preStopSeconds} s; the health check keeps passing until SIGTERM`,
      ];
      return;
    case 'rolling':
      setup.rolling = rolloutOrder(planned.strategy);
      setup.changes.push(
        setup.rolling === 'surge-first'
          ? 'rolling update: the replacement starts and becomes ready before the old pod is deleted (maxSurge 1)'
          : 'rolling update: the replacement starts once the old pod has exited (maxSurge 0, maxUnavailable 1)',
      );
      return;
    default:
      throw new Error(`unknown scenario ${name}`);
  }
}
