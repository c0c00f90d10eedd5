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

/** A drain-relevant setting that the gateway itself has. */
export interface GatewayKnob {
  name: string;
  default: string;
  effect: string;
  sources: string[];
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
  removal: RemovalFact;
  healthCheck?: HealthCheckFact;
  knobs: GatewayKnob[];
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
      } else if (key !== 'sources') {
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
  const o = readObject(value, cursor, ['name', 'default', 'effect', 'sources']);
  return {
    name: readString(o.name, at(cursor, 'name')),
    default: readString(o.default, at(cursor, 'default')),
    effect: readString(o.effect, at(cursor, 'effect')),
    sources: readSourceIds(o.sources, at(cursor, 'sources')),
  };
}

/** Validate one parsed gateway data file. `file` names it in error messages. */
export function readGatewayProfile(data: unknown, file: string): GatewayProfile {
  const root: DataCursor = { file, path: '' };
  const o = readObject(data, root, [
    'id', 'name', 'order', 'summary', 'gatewayClassNames', 'mechanism', 'mechanismDetail', 'failOpenNote',
    'removal', 'healthCheck', 'knobs', 'status', 'sources', 'lastChecked',
  ]);
  const sources = readList(o.sources, at(root, 'sources'), readSource, 1);
  const profile: GatewayProfile = {
    id: readString(o.id, at(root, 'id'), ID),
    name: readString(o.name, at(root, 'name')),
    order: readNumber(o.order, at(root, 'order'), 0, 1000, true),
    summary: readString(o.summary, at(root, 'summary')),
    gatewayClassNames: readList(o.gatewayClassNames ?? [], at(root, 'gatewayClassNames'), (v, c) => readString(v, c)),
    mechanism: readEnum(o.mechanism, at(root, 'mechanism'), ['epp-only', 'endpoint-view', 'health-check'] as const),
    mechanismDetail: readString(o.mechanismDetail, at(root, 'mechanismDetail')),
    failOpenNote: optional(o.failOpenNote, at(root, 'failOpenNote'), (v, c) => readString(v, c)),
    removal: readRemoval(o.removal, at(root, 'removal')),
    healthCheck: optional(o.healthCheck, at(root, 'healthCheck'), readHealthCheck),
    knobs: readList(o.knobs ?? [], at(root, 'knobs'), readKnob),
    status: readString(o.status, at(root, 'status')),
    sources,
    lastChecked: readString(o.lastChecked, at(root, 'lastChecked'), DATE),
  };
  if (profile.removal.seconds === undefined && !profile.healthCheck) {
    failAt(at(root, 'removal.seconds'), 'is missing, and there is no healthCheck to derive removal from');
  }
  checkSourceRefs(o, root, new Set(sources.map((s) => s.id)));
  return profile;
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
  const probes = readObject(o.probes, probesCursor, ['startup', 'readiness', 'liveness', 'explanation', 'sources']);
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
