/**
 * Links keep their meaning: a generator link or CLI call made under an older drain model opens the current one with
 * a list of every value that changed, old → new. One step per older version, each turning that version's inputs
 * into the next one's and saying what changes for them (as nginxconfig.io migrates its old links).
 *
 * v1 → v2 (the drain model page, "Changes from v1"): the inputs keep their names and meaning; what changed is the
 * default time per output token (10 ms, from no source, → the sourced default in content/request-defaults.yaml), the
 * drain flag (v1 passed it to every release; v2 only to releases that have it) and the PodDisruptionBudget (new).
 */
import { plan as planFor, MODEL_VERSION, type Plan } from './plan.ts';
import type { Profiles } from '../facts/profiles.ts';
import { fieldFor } from './fields.ts';
import { modelServerById, resolveInputs } from './resolve.ts';

/** One value that the older model gave differently. */
export interface ChangedValue {
  label: string;
  before: string;
  after: string;
}

/** What opening older inputs under the current model changes. */
export interface Migration {
  fromVersion: number;
  changes: ChangedValue[];
}

/** v1's default time per output token, in milliseconds. It came from no source; v2 replaced it. */
export const V1_TPOT_MS = 10;

type Raw = Record<string, string>;

/** One migration step: the inputs for the next version, and the values that change for them. */
type Step = (raw: Raw, profiles: Profiles) => { raw: Raw; changes: ChangedValue[] };

/** The values a reader copies, with labels, from a plan and its drain flag as the manifest writes it. */
function outputsOf(plan: Plan, drainFlag: string): [string, string][] {
  const s = (n: number | null) => (n === null ? 'none' : `${n} s`);
  return [
    ['Longest request', s(plan.maxRequestSeconds)],
    ['Drain budget', s(plan.drainSeconds)],
    ['Grace period (terminationGracePeriodSeconds)', s(plan.terminationGracePeriodSeconds)],
    ['Progress deadline (progressDeadlineSeconds)', s(plan.progressDeadlineSeconds)],
    ['Drain flag', drainFlag],
    ['Gateway request timeout', s(plan.gatewayRequestTimeoutSeconds)],
    ['Gateway connection draining', s(plan.gatewayDrainingSeconds)],
    [
      'PodDisruptionBudget',
      plan.podDisruptionBudget ? `maxUnavailable ${plan.podDisruptionBudget.maxUnavailable}` : 'none',
    ],
  ];
}

/**
 * v1 → v2. The same inputs, planned as v1 did (10 ms per output token when none was given; the drain flag for every
 * release; no PodDisruptionBudget) and as v2 does; every value that differs is listed.
 */
const fromV1: Step = (raw, profiles) => {
  const resolveWith = (extra: Raw) => resolveInputs({ ...raw, ...extra }, profiles).inputs;
  const tpotGiven = fieldFor('tpotMs')!.flag in raw && raw[fieldFor('tpotMs')!.flag].trim() !== '';
  const v1Inputs = resolveWith(tpotGiven ? {} : { 'tpot-ms': String(V1_TPOT_MS) });
  const server = modelServerById(profiles, v1Inputs.modelServer);
  // v1 read no release: every image was planned as the pinned one, with the drain flag and its drain budget.
  const v1Plan = planFor(
    {
      ...v1Inputs,
      modelServerVersion: server.release.pinned ?? v1Inputs.modelServerVersion,
      podDisruptionBudget: false,
    },
    profiles,
  );
  const v1Flag = server.drain.kind === 'flag' ? `${server.drain.flag}=${v1Plan.drainSeconds}` : 'none';
  const v2Inputs = resolveWith({});
  const v2Plan = planFor(v2Inputs, profiles);
  const v2Flag = v2Plan.drainFlag ? `${v2Plan.drainFlag.flag}=${v2Plan.drainFlag.seconds}` : 'none';
  const changes: ChangedValue[] = [];
  if (!tpotGiven && v2Plan.maxRequestDerived && v1Inputs.tpotMs !== v2Inputs.tpotMs) {
    changes.push({
      label: 'Time per output token (default)',
      before: `${V1_TPOT_MS} ms`,
      after: `${v2Inputs.tpotMs} ms`,
    });
  }
  const before = outputsOf(v1Plan, v1Flag);
  const after = outputsOf(v2Plan, v2Flag);
  before.forEach(([label, value], i) => {
    if (value !== after[i][1]) changes.push({ label, before: value, after: after[i][1] });
  });
  return { raw, changes };
};

/** The step from each older version to the next, by the version it starts from. */
const STEPS: Record<number, Step> = { 1: fromV1 };

/**
 * Bring inputs written for drain model `fromVersion` to the current one: the inputs to use, and every value that
 * changes for them, old → new. `fromVersion` must be from 1 to the current version.
 */
export function migrateInputs(raw: Raw, fromVersion: number, profiles: Profiles): { raw: Raw; migration: Migration } {
  if (!Number.isInteger(fromVersion) || fromVersion < 1 || fromVersion > MODEL_VERSION) {
    throw new Error(`drain model version must be from 1 to ${MODEL_VERSION} (got ${fromVersion})`);
  }
  let current = raw;
  const changes: ChangedValue[] = [];
  for (let version = fromVersion; version < MODEL_VERSION; version++) {
    const step = STEPS[version](current, profiles);
    current = step.raw;
    changes.push(...step.changes);
  }
  return { raw: current, migration: { fromVersion, changes } };
}

/** A change as one line: "Grace period: 125 s → 788 s". */
export function describeChange(change: ChangedValue): string {
  return `${change.label}: ${change.before} \u2192 ${change.after}`;
}
