/**
 * The `deploy` block of a model-server data file: what the Deployment needs beyond the drain for the server to
 * start and use its GPUs (its default model, tensor-parallel flag, environment, model volume, /dev/shm and the
 * CPU and memory estimates), each with its reason and sources.
 */
import { at, failAt, optional, readList, readNumber, readObject, readString, type DataCursor } from './check-data.ts';
import { readSourceIds } from './read-profile-common.ts';

/** One environment variable the server's container gets, with why. */
export interface DeployEnv {
  name: string;
  value: string;
  why: string;
}

/**
 * How a replica uses more than one GPU: a flag whose value is the GPUs per replica (`--tensor-parallel-size`), or,
 * for a server without one, a note that says where it is set instead.
 */
export interface TensorParallelFact {
  flag?: string;
  note: string;
  sources: string[];
}

/** A model repository or model file the server reads from a path, mounted from a PersistentVolumeClaim. */
export interface ModelVolumeFact {
  mountPath: string;
  /** The claim is named `<name>-<claimSuffix>`. */
  claimSuffix: string;
  /** What goes there and how to fill it; the manifest comment. */
  explanation: string;
  sources: string[];
}

/** The memory-backed /dev/shm volume: its size limit and why. */
export interface ShmFact {
  sizeLimitGi: number;
  explanation: string;
  sources: string[];
}

/** CPU and memory requests per GPU of a replica: estimates, with how to size them. */
export interface ResourceEstimate {
  cpuPerGpu: number;
  memoryGiPerGpu: number;
  explanation: string;
}

/** Everything a model server needs in its Deployment to start. */
export interface DeployFacts {
  /** The model the generator passes when the reader gives none (a GGUF repository for llama.cpp). */
  defaultModel: string;
  /** Why this default, when it differs from other servers'. */
  defaultModelNote?: string;
  /** Where `defaultModelNote` comes from. */
  defaultModelSources?: string[];
  tensorParallel: TensorParallelFact;
  env: DeployEnv[];
  modelVolume?: ModelVolumeFact;
  shm: ShmFact;
  resources: ResourceEstimate;
}

const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
const MODEL = /^[A-Za-z0-9][A-Za-z0-9._/:-]*$/;

function readEnvVar(value: unknown, cursor: DataCursor): DeployEnv {
  const o = readObject(value, cursor, ['name', 'value', 'why']);
  return {
    name: readString(o.name, at(cursor, 'name'), ENV_NAME),
    value: readString(o.value, at(cursor, 'value')),
    why: readString(o.why, at(cursor, 'why')),
  };
}

function readTensorParallel(value: unknown, cursor: DataCursor): TensorParallelFact {
  const o = readObject(value, cursor, ['flag', 'note', 'sources']);
  const fact: TensorParallelFact = {
    note: readString(o.note, at(cursor, 'note')),
    sources: readSourceIds(o.sources, at(cursor, 'sources')),
  };
  const flag = optional(o.flag, at(cursor, 'flag'), (v, c) => readString(v, c, /^--?[a-z][a-z0-9-]*$/));
  if (flag !== undefined) fact.flag = flag;
  return fact;
}

function readModelVolume(value: unknown, cursor: DataCursor): ModelVolumeFact {
  const o = readObject(value, cursor, ['mountPath', 'claimSuffix', 'explanation', 'sources']);
  return {
    mountPath: readString(o.mountPath, at(cursor, 'mountPath'), /^\/[A-Za-z0-9._/-]*$/),
    claimSuffix: readString(o.claimSuffix, at(cursor, 'claimSuffix'), /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/),
    explanation: readString(o.explanation, at(cursor, 'explanation')),
    sources: readSourceIds(o.sources, at(cursor, 'sources')),
  };
}

/** Validate the `deploy` block of a model-server file. */
export function readDeployFacts(value: unknown, cursor: DataCursor): DeployFacts {
  const o = readObject(value, cursor, [
    'defaultModel',
    'defaultModelNote',
    'defaultModelSources',
    'tensorParallel',
    'env',
    'modelVolume',
    'shm',
    'resources',
  ]);
  const shm = readObject(o.shm, at(cursor, 'shm'), ['sizeLimitGi', 'explanation', 'sources']);
  const resources = readObject(o.resources, at(cursor, 'resources'), ['cpuPerGpu', 'memoryGiPerGpu', 'explanation']);
  const facts: DeployFacts = {
    defaultModel: readString(o.defaultModel, at(cursor, 'defaultModel'), MODEL),
    tensorParallel: readTensorParallel(o.tensorParallel, at(cursor, 'tensorParallel')),
    env: readList(o.env ?? [], at(cursor, 'env'), readEnvVar),
    shm: {
      sizeLimitGi: readNumber(shm.sizeLimitGi, at(at(cursor, 'shm'), 'sizeLimitGi'), 1, 1024, true),
      explanation: readString(shm.explanation, at(at(cursor, 'shm'), 'explanation')),
      sources: readSourceIds(shm.sources, at(at(cursor, 'shm'), 'sources')),
    },
    resources: {
      cpuPerGpu: readNumber(resources.cpuPerGpu, at(at(cursor, 'resources'), 'cpuPerGpu'), 1, 256, true),
      memoryGiPerGpu: readNumber(
        resources.memoryGiPerGpu,
        at(at(cursor, 'resources'), 'memoryGiPerGpu'),
        1,
        4096,
        true,
      ),
      explanation: readString(resources.explanation, at(at(cursor, 'resources'), 'explanation')),
    },
  };
  const note = optional(o.defaultModelNote, at(cursor, 'defaultModelNote'), (v, c) => readString(v, c));
  if (note !== undefined) facts.defaultModelNote = note;
  const noteSources = optional(o.defaultModelSources, at(cursor, 'defaultModelSources'), readSourceIds);
  if (noteSources !== undefined) facts.defaultModelSources = noteSources;
  const volume = optional(o.modelVolume, at(cursor, 'modelVolume'), readModelVolume);
  if (volume !== undefined) facts.modelVolume = volume;
  const names = new Set<string>();
  for (const [i, env] of facts.env.entries()) {
    if (names.has(env.name)) failAt(at(at(cursor, 'env'), i), `sets ${env.name} twice`);
    names.add(env.name);
  }
  return facts;
}
