/** Validate a parsed gateway data file (content/gateways/*.yaml) into a GatewayProfile. */
import { readPodSidecar } from './read-gateway-sidecar.ts';
import { readRouteTimeout } from './read-gateway-route.ts';
import {
  at,
  failAt,
  optional,
  readEnum,
  readList,
  readNumber,
  readObject,
  readString,
  type DataCursor,
} from './check-data.ts';
import {
  TEMPLATE_VALUES,
  type DetectionFact,
  type ExtraManifest,
  type GatewayKnob,
  type GatewayProfile,
  type GatewaySecondsSetting,
  type HealthCheckFact,
  type RemovalFact,
  type SourceGap,
  type TemplateValue,
} from './profiles.ts';
import { ID, latestChecked, readRange, readSource, readSourceIds, checkSourceRefs } from './read-profile-common.ts';
import { gatewayLedgerProblems } from './read-ledger.ts';

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
    'intervalSeconds',
    'unhealthyThreshold',
    'timeoutSeconds',
    'propagationSeconds',
    'basis',
    'explanation',
    'sources',
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
  const o = readObject(value, cursor, ['name', 'default', 'effect', 'role', 'holdsFor', 'sources']);
  const knob: GatewayKnob = {
    name: readString(o.name, at(cursor, 'name')),
    default: readString(o.default, at(cursor, 'default')),
    effect: readString(o.effect, at(cursor, 'effect')),
    role: readEnum(o.role, at(cursor, 'role'), ['detection', 'backend', 'own-pods'] as const),
    sources: readSourceIds(o.sources, at(cursor, 'sources')),
  };
  if (o.holdsFor !== undefined) knob.holdsFor = readHoldsFor(o.holdsFor, at(cursor, 'holdsFor'));
  return knob;
}

/** The product whose releases a knob's default depends on, and the range: `since` and/or `until` is required. */
function readHoldsFor(value: unknown, cursor: DataCursor): NonNullable<GatewayKnob['holdsFor']> {
  const o = readObject(value, cursor, ['of', 'since', 'until']);
  const range = readRange(o, cursor);
  if (range.since === undefined && range.until === undefined)
    failAt(at(cursor, 'since'), 'is missing: give since and/or until');
  return { of: readString(o.of, at(cursor, 'of')), ...range };
}

function readDetection(value: unknown, cursor: DataCursor): DetectionFact {
  const o = readObject(value, cursor, ['summary', 'sources']);
  return {
    summary: readString(o.summary, at(cursor, 'summary')),
    sources: readSourceIds(o.sources, at(cursor, 'sources')),
  };
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
  const o = readObject(value, cursor, [
    'setting',
    'defaultSeconds',
    'maxSeconds',
    'floorSeconds',
    'floorReason',
    'floorExplanation',
    'sources',
  ]);
  const setting: GatewaySecondsSetting = {
    setting: readString(o.setting, at(cursor, 'setting')),
    defaultSeconds: readNumber(o.defaultSeconds, at(cursor, 'defaultSeconds'), 0, 2147483647, true),
    maxSeconds: readNumber(o.maxSeconds, at(cursor, 'maxSeconds'), 1, 2147483647, true),
    sources: readSourceIds(o.sources, at(cursor, 'sources')),
  };
  if (setting.defaultSeconds > setting.maxSeconds)
    failAt(at(cursor, 'defaultSeconds'), `must not exceed maxSeconds (${setting.maxSeconds})`);
  // The floor and its two texts come together or not at all; absent, they are left out of the setting.
  const floorSeconds = optional(o.floorSeconds, at(cursor, 'floorSeconds'), (v, c) =>
    readNumber(v, c, 0, 2147483647, true),
  );
  const floorReason = optional(o.floorReason, at(cursor, 'floorReason'), (v, c) => readString(v, c));
  const floorExplanation = optional(o.floorExplanation, at(cursor, 'floorExplanation'), (v, c) => readString(v, c));
  if (floorSeconds === undefined) {
    if (floorReason !== undefined) failAt(at(cursor, 'floorReason'), 'needs floorSeconds');
    if (floorExplanation !== undefined) failAt(at(cursor, 'floorExplanation'), 'needs floorSeconds');
    return setting;
  }
  if (floorSeconds < setting.defaultSeconds)
    failAt(at(cursor, 'floorSeconds'), `must not be below defaultSeconds (${setting.defaultSeconds})`);
  if (floorSeconds > setting.maxSeconds)
    failAt(at(cursor, 'floorSeconds'), `must not exceed maxSeconds (${setting.maxSeconds})`);
  if (floorReason === undefined) failAt(at(cursor, 'floorReason'), 'is required with floorSeconds');
  if (floorExplanation === undefined) failAt(at(cursor, 'floorExplanation'), 'is required with floorSeconds');
  return { ...setting, floorSeconds, floorReason, floorExplanation };
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
    failAt(
      cursor,
      `must be a string, number, boolean, list or mapping, found ${value === null ? 'null' : typeof value}`,
    );
  }
}

/** Whether a dotted path (`spec.targetRef.name`, `items.0`) leads to a value in an object. */
function hasPath(root: unknown, path: string): boolean {
  let node: unknown = root;
  for (const part of path.split('.')) {
    if (Array.isArray(node) && /^\d+$/.test(part)) node = node[Number(part)];
    else if (typeof node === 'object' && node !== null && !Array.isArray(node))
      node = (node as Record<string, unknown>)[part];
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
  const metadata = readObject(manifest.metadata, at(manifestCursor, 'metadata'), [
    'name',
    'namespace',
    'labels',
    'annotations',
  ]);
  readString(metadata.name, at(at(manifestCursor, 'metadata'), 'name'));
  const uses = new Set<TemplateValue>();
  readTemplateNode(manifest, manifestCursor, uses);
  const commentsCursor = at(cursor, 'comments');
  const rawComments =
    o.comments === undefined ? {} : readObject(o.comments, commentsCursor, Object.keys(o.comments ?? {}));
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
    'id',
    'name',
    'order',
    'summary',
    'gatewayClassNames',
    'gatewayClassNote',
    'mechanism',
    'mechanismDetail',
    'mechanismSources',
    'failOpenNote',
    'detection',
    'removal',
    'healthCheck',
    'knobs',
    'requestTimeout',
    'connectionDraining',
    'extraManifests',
    'gaps',
    'status',
    'statusSources',
    'sources',
    'podSidecar',
    'routeTimeout',
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
    mechanismSources: readSourceIds(o.mechanismSources, at(root, 'mechanismSources')),
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
    statusSources: readList(o.statusSources ?? [], at(root, 'statusSources'), (v, c) => readString(v, c, ID)),
    sources,
    lastChecked: latestChecked(sources),
  };
  const gatewayClassNote = optional(o.gatewayClassNote, at(root, 'gatewayClassNote'), (v, c) => readString(v, c));
  if (gatewayClassNote !== undefined) profile.gatewayClassNote = gatewayClassNote;
  const podSidecar = optional(o.podSidecar, at(root, 'podSidecar'), readPodSidecar);
  if (podSidecar !== undefined) profile.podSidecar = podSidecar;
  const routeTimeout = optional(o.routeTimeout, at(root, 'routeTimeout'), readRouteTimeout);
  if (routeTimeout !== undefined) profile.routeTimeout = routeTimeout;
  if (profile.removal.seconds === undefined && !profile.healthCheck) {
    failAt(at(root, 'removal.seconds'), 'is missing, and there is no healthCheck to derive removal from');
  }
  checkExtraManifests(extras, profile, root);
  checkSourceRefs(o, root, new Set(sources.map((s) => s.id)));
  const problems = gatewayLedgerProblems(profile);
  if (problems.length > 0) failAt(root, `fails the facts ledger: ${problems[0]}`);
  return profile;
}

/** Extra manifests need unique ids, and a plan number they name needs the gateway setting it is sized for. */
function checkExtraManifests(
  extras: (ExtraManifest & { uses: Set<TemplateValue> })[],
  profile: GatewayProfile,
  root: DataCursor,
): void {
  const seen = new Set<string>();
  extras.forEach((extra, i) => {
    const cursor = at(at(root, 'extraManifests'), i);
    if (seen.has(extra.id)) failAt(at(cursor, 'id'), `repeats the id "${extra.id}"`);
    seen.add(extra.id);
    if (extra.uses.has('gatewayRequestTimeoutSeconds') && !profile.requestTimeout) {
      failAt(
        at(cursor, 'manifest'),
        'names ${gatewayRequestTimeoutSeconds}, but the profile has no requestTimeout to size it',
      );
    }
    if (extra.uses.has('gatewayDrainingSeconds') && !profile.connectionDraining) {
      failAt(
        at(cursor, 'manifest'),
        'names ${gatewayDrainingSeconds}, but the profile has no connectionDraining to size it',
      );
    }
  });
}
