/**
 * The drain inputs of a check: the reader's settings (gateway, requests, rollout) plus what the manifest
 * itself says (model server, replicas, GPUs, probes, names). The same inputs make the generator link.
 */
import { FIELDS, fieldFor } from '../fields.ts';
import type { Profiles } from '../profiles.ts';
import { changedInputs, resolveInputs, type DrainInputs, type FieldError } from '../resolve.ts';
import { encodeQuery } from '../url-state.ts';
import { findFlag } from './command-line.ts';
import { flagFor, type Identified } from './identify-server.ts';
import type { Pool, Workload } from './locate.ts';
import { formatPath, isRecord, valueAt } from './path.ts';
import { containersOf, readProbe, servingPort, type Container } from './pod.ts';

/** A value the manifest gives for a drain input, and where it was read. */
export interface FoundSetting {
  flag: string;
  value: string;
  from: string;
}

/** Inputs that a check reads from the manifest, not from its settings. */
const FROM_MANIFEST = new Set([
  'image', 'model', 'name', 'namespace', 'port', 'epp-port',
  'readiness-period-seconds', 'readiness-failure-threshold', 'liveness-period-seconds', 'liveness-failure-threshold', 'startup-period-seconds',
]);

/** The flags a check accepts as settings, in field order. */
export const CHECK_SETTING_FLAGS: readonly string[] = FIELDS.map((f) => f.flag).filter((flag) => !FROM_MANIFEST.has(flag));

/** Problems with the reader's settings: unknown names, inputs the manifest supplies, bad values. */
export function settingErrors(raw: Record<string, string>, profiles: Profiles): FieldError[] {
  const errors: FieldError[] = [];
  const usable: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const spec = fieldFor(name);
    if (spec && FROM_MANIFEST.has(spec.flag)) {
      errors.push({ flag: spec.flag, message: `${spec.flag} is read from the manifest, so it is not a check setting` });
    } else {
      usable[name] = value;
    }
  }
  return [...errors, ...resolveInputs(usable, profiles).errors];
}

/** Settings keyed by flag, without blank values and without the names that have errors. */
export function usableSettings(raw: Record<string, string>, profiles: Profiles): Record<string, string> {
  const bad = new Set(settingErrors(raw, profiles).map((e) => e.flag));
  const usable: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const flag = fieldFor(name)?.flag ?? name;
    if (!bad.has(flag) && String(value ?? '').trim() !== '') usable[flag] = String(value);
  }
  return usable;
}

function modelName(identified: Identified): string | undefined {
  const { profile, container } = identified;
  const flag = flagFor(profile, '{model}');
  const use = flag ? findFlag(container.line, flag) : undefined;
  if (use?.value) return use.value;
  const words = container.line.tokens.map((t) => t.text);
  const serve = words.indexOf('serve');
  return serve !== -1 && words[serve + 1] && !words[serve + 1].startsWith('-') ? words[serve + 1] : undefined;
}

/** GPUs one replica holds: the serving pod's, plus its workers' for a LeaderWorkerSet group. */
function gpusPerReplica(workload: Workload): number {
  const sum = (cs: Container[]) => cs.reduce((n, c) => n + c.gpus, 0);
  const serving = sum(containersOf(workload.serving));
  const workers = workload.workers ? sum(containersOf(workload.workers)) * (workload.groupSize - 1) : 0;
  return serving + workers;
}

/** Read the drain inputs a workload (and the pool that selects it) states. */
export function findSettings(workload: Workload, container: Container, identified: Identified | undefined, pool: Pool | undefined): FoundSetting[] {
  const found: FoundSetting[] = [];
  const object = workload.object;
  const at = (path: (string | number)[]) => `${object.kind}/${object.name} ${formatPath(path)}`;
  const add = (flag: string, value: unknown, from: string) => {
    if (value !== undefined && value !== '') found.push({ flag, value: String(value), from });
  };
  if (identified) add('model-server', identified.profile.id, `${object.kind}/${object.name}: ${identified.evidence.join(', ')}`);
  add('image', container.image, at([...container.path, 'image']));
  if (identified) add('model', modelName(identified), at([...container.path, 'args']));
  add('name', object.name, at(['metadata', 'name']));
  add('namespace', object.namespace, at(['metadata', 'namespace']));
  const port = servingPort(container);
  if (port) add('port', port.containerPort, at([...container.path, 'ports']));
  if (valueAt(object.value, ['spec', 'replicas']) !== undefined) add('replicas', workload.replicas, at(['spec', 'replicas']));
  const gpus = gpusPerReplica(workload);
  if (gpus > 0) add('gpus-per-replica', gpus, at([...container.path, 'resources']));
  const readiness = readProbe(container, 'readinessProbe');
  if (readiness) {
    add('readiness-period-seconds', readiness.periodSeconds, at(readiness.path));
    add('readiness-failure-threshold', readiness.failureThreshold, at(readiness.path));
  }
  const liveness = readProbe(container, 'livenessProbe');
  if (liveness) {
    add('liveness-period-seconds', liveness.periodSeconds, at(liveness.path));
    add('liveness-failure-threshold', liveness.failureThreshold, at(liveness.path));
  }
  const startup = readProbe(container, 'startupProbe');
  if (startup) add('startup-period-seconds', startup.periodSeconds, at(startup.path));
  if (pool) {
    const ref = valueAt(pool.object.value, ['spec', 'endpointPickerRef']);
    if (isRecord(ref)) {
      add('failure-mode', ref.failureMode, `${pool.object.kind}/${pool.object.name} spec.endpointPickerRef.failureMode`);
      add('epp-port', valueAt(ref, ['port', 'number']), `${pool.object.kind}/${pool.object.name} spec.endpointPickerRef.port`);
    }
  }
  return found;
}

/**
 * Resolve the inputs of a check: found values first, the reader's settings over them. Found values the
 * drain model does not accept (a name too long, a port out of range) are left out.
 */
export function resolveSettings(user: Record<string, string>, found: FoundSetting[], profiles: Profiles): { inputs: DrainInputs; unused: FoundSetting[] } {
  let kept = found.filter((f) => !(f.flag in user));
  const unused: FoundSetting[] = [];
  for (let round = 0; round < 3; round++) {
    const merged = { ...Object.fromEntries(kept.map((f) => [f.flag, f.value])), ...user };
    const { inputs, errors } = resolveInputs(merged, profiles);
    const bad = new Set(errors.map((e) => e.flag));
    const dropped = kept.filter((f) => bad.has(f.flag));
    if (dropped.length === 0) return { inputs, unused };
    unused.push(...dropped);
    kept = kept.filter((f) => !bad.has(f.flag));
  }
  return { inputs: resolveInputs(usableSettings(user, profiles), profiles).inputs, unused: found };
}

/** The generator's query for the inputs, and the same as `hitless generate` flags. */
export function generatorSettings(inputs: DrainInputs, profiles: Profiles): { query: string; flags: string } {
  const flags = changedInputs(inputs, profiles).map(([flag, value]) => (value === 'true' ? `--${flag}` : `--${flag} ${value}`)).join(' ');
  return { query: encodeQuery(inputs, profiles), flags };
}
