/**
 * Read the facts the output forms rely on (content/outputs/*.yaml): GIE's inferencepool chart for `helm-values`
 * and LeaderWorkerSet's API and each model server's multi-node launch for `lws`. Pure: callers pass the texts.
 */
import { parseDocument } from 'yaml';
import { at, failAt, readList, readNumber, readObject, readString, type DataCursor } from './check-data.ts';
import { ID, URL_PATTERN } from './read-profile-common.ts';

/** One cited source of an output-facts file. */
export interface OutputSource {
  id: string;
  url: string;
}

/** GIE's inferencepool chart at a release: where it is, the value paths Hitless sets, defaults and constants. */
export interface ChartFacts {
  chart: string;
  release: string;
  commit: string;
  repository: string;
  sources: OutputSource[];
  eppNameReleaseChars: number;
  values: {
    selector: string;
    targetPorts: string;
    modelServerType: string;
    failureMode: string;
    extProcPort: string;
    provider: string;
  };
  defaults: { failureMode: string; extProcPort: number; targetPort: number; modelServerType: string; provider: string };
  modelServerTypes: string[];
  providers: string[];
  hardCoded: { gkeBackendTimeoutSeconds: number; gkeHealthCheckPath: string; eppTerminationGracePeriodSeconds: number };
}

/** How one model server runs a replica over several pods: shell lines with `{server}`, `{gpus}`, `{gpusPerPod}`, `{nodes}`. */
export interface MultiNodeLaunch {
  sources: string[];
  leaderShell: string;
  workerShell: string;
}

/** LeaderWorkerSet at a release, and the model servers Hitless can run across its pods. */
export interface LwsFacts {
  release: string;
  commit: string;
  apiVersion: string;
  sources: OutputSource[];
  env: { leaderAddress: string; groupSize: string; workerIndex: string };
  restartPolicy: string;
  multiNode: Record<string, MultiNodeLaunch>;
}

/** Both files' facts. */
export interface OutputFacts {
  chart: ChartFacts;
  lws: LwsFacts;
}

/** The files, relative to the content folder. */
export const CHART_FACTS_FILE = 'outputs/gie-inferencepool.yaml';
export const LWS_FACTS_FILE = 'outputs/lws.yaml';

const COMMIT = /^[0-9a-f]{40}$/;
const DOTTED = /^[A-Za-z]+(\.[A-Za-z]+)*$/;

function parse(path: string, text: string): unknown {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length > 0) throw new Error(`${path}: not valid YAML: ${doc.errors[0].message}`);
  return doc.toJS({ maxAliasCount: 0 });
}

function readSources(value: unknown, cursor: DataCursor): OutputSource[] {
  return readList(
    value,
    cursor,
    (item, c) => {
      const o = readObject(item, c, ['id', 'url']);
      return { id: readString(o.id, at(c, 'id'), ID), url: readString(o.url, at(c, 'url'), URL_PATTERN) };
    },
    1,
  );
}

function readStrings<K extends string>(
  value: unknown,
  cursor: DataCursor,
  keys: readonly K[],
  pattern?: RegExp,
): Record<K, string> {
  const o = readObject(value, cursor, keys);
  const out = {} as Record<K, string>;
  for (const key of keys) out[key] = readString(o[key], at(cursor, key), pattern);
  return out;
}

/** Read content/outputs/gie-inferencepool.yaml. */
export function readChartFacts(path: string, text: string): ChartFacts {
  const cursor: DataCursor = { file: path, path: '' };
  const o = readObject(parse(path, text), cursor, [
    'id',
    'chart',
    'release',
    'commit',
    'repository',
    'sources',
    'poolNamedAfterRelease',
    'eppNameReleaseChars',
    'values',
    'defaults',
    'modelServerTypes',
    'providers',
    'hardCoded',
  ]);
  const d = readObject(o.defaults, at(cursor, 'defaults'), [
    'failureMode',
    'extProcPort',
    'targetPort',
    'modelServerType',
    'provider',
  ]);
  const dc = at(cursor, 'defaults');
  const h = readObject(o.hardCoded, at(cursor, 'hardCoded'), [
    'gkeBackendTimeoutSeconds',
    'gkeHealthCheckPath',
    'eppTerminationGracePeriodSeconds',
  ]);
  const hc = at(cursor, 'hardCoded');
  if (o.poolNamedAfterRelease !== true)
    failAt(at(cursor, 'poolNamedAfterRelease'), 'must be true: the helm-values form names the release after the pool');
  return {
    chart: readString(o.chart, at(cursor, 'chart'), ID),
    release: readString(o.release, at(cursor, 'release'), /^v\d+\.\d+\.\d+$/),
    commit: readString(o.commit, at(cursor, 'commit'), COMMIT),
    repository: readString(o.repository, at(cursor, 'repository'), /^oci:\/\/[a-z0-9./-]+$/),
    sources: readSources(o.sources, at(cursor, 'sources')),
    eppNameReleaseChars: readNumber(o.eppNameReleaseChars, at(cursor, 'eppNameReleaseChars'), 1, 253, true),
    values: readStrings(
      o.values,
      at(cursor, 'values'),
      ['selector', 'targetPorts', 'modelServerType', 'failureMode', 'extProcPort', 'provider'],
      DOTTED,
    ),
    defaults: {
      failureMode: readString(d.failureMode, at(dc, 'failureMode')),
      extProcPort: readNumber(d.extProcPort, at(dc, 'extProcPort'), 1, 65535, true),
      targetPort: readNumber(d.targetPort, at(dc, 'targetPort'), 1, 65535, true),
      modelServerType: readString(d.modelServerType, at(dc, 'modelServerType')),
      provider: readString(d.provider, at(dc, 'provider')),
    },
    modelServerTypes: readList(o.modelServerTypes, at(cursor, 'modelServerTypes'), (v, c) => readString(v, c, ID), 1),
    providers: readList(o.providers, at(cursor, 'providers'), (v, c) => readString(v, c, ID), 1),
    hardCoded: {
      gkeBackendTimeoutSeconds: readNumber(
        h.gkeBackendTimeoutSeconds,
        at(hc, 'gkeBackendTimeoutSeconds'),
        1,
        86400,
        true,
      ),
      gkeHealthCheckPath: readString(h.gkeHealthCheckPath, at(hc, 'gkeHealthCheckPath'), /^\/\S*$/),
      eppTerminationGracePeriodSeconds: readNumber(
        h.eppTerminationGracePeriodSeconds,
        at(hc, 'eppTerminationGracePeriodSeconds'),
        0,
        86400,
        true,
      ),
    },
  };
}

/** Read content/outputs/lws.yaml. */
export function readLwsFacts(path: string, text: string): LwsFacts {
  const cursor: DataCursor = { file: path, path: '' };
  const o = readObject(parse(path, text), cursor, [
    'id',
    'release',
    'commit',
    'apiVersion',
    'sources',
    'env',
    'restartPolicy',
    'multiNode',
  ]);
  const sources = readSources(o.sources, at(cursor, 'sources'));
  const known = new Set(sources.map((s) => s.id));
  const multiCursor = at(cursor, 'multiNode');
  const multiNode: Record<string, MultiNodeLaunch> = {};
  const servers = readObject(o.multiNode, multiCursor, Object.keys((o.multiNode as object | null) ?? {}));
  for (const [server, value] of Object.entries(servers)) {
    const c = at(multiCursor, server);
    const m = readObject(value, c, ['sources', 'leaderShell', 'workerShell']);
    const ids = readList(m.sources, at(c, 'sources'), (v, sc) => readString(v, sc, ID), 1);
    ids.forEach((id, i) => {
      if (!known.has(id))
        failAt(at(at(c, 'sources'), i), `names source "${id}", which the file's sources list does not declare`);
    });
    multiNode[server] = {
      sources: ids,
      leaderShell: readString(m.leaderShell, at(c, 'leaderShell')),
      workerShell: readString(m.workerShell, at(c, 'workerShell')),
    };
  }
  return {
    release: readString(o.release, at(cursor, 'release'), /^v\d+\.\d+\.\d+$/),
    commit: readString(o.commit, at(cursor, 'commit'), COMMIT),
    apiVersion: readString(o.apiVersion, at(cursor, 'apiVersion'), /^[a-z0-9.-]+\/v[0-9a-z]+$/),
    sources,
    env: readStrings(o.env, at(cursor, 'env'), ['leaderAddress', 'groupSize', 'workerIndex'], /^[A-Z_]+$/),
    restartPolicy: readString(o.restartPolicy, at(cursor, 'restartPolicy')),
    multiNode,
  };
}

/** Read both files from their texts. */
export function outputFactsFromFiles(
  chart: { path: string; text: string },
  lws: { path: string; text: string },
): OutputFacts {
  return { chart: readChartFacts(chart.path, chart.text), lws: readLwsFacts(lws.path, lws.text) };
}
