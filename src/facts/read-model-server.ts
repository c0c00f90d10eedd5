/** Validate a parsed model-server data file (content/model-servers/*.yaml) into a ModelServerProfile. */
import {
  at,
  readBoolean,
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
  RELEASE_FACT_TOPICS,
  type DrainFact,
  type EntryPoint,
  type ProbeFact,
  type ModelServerProfile,
  type ReleaseFact,
  type Source,
} from './profiles.ts';
import { compareReleases, releaseFromImage, releaseParts } from './releases.ts';
import { ID, latestChecked, readRange, readSource, readSourceIds, checkSourceRefs } from './read-profile-common.ts';
import { modelServerLedgerProblems } from './read-ledger.ts';
import { readDeployFacts } from './read-model-server-deploy.ts';

function readProbe(value: unknown, cursor: DataCursor, needsThreshold: boolean): ProbeFact {
  const o = readObject(value, cursor, ['path', 'periodSeconds', 'failureThreshold', 'timeoutSeconds']);
  return {
    path: optional(o.path, at(cursor, 'path'), (v, c) => readString(v, c, /^\/[A-Za-z0-9._/-]*$/)),
    periodSeconds: readNumber(o.periodSeconds, at(cursor, 'periodSeconds'), 1, 300, true),
    failureThreshold: needsThreshold
      ? readNumber(o.failureThreshold, at(cursor, 'failureThreshold'), 1, 100, true)
      : optional(o.failureThreshold, at(cursor, 'failureThreshold'), (v, c) => readNumber(v, c, 1, 100, true)),
    timeoutSeconds: readNumber(o.timeoutSeconds, at(cursor, 'timeoutSeconds'), 1, 300, true),
  };
}

function readDrain(value: unknown, cursor: DataCursor): DrainFact {
  const o = readObject(value, cursor, [
    'kind',
    'flag',
    'defaultSeconds',
    'zeroAborts',
    'fixedSeconds',
    'minVersion',
    'minVersionNote',
    'fixedScope',
    'caveat',
    'summary',
    'whileDraining',
    'sources',
  ]);
  const drain: DrainFact = {
    kind: readEnum(o.kind, at(cursor, 'kind'), ['flag', 'unbounded', 'fixed', 'none'] as const),
    flag: optional(o.flag, at(cursor, 'flag'), (v, c) => readString(v, c, /^--[a-z][a-z0-9-]*$/)),
    defaultSeconds: optional(o.defaultSeconds, at(cursor, 'defaultSeconds'), (v, c) =>
      readNumber(v, c, 0, 86400, true),
    ),
    zeroAborts: optional(o.zeroAborts, at(cursor, 'zeroAborts'), readBoolean),
    fixedSeconds: optional(o.fixedSeconds, at(cursor, 'fixedSeconds'), (v, c) => readNumber(v, c, 1, 86400, true)),
    minVersion: optional(o.minVersion, at(cursor, 'minVersion'), (v, c) => readString(v, c)),
    summary: readString(o.summary, at(cursor, 'summary')),
    whileDraining: readString(o.whileDraining, at(cursor, 'whileDraining')),
    sources: readSourceIds(o.sources, at(cursor, 'sources')),
  };
  // Optional texts are left out when absent, so that a profile without them reads as it did before they existed.
  for (const key of ['minVersionNote', 'fixedScope', 'caveat'] as const) {
    const text = optional(o[key], at(cursor, key), (v, c) => readString(v, c));
    if (text !== undefined) drain[key] = text;
  }
  if (drain.kind === 'flag' && !drain.flag) failAt(at(cursor, 'flag'), 'is required when kind is flag');
  if (drain.kind === 'fixed' && drain.fixedSeconds === undefined)
    failAt(at(cursor, 'fixedSeconds'), 'is required when kind is fixed');
  if (drain.kind === 'fixed' && drain.fixedScope === undefined)
    failAt(at(cursor, 'fixedScope'), 'is required when kind is fixed');
  if (drain.minVersionNote !== undefined && drain.minVersion === undefined)
    failAt(at(cursor, 'minVersionNote'), 'needs minVersion');
  return drain;
}

/**
 * The `release` block: `tagPattern` (a regular expression whose first group is the release in an image tag) and an
 * optional `pinned` release for a preset image whose tag names none. The preset image's release must be knowable.
 */
function readRelease(value: unknown, cursor: DataCursor, image: unknown): ModelServerProfile['release'] {
  const o = readObject(value, cursor, ['tagPattern', 'pinned']);
  const source = readString(o.tagPattern, at(cursor, 'tagPattern'));
  let tagPattern: RegExp;
  try {
    tagPattern = new RegExp(source);
  } catch {
    failAt(at(cursor, 'tagPattern'), `is not a regular expression: ${JSON.stringify(source)}`);
  }
  const pinned = optional(o.pinned, at(cursor, 'pinned'), (v, c) => readString(v, c, /^\d+(\.\d+){0,3}$/));
  const fromTag = typeof image === 'string' ? releaseFromImage({ release: { tagPattern } }, image) : undefined;
  if (pinned !== undefined && fromTag !== undefined && compareReleases(pinned, fromTag) !== 0) {
    failAt(at(cursor, 'pinned'), `is ${pinned}, but the image's tag says ${fromTag}`);
  }
  const release = { tagPattern, pinned: pinned ?? fromTag };
  if (release.pinned === undefined) delete release.pinned;
  return release;
}

/** One per-release fact: topic, range (or a note on why there is none), what it says, its lines and sources. */
function readReleaseFact(value: unknown, cursor: DataCursor): ReleaseFact {
  const o = readObject(value, cursor, ['topic', 'since', 'until', 'rangeNote', 'says', 'lines', 'sources']);
  const fact: ReleaseFact = {
    topic: readEnum(o.topic, at(cursor, 'topic'), RELEASE_FACT_TOPICS),
    ...readRange(o, cursor),
    says: readString(o.says, at(cursor, 'says')),
    sources: readSourceIds(o.sources, at(cursor, 'sources')),
  };
  const rangeNote = optional(o.rangeNote, at(cursor, 'rangeNote'), (v, c) => readString(v, c));
  if (rangeNote !== undefined) fact.rangeNote = rangeNote;
  if (fact.since === undefined && fact.until === undefined && rangeNote === undefined) {
    failAt(
      at(cursor, 'since'),
      'is missing: a per-release fact needs since and/or until, or a rangeNote saying why no release bound is known',
    );
  }
  const lines = optional(o.lines, at(cursor, 'lines'), (v, c) => readList(v, c, (item, ic) => readString(item, ic), 1));
  if (lines !== undefined) {
    if (fact.topic !== 'shutdown-log') failAt(at(cursor, 'lines'), `belongs to topic shutdown-log, not ${fact.topic}`);
    fact.lines = lines;
  }
  return fact;
}

/** The per-release facts: each topic at least once, so every page can say what holds for which release. */
function readReleaseFacts(value: unknown, cursor: DataCursor): ReleaseFact[] {
  const facts = readList(value, cursor, readReleaseFact, 1);
  for (const topic of RELEASE_FACT_TOPICS) {
    if (!facts.some((f) => f.topic === topic))
      failAt(cursor, `has no fact with topic ${topic} (each of ${RELEASE_FACT_TOPICS.join(', ')} is needed)`);
  }
  return facts;
}

/**
 * The `entryPoints` block: each a binary (with an optional subcommand) or a Python module, and its own source,
 * which joins the file's sources so that the ledger and the pages list it like the others.
 */
function readEntryPoints(value: unknown, cursor: DataCursor, sources: Source[]): EntryPoint[] {
  return readList(value ?? [], cursor, (item, c) => {
    const o = readObject(item, c, ['binary', 'subcommand', 'module', 'source']);
    const name = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
    const point: EntryPoint = { sources: [] };
    const binary = optional(o.binary, at(c, 'binary'), (v, vc) => readString(v, vc, name));
    const subcommand = optional(o.subcommand, at(c, 'subcommand'), (v, vc) => readString(v, vc, name));
    const module = optional(o.module, at(c, 'module'), (v, vc) =>
      readString(v, vc, /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/),
    );
    if ((binary === undefined) === (module === undefined)) failAt(c, 'needs exactly one of binary and module');
    if (subcommand !== undefined && binary === undefined) failAt(at(c, 'subcommand'), 'is only for a binary');
    if (binary !== undefined) point.binary = binary;
    if (subcommand !== undefined) point.subcommand = subcommand;
    if (module !== undefined) point.module = module;
    const source = readSource(o.source, at(c, 'source'));
    if (sources.some((s) => s.id === source.id))
      failAt(
        at(at(c, 'source'), 'id'),
        `repeats the source id ${JSON.stringify(source.id)}; give the entry point its own`,
      );
    sources.push(source);
    point.sources = [source.id];
    return point;
  });
}

/** Validate one parsed model-server data file. `file` names it in error messages. */
export function readModelServerProfile(data: unknown, file: string): ModelServerProfile {
  const root: DataCursor = { file, path: '' };
  const o = readObject(data, root, [
    'id',
    'name',
    'order',
    'summary',
    'engineType',
    'image',
    'release',
    'command',
    'args',
    'drain',
    'probes',
    'shutdownLog',
    'shutdownLogNote',
    'versionNotes',
    'facts',
    'sources',
    'entryPoints',
    'deploy',
  ]);
  const sources = readList(o.sources, at(root, 'sources'), readSource, 1);
  const entryPoints = readEntryPoints(o.entryPoints, at(root, 'entryPoints'), sources);
  const probesCursor = at(root, 'probes');
  const probes = readObject(o.probes, probesCursor, [
    'startup',
    'readiness',
    'liveness',
    'explanation',
    'sources',
    'timing',
  ]);
  const timingCursor = at(probesCursor, 'timing');
  const timing = readObject(probes.timing, timingCursor, ['basis', 'explanation', 'sources']);
  const profile: ModelServerProfile = {
    id: readString(o.id, at(root, 'id'), ID),
    name: readString(o.name, at(root, 'name')),
    order: readNumber(o.order, at(root, 'order'), 0, 1000, true),
    summary: readString(o.summary, at(root, 'summary')),
    engineType: readString(o.engineType, at(root, 'engineType'), ID),
    image: readString(o.image, at(root, 'image'), /^[A-Za-z0-9][A-Za-z0-9._/:@-]*$/),
    release: readRelease(o.release, at(root, 'release'), o.image),
    command: optional(o.command, at(root, 'command'), (v, c) => readList(v, c, (item, ic) => readString(item, ic), 1)),
    entryPoints,
    args: readList(o.args, at(root, 'args'), (v, c) => readString(v, c)),
    drain: readDrain(o.drain, at(root, 'drain')),
    probes: {
      startup: readProbe(probes.startup, at(probesCursor, 'startup'), false),
      readiness: readProbe(probes.readiness, at(probesCursor, 'readiness'), true),
      liveness: readProbe(probes.liveness, at(probesCursor, 'liveness'), true),
      explanation: readString(probes.explanation, at(probesCursor, 'explanation')),
      sources: readSourceIds(probes.sources, at(probesCursor, 'sources')),
      timing: {
        basis: readEnum(timing.basis, at(timingCursor, 'basis'), [
          'documented',
          'observed',
          'estimate',
          'example',
        ] as const),
        explanation: readString(timing.explanation, at(timingCursor, 'explanation')),
        sources: readList(timing.sources ?? [], at(timingCursor, 'sources'), (v, c) => readString(v, c, ID)),
      },
    },
    shutdownLog: readList(o.shutdownLog ?? [], at(root, 'shutdownLog'), (v, c) => readString(v, c)),
    versionNotes: readString(o.versionNotes, at(root, 'versionNotes')),
    facts: readReleaseFacts(o.facts, at(root, 'facts')),
    deploy: readDeployFacts(o.deploy, at(root, 'deploy')),
    sources,
    lastChecked: latestChecked(sources),
  };
  const shutdownLogNote = optional(o.shutdownLogNote, at(root, 'shutdownLogNote'), (v, c) => readString(v, c));
  if (shutdownLogNote !== undefined) {
    if (profile.shutdownLog.length === 0) failAt(at(root, 'shutdownLogNote'), 'needs shutdownLog lines to be about');
    profile.shutdownLogNote = shutdownLogNote;
  }
  checkSourceRefs(o, root, new Set(sources.map((s) => s.id)));
  checkPresetRelease(profile, root);
  const problems = modelServerLedgerProblems(profile);
  if (problems.length > 0) failAt(root, `fails the facts ledger: ${problems[0]}`);
  return profile;
}

/** A drain flag that only some releases have needs a preset image whose release can be read. */
function checkPresetRelease(profile: ModelServerProfile, root: DataCursor): void {
  if (profile.drain.kind === 'flag' && profile.drain.minVersion !== undefined) {
    if (!releaseParts(profile.drain.minVersion))
      failAt(
        at(at(root, 'drain'), 'minVersion'),
        `must be a release such as 0.18.0, found ${JSON.stringify(profile.drain.minVersion)}`,
      );
    if (profile.release.pinned === undefined) {
      failAt(
        at(root, 'image'),
        `names no release (its tag does not match release.tagPattern and release.pinned is unset), but ${profile.drain.flag} exists only from ${profile.drain.minVersion}`,
      );
    }
    if (compareReleases(profile.release.pinned, profile.drain.minVersion) < 0) {
      failAt(
        at(root, 'image'),
        `runs ${profile.release.pinned}, which predates ${profile.drain.flag} (from ${profile.drain.minVersion})`,
      );
    }
  }
}
