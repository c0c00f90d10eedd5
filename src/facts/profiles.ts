/**
 * Gateway and model-server profiles: the facts the model needs, each with its source.
 * The data lives in `content/gateways/*.yaml` and `content/model-servers/*.yaml`; this module
 * validates already-parsed data (read-gateway.ts, read-model-server.ts) and stays free of file access so that
 * the browser can use it too.
 */
import type { RequestDefaults } from './read-request-defaults.ts';
import type { DeployFacts } from './read-model-server-deploy.ts';
import type { PodSidecarFact } from './read-gateway-sidecar.ts';
import type { RouteTimeoutFact } from './read-gateway-route.ts';

/** How a number is known: written down by the project, measured by someone, or guessed. */
export type Basis = 'documented' | 'observed' | 'estimate' | 'example';

/**
 * A public source a profile cites, with what it was checked against and when: `at` names the release tag, commit or
 * documentation version that was read (`vLLM v0.18.0 docs`, `TGI v3.3.7`, `main at 055e47c2`, `PR, merged`), and
 * `checked` is the date (YYYY-MM-DD) someone last read it for the facts that cite it.
 */
export interface Source {
  id: string;
  title: string;
  url: string;
  at: string;
  checked: string;
}

/** The releases of a product a fact holds for: `since` inclusive, `until` exclusive (see `releaseInRange`). */
export interface ReleaseRange {
  since?: string;
  until?: string;
}

/** What a per-release model-server fact is about. */
export const RELEASE_FACT_TOPICS = [
  'drain-flag',
  'in-flight',
  'new-requests',
  'probes',
  'entrypoint',
  'shutdown-log',
] as const;

/** One topic of the per-release model-server facts. */
export type ReleaseFactTopic = (typeof RELEASE_FACT_TOPICS)[number];

/**
 * A model-server fact for a range of releases: the drain flag and its default, what happens to in-flight and new
 * requests on SIGTERM, the probe endpoints and what they answer while draining, the entrypoint, the log lines in
 * order. It has `since` and/or `until`; where no bound is known, `rangeNote` says so plainly.
 */
export interface ReleaseFact extends ReleaseRange {
  topic: ReleaseFactTopic;
  says: string;
  /** For `shutdown-log`: the lines, in the order the server prints them (`{drainSeconds}` is filled in). */
  lines?: string[];
  rangeNote?: string;
  sources: string[];
}

/** How a terminating pod stops getting new requests at a gateway. */
export type Mechanism = 'epp-only' | 'endpoint-view' | 'health-check';

/**
 * What a gateway setting is about: how fast the gateway notices a gone pod (`detection`), how it treats
 * requests to a backend that is leaving (`backend`), or how its own proxy pods drain on their rollout (`own-pods`).
 */
export type KnobRole = 'detection' | 'backend' | 'own-pods';

/** A drain-relevant setting that the gateway itself has. */
export interface GatewayKnob {
  name: string;
  default: string;
  effect: string;
  role: KnobRole;
  /** For a default that differs between releases: the product (`Envoy Gateway`) and the releases it holds for. */
  holdsFor?: ReleaseRange & { of: string };
  sources: string[];
}

/** How the gateway notices a terminating pod at its default settings, in words, with sources. */
export interface DetectionFact {
  summary: string;
  sources: string[];
}

/** Something the public sources do not say (`not-found`) or say two ways (`conflict`). */
export interface SourceGap {
  kind: 'not-found' | 'conflict';
  topic: string;
  detail: string;
  sources: string[];
}

/** A gateway setting in seconds that the plan sizes (a request timeout, a connection-draining timeout). */
export interface GatewaySecondsSetting {
  /** Where it is set, e.g. `GCPBackendPolicy spec.default.timeoutSec`. */
  setting: string;
  defaultSeconds: number;
  maxSeconds: number;
  /**
   * The least value Hitless sets, when a source gives one above the gateway's default (GIE's GKE example sets a
   * 300 s request timeout): the plan never goes below it. At least `defaultSeconds`, at most `maxSeconds`.
   */
  floorSeconds?: number;
  /** With `floorSeconds`: where the floor comes from, a few words for the derivation and YAML comment. */
  floorReason?: string;
  /** With `floorSeconds`: why Hitless keeps it, in a sentence or two. Its sources are in `sources`. */
  floorExplanation?: string;
  sources: string[];
}

/**
 * The values a manifest template may name, as a whole string scalar `${value}`: the pool's name, namespace and
 * port, the model server's readiness path, and the plan's gateway settings.
 */
export const TEMPLATE_VALUES = [
  'name',
  'namespace',
  'port',
  'readinessPath',
  'gatewayRequestTimeoutSeconds',
  'gatewayDrainingSeconds',
] as const;

/** One value a manifest template may name. */
export type TemplateValue = (typeof TEMPLATE_VALUES)[number];

/** A Kubernetes object a gateway needs beside the Deployment and InferencePool, as a template. */
export interface ExtraManifest {
  id: string;
  /** The object's kind, for headings and tables (the template's `kind`). */
  kind: string;
  /** One sentence: why the gateway needs it; also the document's header comment. */
  purpose: string;
  sources: string[];
  /** The object, with `${value}` strings where inputs or plan numbers go. */
  manifest: Record<string, unknown>;
  /** Comments by dotted path (`spec.default.checkIntervalSec`), for values whose reason is a fact. */
  comments: Record<string, string>;
}

/** A value a number in a profile stands for, with how it is known. */
export interface RemovalFact {
  /** Absent for profiles whose removal comes from the health-check formula. */
  seconds?: number;
  basis: Basis;
  explanation: string;
  howToMeasure: string;
  sources: string[];
}

/** Health-check detection: removal = interval × threshold + timeout + propagation. */
export interface HealthCheckFact {
  intervalSeconds: number;
  unhealthyThreshold: number;
  timeoutSeconds: number;
  propagationSeconds: number;
  basis: Basis;
  explanation: string;
  sources: string[];
}

/** One gateway implementation. */
export interface GatewayProfile {
  id: string;
  name: string;
  order: number;
  summary: string;
  gatewayClassNames: string[];
  /** What a reader should know about `gatewayClassNames`, e.g. that the class name is the user's choice. */
  gatewayClassNote?: string;
  mechanism: Mechanism;
  mechanismDetail: string;
  /** Where `mechanismDetail` comes from. */
  mechanismSources: string[];
  failOpenNote?: string;
  detection: DetectionFact;
  removal: RemovalFact;
  healthCheck?: HealthCheckFact;
  knobs: GatewayKnob[];
  /** The gateway's own per-request timeout, when the manifests set it. */
  requestTimeout?: GatewaySecondsSetting;
  /** The gateway's connection-draining timeout for a removed endpoint, when the manifests set it. */
  connectionDraining?: GatewaySecondsSetting;
  extraManifests: ExtraManifest[];
  /** For a gateway whose proxy can run in the model-server pod: what keeps it alive through the drain. */
  podSidecar?: PodSidecarFact;
  /** What the gateway does with an HTTPRoute's timeouts.request, and its timeout without one. */
  routeTimeout?: RouteTimeoutFact;
  gaps: SourceGap[];
  status: string;
  /** Where `status` comes from. */
  statusSources: string[];
  sources: Source[];
  /** The latest `checked` date of its sources. */
  lastChecked: string;
}

/** How a model server handles SIGTERM. */
export type DrainKind = 'flag' | 'unbounded' | 'fixed' | 'none';

/**
 * A way a model server is started besides its `command`: a binary with an optional subcommand (`vllm serve`,
 * `text-generation-launcher`) or a Python module (`python3 -m M`). The checker edits a server's flags only in an
 * invocation it finds by these.
 */
export interface EntryPoint {
  module?: string;
  binary?: string;
  subcommand?: string;
  /** The source that shows this entry point exists at the release read. */
  sources: string[];
}

/** A model server's SIGTERM behaviour and drain setting. */
export interface DrainFact {
  kind: DrainKind;
  /** The flag that bounds the drain, for kind `flag`. */
  flag?: string;
  /** The flag's default in seconds. */
  defaultSeconds?: number;
  /** True when the default (0) aborts in-flight requests instead of draining. */
  zeroAborts?: boolean;
  /** The built-in bound for kind `fixed`. */
  fixedSeconds?: number;
  /** The first version with the flag, when known. */
  minVersion?: string;
  /** How `minVersion` is known, when it is not verified, as a short parenthetical (`per llm-d #927; not verified`). */
  minVersionNote?: string;
  /**
   * For kind `fixed`: who gives whom the fixed time, as a clause that reads after "its" or the server's name
   * with "'s" (`launcher gives the web server`).
   */
  fixedScope?: string;
  /**
   * What about the SIGTERM behaviour is not verified, as a short clause; shown wherever a page, warning or
   * manifest comment states that behaviour in brief.
   */
  caveat?: string;
  summary: string;
  whileDraining: string;
  sources: string[];
}

/** One probe of the model-server container. */
export interface ProbeFact {
  /** HTTP path on the `http` port; absent means a TCP check on it. */
  path?: string;
  periodSeconds: number;
  failureThreshold?: number;
  timeoutSeconds: number;
}

/** How the probe periods, thresholds and timeouts are known, and how to check them. */
export interface ProbeTiming {
  basis: Basis;
  explanation: string;
  sources: string[];
}

/** One model server. */
export interface ModelServerProfile {
  id: string;
  name: string;
  order: number;
  summary: string;
  engineType: string;
  image: string;
  /**
   * How an image tag names a release (`tagPattern`, whose first group is the release) and the release the preset
   * `image` runs (`pinned`: read from its tag, or given in the data where the tag names none). See `releases.ts`.
   */
  release: { tagPattern: RegExp; pinned?: string };
  command?: string[];
  /** Entry points other than `command` (content/model-servers/*.yaml `entryPoints`); empty when there are none. */
  entryPoints: EntryPoint[];
  /** Arguments; `{model}` and `{port}` are replaced by validated inputs. */
  args: string[];
  drain: DrainFact;
  probes: {
    startup: ProbeFact;
    readiness: ProbeFact;
    liveness: ProbeFact;
    explanation: string;
    sources: string[];
    /** Where the periods, thresholds and timeouts come from (the paths are covered by `sources`). */
    timing: ProbeTiming;
  };
  shutdownLog: string[];
  /** Which releases print `shutdownLog`, when that differs from the preset image or is not verified. */
  shutdownLogNote?: string;
  versionNotes: string;
  /** The per-release facts (the ledger), in data order. */
  facts: ReleaseFact[];
  /** What the Deployment needs for the server to start and use its GPUs (`read-model-server-deploy.ts`). */
  deploy: DeployFacts;
  sources: Source[];
  /** The latest `checked` date of its sources. */
  lastChecked: string;
}

/** All profiles, keyed by id and sorted for display, and the sourced request defaults. */
export interface Profiles {
  gateways: GatewayProfile[];
  modelServers: ModelServerProfile[];
  /** content/request-defaults.yaml (read-request-defaults.ts). */
  requestDefaults: RequestDefaults;
}

/** Put profiles in display order and check that ids are unique. */
export function collectProfiles(
  gateways: GatewayProfile[],
  modelServers: ModelServerProfile[],
  requestDefaults: RequestDefaults,
): Profiles {
  for (const [kind, list] of [
    ['gateway', gateways],
    ['model-server', modelServers],
  ] as const) {
    const seen = new Set<string>();
    for (const p of list) {
      if (seen.has(p.id)) throw new Error(`two ${kind} profiles have the id "${p.id}"`);
      seen.add(p.id);
    }
  }
  const byOrder = <T extends { order: number; id: string }>(a: T, b: T) =>
    a.order - b.order || a.id.localeCompare(b.id);
  return { gateways: [...gateways].sort(byOrder), modelServers: [...modelServers].sort(byOrder), requestDefaults };
}
