/**
 * Parse and validate the data files from their text: the gateway and model-server profiles, the request defaults
 * and the output forms' facts. Both the Node reader (CLI, tests) and the site (Vite's import.meta.glob) pass file
 * names and contents here, so every surface validates alike.
 */
import { isScalar, parseDocument, visit } from 'yaml';
import type { z } from 'zod';
import { DEFAULT_GATEWAY, DEFAULT_MODEL_SERVER } from './defaults.ts';
import { parseData } from './parse-data.ts';
import type { OutputFacts, Profiles } from './profiles.ts';
import { controllerSchema } from './schemas/controller.ts';
import { otherServerSchema } from './schemas/other-server.ts';
import { gatewaySchema } from './schemas/gateway.ts';
import { modelServerSchema } from './schemas/model-server.ts';
import { chartFactsSchema, lwsFactsSchema } from './schemas/outputs.ts';
import { requestDefaultsSchema } from './schemas/request-defaults.ts';
import { valueRangesSchema } from './schemas/value-ranges.ts';

/** One data file: its path (for messages) and its text. */
export interface DataFile {
  path: string;
  text: string;
}

/** The request defaults file, relative to the content folder. */
export const REQUEST_DEFAULTS_FILE = 'request-defaults.yaml';
/** The Kubernetes value ranges file, relative to the content folder. */
export const VALUE_RANGES_FILE = 'kubernetes/value-ranges.yaml';
/** The output forms' facts files, relative to the content folder. */
export const CHART_FACTS_FILE = 'outputs/gie-inferencepool.yaml';
export const LWS_FACTS_FILE = 'outputs/lws.yaml';

/**
 * Parse one data file. A comment after a value on its line is refused: in a plain scalar, " #" starts a
 * comment, so an unquoted "see #1838" would silently lose its end. Quote such values instead.
 */
function parseYaml(file: DataFile): unknown {
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

/** Parse a data file and validate it with its kind's schema; throws naming the file and every field at fault. */
export function readDataFile<S extends z.ZodType>(file: DataFile, schema: S): z.output<S> {
  return parseData(schema, parseYaml(file), file.path);
}

/**
 * Whether a file name is a data file every reader loads (the CLI, the site, the CLI package): YAML (.yaml or .yml),
 * not a draft (`_name`) or hidden (`.name`) file.
 */
export function isDataFileName(name: string): boolean {
  return /^[^_.].*\.ya?ml$/.test(name);
}

/** Read the profiles of one folder: ids unique and matching the file names, sorted for display. */
function readProfileFiles<S extends z.ZodType<{ id: string; order: number }>>(
  files: DataFile[],
  schema: S,
): z.output<S>[] {
  const seen = new Set<string>();
  const profiles = files.map((file) => {
    const profile = readDataFile(file, schema);
    const base = file.path
      .split('/')
      .pop()!
      .replace(/\.ya?ml$/, '');
    if (base !== profile.id) throw new Error(`${file.path}: id "${profile.id}" must match the file name "${base}"`);
    if (seen.has(profile.id)) throw new Error(`${file.path}: another file has the id "${profile.id}"`);
    seen.add(profile.id);
    return profile;
  });
  return profiles.sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
}

/**
 * Validate every gateway and model-server file, the request defaults (content/request-defaults.yaml) and the
 * Kubernetes value ranges (content/kubernetes/value-ranges.yaml); throws naming the file and field of the first problem.
 */
export function profilesFromFiles(
  gatewayFiles: DataFile[],
  modelServerFiles: DataFile[],
  requestDefaultsFile: DataFile,
  valueRangesFile: DataFile,
  controllerFiles: DataFile[] = [],
  otherServerFiles: DataFile[] = [],
): Profiles {
  const gateways = readProfileFiles(gatewayFiles, gatewaySchema);
  const modelServers = readProfileFiles(modelServerFiles, modelServerSchema);
  if (!gateways.some((g) => g.id === DEFAULT_GATEWAY))
    throw new Error(`content/gateways: the default gateway "${DEFAULT_GATEWAY}" has no profile`);
  if (!modelServers.some((m) => m.id === DEFAULT_MODEL_SERVER)) {
    throw new Error(`content/model-servers: the default model server "${DEFAULT_MODEL_SERVER}" has no profile`);
  }
  if (!requestDefaultsFile)
    throw new Error(`content/${REQUEST_DEFAULTS_FILE}: missing; it holds the sourced default time per output token`);
  if (!valueRangesFile)
    throw new Error(`content/${VALUE_RANGES_FILE}: missing; it holds the ranges the API server accepts`);
  return {
    gateways,
    modelServers,
    requestDefaults: readDataFile(requestDefaultsFile, requestDefaultsSchema),
    valueRanges: readDataFile(valueRangesFile, valueRangesSchema),
    controllers: readProfileFiles(controllerFiles, controllerSchema),
    otherServers: readProfileFiles(otherServerFiles, otherServerSchema),
  };
}

/** Validate both output forms' facts files from their texts. */
export function outputFactsFromFiles(chart: DataFile, lws: DataFile): OutputFacts {
  return { chart: readDataFile(chart, chartFactsSchema), lws: readDataFile(lws, lwsFactsSchema) };
}
