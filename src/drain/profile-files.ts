/**
 * Parse and validate profile data files from their text. Both the Node reader (CLI, tests) and the
 * site (Vite's import.meta.glob) pass file names and contents here, so every surface validates alike.
 */
import { parse } from 'yaml';
import { collectProfiles, type Profiles } from './profiles.ts';
import { readGatewayProfile } from './read-gateway.ts';
import { readModelServerProfile } from './read-model-server.ts';

/** One data file: its path (for messages) and its text. */
export interface DataFile {
  path: string;
  text: string;
}

function parseFile(file: DataFile): unknown {
  try {
    return parse(file.text, { prettyErrors: true, maxAliasCount: 0 });
  } catch (error) {
    throw new Error(`${file.path}: not valid YAML: ${(error as Error).message}`);
  }
}

function checkIdMatchesName(file: DataFile, id: string): void {
  const base = file.path.split('/').pop()!.replace(/\.ya?ml$/, '');
  if (base !== id) throw new Error(`${file.path}: id "${id}" must match the file name "${base}"`);
}

/** Validate every gateway and model-server file; throws naming the file and field of the first problem. */
export function profilesFromFiles(gatewayFiles: DataFile[], modelServerFiles: DataFile[]): Profiles {
  const gateways = gatewayFiles.map((f) => {
    const p = readGatewayProfile(parseFile(f), f.path);
    checkIdMatchesName(f, p.id);
    return p;
  });
  const modelServers = modelServerFiles.map((f) => {
    const p = readModelServerProfile(parseFile(f), f.path);
    checkIdMatchesName(f, p.id);
    return p;
  });
  if (!gateways.some((g) => g.id === 'gke')) throw new Error('content/gateways: the default gateway "gke" has no profile');
  if (!modelServers.some((m) => m.id === 'vllm')) throw new Error('content/model-servers: the default model server "vllm" has no profile');
  return collectProfiles(gateways, modelServers);
}
