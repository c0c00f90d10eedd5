/**
 * Find and read a repository's `.hitless.yaml` for `hitless check` (the schema and what it does: src/check/config.ts).
 * Found upward from the first checked file's folder (the current folder for stdin) to the filesystem root, the first
 * one wins; `--config FILE` names one, `--no-config` reads none. A file that cannot be used stops the run (exit 2)
 * with the file, the path in it and what is allowed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { CONFIG_LEVELS, repoConfigSchema, type RepoConfig } from '../check/config.ts';
import { RULES } from '../check/index.ts';
import { settingErrors } from '../check/workload/settings.ts';
import type { Profiles } from '../facts/profiles.ts';
import { closest, UsageError } from './args.ts';

const CONFIG_FILE = '.hitless.yaml';

/** The config file for a run: the one named, else the nearest upward from the first file; undefined for none. */
export function findConfig(names: readonly string[], named: string | undefined, none: boolean): string | undefined {
  if (none) return undefined;
  if (named !== undefined) {
    if (!existsSync(named) || !statSync(named).isFile()) throw new UsageError(`--config ${named}: no such file`);
    return named;
  }
  const first = names.find((n) => n !== '-');
  let dir = resolve(first === undefined ? '.' : dirname(first));
  for (;;) {
    const candidate = join(dir, CONFIG_FILE);
    if (existsSync(candidate) && statSync(candidate).isFile()) return relative(process.cwd(), candidate) || candidate;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** A dotted path in the config, as its messages name it: `workloads[1].inputs.tpot-ms`. */
function pathText(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
}

/** Read and validate a config file; a problem is a UsageError naming the file, the path and what is allowed. */
export function readConfig(file: string, profiles: Profiles): RepoConfig {
  const fail = (problems: string[]): never => {
    throw new UsageError(`${file}: ${problems.join('\n  ')}`);
  };
  let raw: unknown;
  try {
    // YAML 1.2: `off` is the word, not a boolean as YAML 1.1 reads it.
    raw = parse(readFileSync(file, 'utf8'), { logLevel: 'error' }) ?? {};
  } catch (error) {
    fail([`is not YAML: ${(error as Error).message.split('\n')[0]}`]);
  }
  const parsed = repoConfigSchema.safeParse(raw);
  if (!parsed.success) {
    fail(
      parsed.error.issues.map((issue) => {
        const at = pathText(issue.path) || '(top level)';
        if (issue.code === 'unrecognized_keys')
          return `${at ? `${at}: ` : ''}unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')} (allowed: ${allowedKeys(issue.path)})`;
        if (issue.code === 'invalid_value' && issue.path[0] === 'rules')
          return `${at}: not a level (allowed: ${CONFIG_LEVELS.join(', ')})`;
        return `${at}: ${issue.message}`;
      }),
    );
  }
  const config = parsed.data!;
  const problems: string[] = [];
  const gateways = profiles.gateways.map((g) => g.id);
  if (config.gateway !== undefined && !gateways.includes(config.gateway))
    problems.push(`gateway: ${JSON.stringify(config.gateway)} is not a gateway (allowed: ${gateways.join(', ')})`);
  const inputs = (at: string, values: Record<string, string | number | boolean>) => {
    const given = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
    for (const error of settingErrors(given, profiles)) problems.push(`${at}.${error.message}`);
  };
  inputs('inputs', config.inputs);
  config.workloads.forEach((w, i) => inputs(`workloads[${i}].inputs`, w.inputs));
  const codes = RULES.map((r) => r.code as string);
  const code = (at: string, value: string) => {
    if (codes.includes(value)) return;
    const near = closest(value, codes);
    problems.push(
      `${at}: ${JSON.stringify(value)} is no rule${near ? ` (did you mean ${near}?)` : ''}; hitless rules lists them`,
    );
  };
  for (const key of Object.keys(config.rules)) code(`rules.${key}`, key);
  config.suppress.forEach((s, i) => code(`suppress[${i}].rule`, s.rule));
  if (problems.length > 0) fail(problems);
  return { ...config, file };
}

function allowedKeys(path: readonly PropertyKey[]): string {
  if (path.length === 0) return 'gateway, inputs, workloads, rules, suppress';
  if (path.includes('match') || path.at(-1) === 'workload') return 'name, namespace, kind, labels';
  if (path[0] === 'workloads') return 'match, inputs';
  if (path[0] === 'suppress') return 'rule, workload, reason';
  return 'see the JSON Schema';
}
