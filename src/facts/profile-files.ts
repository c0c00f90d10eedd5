/**
 * Parse and validate the data files from their text: the gateway and model-server profiles and the request
 * defaults. Both the Node reader (CLI, tests) and the site (Vite's import.meta.glob) pass file names and contents
 * here, so every surface validates alike.
 */
import { isScalar, parseDocument, visit } from 'yaml';
import { collectProfiles, type Profiles } from './profiles.ts';
import { readGatewayProfile } from './read-gateway.ts';
import { readModelServerProfile } from './read-model-server.ts';
import { readRequestDefaults } from './read-request-defaults.ts';
import { DEFAULT_GATEWAY, DEFAULT_MODEL_SERVER } from './defaults.ts';

/** One data file: its path (for messages) and its text. */
export interface DataFile {
  path: string;
  text: string;
}

/**
 * Parse one data file. A comment after a value on its line is refused: in a plain scalar, " #" starts a
 * comment, so an unquoted "see #1838" would silently lose its end. Quote such values instead.
 */
function parseFile(file: DataFile): unknown {
  const doc = parseDocument(file.text, { prettyErrors: true });
  if (doc.errors.length > 0) throw new Error(`${file.path}: not valid YAML: ${doc.errors[0].message}`);
  visit(doc, {
    Scalar(_key, node) {
      if (isScalar(node) && node.comment && node.range) {
        const line = file.text.slice(0, node.range[0]).split('\n').length;
        throw new Error(
          `${file.path}: line ${line}: a comment follows the value ${JSON.stringify(String(node.value).slice(0, 40))}; `
            + 'if the "#" belongs to the text, quote the whole value',
        );
      }
    },
  });
  try {
    return doc.toJS({ maxAliasCount: 0 });
  } catch (error) {
    throw new Error(`${file.path}: not valid YAML: ${(error as Error).message}`);
  }
}

/**
 * Whether a file name is a data file every reader loads (the CLI, the site, the CLI package): YAML (.yaml or .yml),
 * not a draft (`_name`) or hidden (`.name`) file.
 */
export function isDataFileName(name: string): boolean {
  return /^[^_.].*\.ya?ml$/.test(name);
}

function checkIdMatchesName(file: DataFile, id: string): void {
  const base = file.path
    .split('/')
    .pop()!
    .replace(/\.ya?ml$/, '');
  if (base !== id) throw new Error(`${file.path}: id "${id}" must match the file name "${base}"`);
}

/** The request defaults file, relative to the content folder. */
export const REQUEST_DEFAULTS_FILE = 'request-defaults.yaml';

/**
 * Validate every gateway and model-server file and the request defaults (content/request-defaults.yaml); throws
 * naming the file and field of the first problem.
 */
export function profilesFromFiles(
  gatewayFiles: DataFile[],
  modelServerFiles: DataFile[],
  requestDefaultsFile: DataFile,
): Profiles {
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
  if (!gateways.some((g) => g.id === DEFAULT_GATEWAY))
    throw new Error(`content/gateways: the default gateway "${DEFAULT_GATEWAY}" has no profile`);
  if (!modelServers.some((m) => m.id === DEFAULT_MODEL_SERVER)) {
    throw new Error(`content/model-servers: the default model server "${DEFAULT_MODEL_SERVER}" has no profile`);
  }
  if (!requestDefaultsFile)
    throw new Error(`content/${REQUEST_DEFAULTS_FILE}: missing; it holds the sourced default time per output token`);
  const requestDefaults = readRequestDefaults(parseFile(requestDefaultsFile), requestDefaultsFile.path);
  return collectProfiles(gateways, modelServers, requestDefaults);
}
