/**
 * Gateway and model-server profiles: the facts the model needs, each with its source.
 * The data lives in `content/gateways/*.yaml` and `content/model-servers/*.yaml`; this module
 * validates already-parsed data and stays free of file access so that the browser can use it too.
 */
import {
  at, failAt, optional, readBoolean, readEnum, readList, readNumber, readObject, readString,
  type DataCursor,
} from './check-data.ts';

/** How a number is known: written down by the project, measured by someone, or guessed. */
export type Basis = 'documented' | 'observed' | 'estimate' | 'example';

/** A public source a profile cites. */
export interface Source {
  id: string;
  title: string;
  url: string;
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
  sources: string[];
}

/**
 * The values a manifest template may name, as a whole string scalar `${value}`: the pool's name, namespace and
 * port, the model server's readiness path, and the plan's gateway settings.
 */
export const TEMPLATE_VALUES = [
  'name', 'namespace', 'port', 'readinessPath', 'gatewayRequestTimeoutSeconds', 'gatewayDrainingSeconds',
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
  mechanism: Mechanism;
  mechanismDetail: string;
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
  gaps: SourceGap[];
  status: string;
  sources: Source[];
  lastChecked: string;
}

/** How a model server handles SIGTERM. */
export type DrainKind = 'flag' | 'unbounded' | 'fixed' | 'none';

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
  command?: string[];
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
  versionNotes: string;
  sources: Source[];
  lastChecked: string;
}

/** All profiles, keyed by id and sorted for display. */
export interface Profiles {
  gateways: GatewayProfile[];
  modelServers: ModelServerProfile[];
}

const ID = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const URL_PATTERN = /^https:\/\/[^\s]+$/;

function readSource(value: unknown, cursor: DataCursor): Source {
  const o = readObject(value, cursor, ['id', 'title', 'url']);
  return {
    id: readString(o.id, at(cursor, 'id'), ID),
    title: readString(o.title, at(cursor, 'title')),
    url: readString(o.url, at(cursor, 'url'), URL_PATTERN),
  };
}

function readSourceIds(value: unknown, cursor: DataCursor): string[] {
  return readList(value, cursor, (item, c) => readString(item, c, ID), 1);
}

/** Check that every `sources:` list in a profile names a source declared in its top-level `sources`. */
function checkSourceRefs(node: unknown, cursor: DataCursor, known: Set<string>): void {
  if (Array.isArray(node)) {
    node.forEach((item, i) => checkSourceRefs(item, at(cursor, i), known));
  } else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'sources' && Array.isArray(value) && value.every((v) => typeof v === 'string')) {
        value.forEach((id, i) => {
          if (!known.has(id)) failAt(at(at(cursor, key), i), `names source "${id}", which the file's sources list does not declare`);
        });
      } else if (key !== 'sources' && key !== 'manifest') {
        checkSourceRefs(value, at(cursor, key), known);
      }
    }
  }
}

function readRemoval(value: unknown, cursor: DataCursor): RemovalFact {
  const o = readObject(value, cursor, ['seconds', 'basis', 'explanation', 'howToMeasure', 'sources']);
  return {
    seconds: optional(o.seconds, at(cursor, 'seconds'), (v, c) => readNumber(v, c, 0, 600)),
    basis: readEnum(o.basis, at(cursor, 'basis'), ['documented', 'observed', 'estimate', 'example'] as const),
    explanation: readString(o.explanation, at(cursor, 'explanation')),
    howToMeasure: readString(o.howToMeasure, at(cursor, 'howToMeasure')),
    sources: readSourceIds(o.sources, at(cursor, 'sources')),
  };
}

function readHealthCheck(value: unknown, cursor: DataCursor): HealthCheckFact {
  const o = readObject(value, cursor, [
    'intervalSeconds', 'unhealthyThreshold', 'timeoutSeconds', 'propagationSeconds', 'basis', 'explanation', 'sources',
  ]);
  return {
    intervalSeconds: readNumber(o.intervalSeconds, at(cursor, 'intervalSeconds'), 1, 300),
    unhealthyThreshold: readNumber(o.unhealthyThreshold, at(cursor, 'unhealthyThreshold'), 1, 20, true),
    timeoutSeconds: readNumber(o.timeoutSeconds, at(cursor, 'timeoutSeconds'), 0, 300),
    propagationSeconds: readNumber(o.propagationSeconds, at(cursor, 'propagationSeconds'), 0, 600),
    basis: readEnum(o.basis, at(cursor, 'basis'), ['documented', 'observed', 'estimate', 'example'] as const),
    explanation: readString(o.explanation, at(cursor, 'explanation')),
    sources: readSourceIds(o.sources, at(cursor, 'sources')),
  };
}

function readKnob(value: unknown, cursor: DataCursor): GatewayKnob {
  const o = readObject(value, cursor, ['name', 'default', 'effect', 'role', 'sources']);
  return {
    name: readString(o.name, at(cursor, 'name')),
    default: readString(o.default, at(cursor, 'default')),
    effect: readString(o.effect, at(cursor, 'effect')),
    role: readEnum(o.role, at(cursor, 'role'), ['detection', 'backend', 'own-pods'] as const),
    sources: readSourceIds(o.sources, at(cursor, 'sources')),
  };
}

function readDetection(value: unknown, cursor: DataCursor): DetectionFact {
  const o = readObject(value, cursor, ['summary', 'sources']);
  return { summary: readString(o.summary, at(cursor, 'summary')), sources: readSourceIds(o.sources, at(cursor, 'sources')) };
}

function readGap(value: unknown, cursor: DataCursor): SourceGap {
  const o = readObject(value, cursor, ['kind', 'topic', 'detail', 'sources']);
  return {
    kind: readEnum(o.kind, at(cursor, 'kind'), ['not-found', 'conflict'] as const),
    topic: readString(o.topic, at(cursor, 'topic')),
    detail: readString(o.detail, at(cursor, 'detail')),
    sources: readList(o.sources ?? [], at(cursor, 'sources'), (v, c) => readString(v, c, ID)),
  };
}

function readSecondsSetting(value: unknown, cursor: DataCursor): GatewaySecondsSetting {
  const o = readObject(value, cursor, ['setting', 'defaultSeconds', 'maxSeconds', 'sources']);
  const setting: GatewaySecondsSetting = {
    setting: readString(o.setting, at(cursor, 'setting')),
    defaultSeconds: readNumber(o.defaultSeconds, at(cursor, 'defaultSeconds'), 0, 2147483647, true),
    maxSeconds: readNumber(o.maxSeconds, at(cursor, 'maxSeconds'), 1, 2147483647, true),
    sources: readSourceIds(o.sources, at(cursor, 'sources')),
  };
  if (setting.defaultSeconds > setting.maxSeconds) failAt(at(cursor, 'defaultSeconds'), `must not exceed maxSeconds (${setting.maxSeconds})`);
  return setting;
}

const TEMPLATE_PLACEHOLDER = /^\$\{([A-Za-z]+)\}$/;

/** Every `${value}` a template names, checked against the known values; other strings must not contain `${`. */
function readTemplateNode(value: unknown, cursor: DataCursor, used: Set<TemplateValue>): void {
  if (typeof value === 'string') {
    const match = TEMPLATE_PLACEHOLDER.exec(value);
    if (match) {
      if (!(TEMPLATE_VALUES as readonly string[]).includes(match[1])) {
        failAt(cursor, `names \${${match[1]}}, which is not a template value (known: ${TEMPLATE_VALUES.join(', ')})`);
      }
      used.add(match[1] as TemplateValue);
    } else if (value.includes('${')) {
      failAt(cursor, 'must be a whole ${value} placeholder or plain text without "${"');
    }
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => readTemplateNode(item, at(cursor, i), used));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) readTemplateNode(item, at(cursor, key), used);
  } else if (typeof value !== 'number' && typeof value !== 'boolean') {
    failAt(cursor, `must be a string, number, boolean, list or mapping, found ${value === null ? 'null' : typeof value}`);
  }
}

/** Whether a dotted path (`spec.targetRef.name`, `items.0`) leads to a value in an object. */
function hasPath(root: unknown, path: string): boolean {
  let node: unknown = root;
  for (const part of path.split('.')) {
    if (Array.isArray(node) && /^\d+$/.test(part)) node = node[Number(part)];
    else if (typeof node === 'object' && node !== null && !Array.isArray(node)) node = (node as Record<string, unknown>)[part];
    else return false;
    if (node === undefined) return false;
  }
  return true;
}

function readExtraManifest(value: unknown, cursor: DataCursor): ExtraManifest & { uses: Set<TemplateValue> } {
  const o = readObject(value, cursor, ['id', 'purpose', 'sources', 'manifest', 'comments']);
  const manifestCursor = at(cursor, 'manifest');
  const manifest = readObject(o.manifest, manifestCursor, ['apiVersion', 'kind', 'metadata', 'spec']);
  readString(manifest.apiVersion, at(manifestCursor, 'apiVersion'), /^[a-z0-9.-]+\/[a-z0-9]+$/);
  const kind = readString(manifest.kind, at(manifestCursor, 'kind'), /^[A-Z][A-Za-z0-9]*$/);
  const metadata = readObject(manifest.metadata, at(manifestCursor, 'metadata'), ['name', 'namespace', 'labels', 'annotations']);
  readString(metadata.name, at(at(manifestCursor, 'metadata'), 'name'));
  const uses = new Set<TemplateValue>();
  readTemplateNode(manifest, manifestCursor, uses);
  const commentsCursor = at(cursor, 'comments');
  const rawComments = o.comments === undefined ? {} : readObject(o.comments, commentsCursor, Object.keys(o.comments ?? {}));
  const comments: Record<string, string> = {};
  for (const [path, text] of Object.entries(rawComments)) {
    if (!hasPath(manifest, path)) failAt(at(commentsCursor, path), 'names no value of the manifest');
    comments[path] = readString(text, at(commentsCursor, path));
  }
  return {
    id: readString(o.id, at(cursor, 'id'), ID),
    kind,
    purpose: readString(o.purpose, at(cursor, 'purpose')),
    sources: readSourceIds(o.sources, at(cursor, 'sources')),
    manifest,
    comments,
    uses,
  };
}

/** Validate one parsed gateway data file. `file` names it in error messages. */
export function readGatewayProfile(data: unknown, file: string): GatewayProfile {
  const root: DataCursor = { file, path: '' };
  const o = readObject(data, root, [
    'id', 'name', 'order', 'summary', 'gatewayClassNames', 'mechanism', 'mechanismDetail', 'failOpenNote',
    'detection', 'removal', 'healthCheck', 'knobs', 'requestTimeout', 'connectionDraining', 'extraManifests', 'gaps',
    'status', 'sources', 'lastChecked',
  ]);
  const sources = readList(o.sources, at(root, 'sources'), readSource, 1);
  const extras = readList(o.extraManifests ?? [], at(root, 'extraManifests'), readExtraManifest);
  const profile: GatewayProfile = {
    id: readString(o.id, at(root, 'id'), ID),
    name: readString(o.name, at(root, 'name')),
    order: readNumber(o.order, at(root, 'order'), 0, 1000, true),
    summary: readString(o.summary, at(root, 'summary')),
    gatewayClassNames: readList(o.gatewayClassNames ?? [], at(root, 'gatewayClassNames'), (v, c) => readString(v, c)),
    mechanism: readEnum(o.mechanism, at(root, 'mechanism'), ['epp-only', 'endpoint-view', 'health-check'] as const),
    mechanismDetail: readString(o.mechanismDetail, at(root, 'mechanismDetail')),
    failOpenNote: optional(o.failOpenNote, at(root, 'failOpenNote'), (v, c) => readString(v, c)),
    detection: readDetection(o.detection, at(root, 'detection')),
    removal: readRemoval(o.removal, at(root, 'removal')),
    healthCheck: optional(o.healthCheck, at(root, 'healthCheck'), readHealthCheck),
    knobs: readList(o.knobs ?? [], at(root, 'knobs'), readKnob),
    requestTimeout: optional(o.requestTimeout, at(root, 'requestTimeout'), readSecondsSetting),
    connectionDraining: optional(o.connectionDraining, at(root, 'connectionDraining'), readSecondsSetting),
    extraManifests: extras.map(({ uses: _uses, ...extra }) => extra),
    gaps: readList(o.gaps ?? [], at(root, 'gaps'), readGap),
    status: readString(o.status, at(root, 'status')),
    sources,
    lastChecked: readString(o.lastChecked, at(root, 'lastChecked'), DATE),
  };
  if (profile.removal.seconds === undefined && !profile.healthCheck) {
    failAt(at(root, 'removal.seconds'), 'is missing, and there is no healthCheck to derive removal from');
  }
  checkExtraManifests(extras, profile, root);
  checkSourceRefs(o, root, new Set(sources.map((s) => s.id)));
  return profile;
}

/** Extra manifests need unique ids, and a plan number they name needs the gateway setting it is sized for. */
function checkExtraManifests(extras: (ExtraManifest & { uses: Set<TemplateValue> })[], profile: GatewayProfile, root: DataCursor): void {
  const seen = new Set<string>();
  extras.forEach((extra, i) => {
    const cursor = at(at(root, 'extraManifests'), i);
    if (seen.has(extra.id)) failAt(at(cursor, 'id'), `repeats the id "${extra.id}"`);
    seen.add(extra.id);
    if (extra.uses.has('gatewayRequestTimeoutSeconds') && !profile.requestTimeout) {
      failAt(at(cursor, 'manifest'), 'names ${gatewayRequestTimeoutSeconds}, but the profile has no requestTimeout to size it');
    }
    if (extra.uses.has('gatewayDrainingSeconds') && !profile.connectionDraining) {
      failAt(at(cursor, 'manifest'), 'names ${gatewayDrainingSeconds}, but the profile has no connectionDraining to size it');
    }
  });
}

function readProbe(value: unknown, cursor: DataCursor, needsThreshold: boolean): ProbeFact {
  const o = readObject(value, cursor, ['path', 'periodSeconds', 'failureThreshold', 'timeoutSeconds']);
  return {
    path: optional(o.path, at(cursor, 'path'), (v, c) => readString(v, c, /^\/[A-Za-z0-9._\/-]*$/)),
    periodSeconds: readNumber(o.periodSeconds, at(cursor, 'periodSeconds'), 1, 300, true),
    failureThreshold: needsThreshold
      ? readNumber(o.failureThreshold, at(cursor, 'failureThreshold'), 1, 100, true)
      : optional(o.failureThreshold, at(cursor, 'failureThreshold'), (v, c) => readNumber(v, c, 1, 100, true)),
    timeoutSeconds: readNumber(o.timeoutSeconds, at(cursor, 'timeoutSeconds'), 1, 300, true),
  };
}

function readDrain(value: unknown, cursor: DataCursor): DrainFact {
  const o = readObject(value, cursor, [
    'kind', 'flag', 'defaultSeconds', 'zeroAborts', 'fixedSeconds', 'minVersion', 'summary', 'whileDraining', 'sources',
  ]);
  const drain: DrainFact = {
    kind: readEnum(o.kind, at(cursor, 'kind'), ['flag', 'unbounded', 'fixed', 'none'] as const),
    flag: optional(o.flag, at(cursor, 'flag'), (v, c) => readString(v, c, /^--[a-z][a-z0-9-]*$/)),
    defaultSeconds: optional(o.defaultSeconds, at(cursor, 'defaultSeconds'), (v, c) => readNumber(v, c, 0, 86400, true)),
    zeroAborts: optional(o.zeroAborts, at(cursor, 'zeroAborts'), readBoolean),
    fixedSeconds: optional(o.fixedSeconds, at(cursor, 'fixedSeconds'), (v, c) => readNumber(v, c, 1, 86400, true)),
    minVersion: optional(o.minVersion, at(cursor, 'minVersion'), (v, c) => readString(v, c)),
    summary: readString(o.summary, at(cursor, 'summary')),
    whileDraining: readString(o.whileDraining, at(cursor, 'whileDraining')),
    sources: readSourceIds(o.sources, at(cursor, 'sources')),
  };
  if (drain.kind === 'flag' && !drain.flag) failAt(at(cursor, 'flag'), 'is required when kind is flag');
  if (drain.kind === 'fixed' && drain.fixedSeconds === undefined) failAt(at(cursor, 'fixedSeconds'), 'is required when kind is fixed');
  return drain;
}

/** Validate one parsed model-server data file. `file` names it in error messages. */
export function readModelServerProfile(data: unknown, file: string): ModelServerProfile {
  const root: DataCursor = { file, path: '' };
  const o = readObject(data, root, [
    'id', 'name', 'order', 'summary', 'engineType', 'image', 'command', 'args', 'drain', 'probes',
    'shutdownLog', 'versionNotes', 'sources', 'lastChecked',
  ]);
  const sources = readList(o.sources, at(root, 'sources'), readSource, 1);
  const probesCursor = at(root, 'probes');
  const probes = readObject(o.probes, probesCursor, ['startup', 'readiness', 'liveness', 'explanation', 'sources', 'timing']);
  const timingCursor = at(probesCursor, 'timing');
  const timing = readObject(probes.timing, timingCursor, ['basis', 'explanation', 'sources']);
  const profile: ModelServerProfile = {
    id: readString(o.id, at(root, 'id'), ID),
    name: readString(o.name, at(root, 'name')),
    order: readNumber(o.order, at(root, 'order'), 0, 1000, true),
    summary: readString(o.summary, at(root, 'summary')),
    engineType: readString(o.engineType, at(root, 'engineType'), ID),
    image: readString(o.image, at(root, 'image'), /^[A-Za-z0-9][A-Za-z0-9._\/:@-]*$/),
    command: optional(o.command, at(root, 'command'), (v, c) => readList(v, c, (item, ic) => readString(item, ic), 1)),
    args: readList(o.args, at(root, 'args'), (v, c) => readString(v, c)),
    drain: readDrain(o.drain, at(root, 'drain')),
    probes: {
      startup: readProbe(probes.startup, at(probesCursor, 'startup'), false),
      readiness: readProbe(probes.readiness, at(probesCursor, 'readiness'), true),
      liveness: readProbe(probes.liveness, at(probesCursor, 'liveness'), true),
      explanation: readString(probes.explanation, at(probesCursor, 'explanation')),
      sources: readSourceIds(probes.sources, at(probesCursor, 'sources')),
      timing: {
        basis: readEnum(timing.basis, at(timingCursor, 'basis'), ['documented', 'observed', 'estimate', 'example'] as const),
        explanation: readString(timing.explanation, at(timingCursor, 'explanation')),
        sources: readList(timing.sources ?? [], at(timingCursor, 'sources'), (v, c) => readString(v, c, ID)),
      },
    },
    shutdownLog: readList(o.shutdownLog ?? [], at(root, 'shutdownLog'), (v, c) => readString(v, c)),
    versionNotes: readString(o.versionNotes, at(root, 'versionNotes')),
    sources,
    lastChecked: readString(o.lastChecked, at(root, 'lastChecked'), DATE),
  };
  checkSourceRefs(o, root, new Set(sources.map((s) => s.id)));
  return profile;
}

/** Put profiles in display order and check that ids are unique. */
export function collectProfiles(gateways: GatewayProfile[], modelServers: ModelServerProfile[]): Profiles {
  for (const [kind, list] of [['gateway', gateways], ['model-server', modelServers]] as const) {
    const seen = new Set<string>();
    for (const p of list) {
      if (seen.has(p.id)) throw new Error(`two ${kind} profiles have the id "${p.id}"`);
      seen.add(p.id);
    }
  }
  const byOrder = <T extends { order: number; id: string }>(a: T, b: T) => a.order - b.order || a.id.localeCompare(b.id);
  return { gateways: [...gateways].sort(byOrder), modelServers: [...modelServers].sort(byOrder) };
}
