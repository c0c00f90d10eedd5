/**
 * Words for the plan beside the generator's form: warnings in severity order, flag names picked out of
 * message text (so a page can keep `--shutdown-timeout` on one line), a line per invalid input saying what
 * the plan uses instead, and reader-facing names for the derivation's steps. Pure: no DOM.
 */
import { FIELDS, fieldFor, type FieldSpec } from '../../model/fields.ts';
import type { DerivationStep, Plan } from '../../model/plan.ts';
import type { DrainInputs, FieldError } from '../../model/resolve.ts';
import { SEVERITY_ORDER, type Severity } from '../../check/rules/findings.ts';

type Warning = Plan['warnings'][number];

/** A severity as the plan's warnings and the checker's findings name it. */
export const SEVERITY_LABELS: Record<Severity, string> = { error: 'Error', warning: 'Warning', info: 'Note' };

/** Errors, then warnings, then notes; the plan's order otherwise (the sort is stable). */
export function sortWarnings(warnings: readonly Warning[]): Warning[] {
  return [...warnings].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
}

/**
 * Input flags that messages name without their dashes (`set removal-seconds`). Only names with a hyphen: a
 * one-word flag (`model`, `port`) reads as plain prose, and so does `model-server` ("model-server pods").
 */
const BARE_FLAGS = FIELDS.map((f) => f.flag)
  .filter((flag) => flag.includes('-') && flag !== 'model-server')
  .sort((a, b) => b.length - a.length);

const FLAG_PATTERN = new RegExp(
  `(?<![\\w-])(--[a-z][a-z0-9-]*(?:=[0-9][0-9.]*)?|(?:${BARE_FLAGS.join('|')}))(?![\\w-])`,
  'g',
);

/** One run of message text: plain words, or a flag name (with any `=value`) to set in code. */
export interface TextPart {
  text: string;
  flag: boolean;
}

/** Split message text into plain runs and flag names: `--shutdown-timeout=75`, `--exit-timeout-secs`, `tpot-ms`. */
export function splitFlags(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let from = 0;
  for (const match of text.matchAll(FLAG_PATTERN)) {
    if (match.index > from) parts.push({ text: text.slice(from, match.index), flag: false });
    parts.push({ text: match[0], flag: true });
    from = match.index + match[0].length;
  }
  if (from < text.length) parts.push({ text: text.slice(from), flag: false });
  return parts;
}

/** A value with its field's unit: `30 s`, `20%`, `4096 tokens`, `on`. */
export function formatValue(spec: FieldSpec | undefined, value: unknown): string {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  const text = String(value);
  if (!spec?.unit) return text;
  return spec.unit === '%' ? `${text}%` : `${text} ${spec.unit}`;
}

/**
 * One sentence per invalid input: which field, why, and what the plan uses until it is fixed (the resolver
 * keeps the default for a value it cannot use), e.g. "Removal p99 is not valid: removal-seconds must be …;
 * the plan uses 30 s until it is fixed."
 */
export function inputErrorLines(errors: readonly FieldError[], inputs: DrainInputs, plan: Plan): string[] {
  return errors.map((error) => {
    const spec = fieldFor(error.flag);
    const label = spec?.label ?? error.flag;
    const used = spec ? inputs[spec.key] : undefined;
    let instead: string;
    if (spec?.key === 'maxRequestSeconds' && used === undefined)
      instead = `the plan derives ${plan.maxRequestSeconds} s from the tokens until it is fixed`;
    else if (used === undefined || used === '') instead = 'the plan leaves it out until it is fixed';
    else instead = `the plan uses ${formatValue(spec, used)} until it is fixed`;
    return `${label} is not valid: ${error.message}; ${instead}.`;
  });
}

/**
 * A reader-facing name for each derivation step, by `step.field`, and the manifest key it sets where that is a
 * Kubernetes field. Steps this table lacks show their field as it is.
 */
export const DERIVATION_LABELS: Record<string, { label: string; manifestKey?: string }> = {
  removalSeconds: { label: 'Removal p99' },
  preStopSeconds: { label: 'preStop sleep', manifestKey: 'lifecycle.preStop' },
  maxRequestSeconds: { label: 'Longest request' },
  drainSeconds: { label: 'Drain budget' },
  terminationGracePeriodSeconds: { label: 'Grace period', manifestKey: 'terminationGracePeriodSeconds' },
  modelServerRelease: { label: 'Model-server release' },
  drainFlag: { label: 'Drain flag' },
  gatewayRequestTimeoutSeconds: { label: 'Gateway request timeout' },
  gatewayDrainingSeconds: { label: 'Gateway connection draining' },
  strategy: { label: 'Rollout strategy', manifestKey: 'strategy.rollingUpdate' },
  progressDeadlineSeconds: { label: 'Progress deadline', manifestKey: 'progressDeadlineSeconds' },
  rolloutSeconds: { label: 'Rollout, worst case' },
  rolloutCapacity: { label: 'Serving during a step' },
  podDisruptionBudget: { label: 'Disruption budget', manifestKey: 'PodDisruptionBudget spec.maxUnavailable' },
  'startupProbe.failureThreshold': { label: 'Startup probe failures', manifestKey: 'startupProbe.failureThreshold' },
  'readinessProbe.window': { label: 'Readiness window' },
  'livenessProbe.window': { label: 'Liveness window' },
};

/** The step's name for a reader, its manifest key if any, and its value with a unit where it is in seconds. */
export function describeStep(step: DerivationStep): { label: string; manifestKey?: string; value: string } {
  const known = DERIVATION_LABELS[step.field];
  const seconds = typeof step.value === 'number' && (/Seconds$/.test(step.field) || /\.window$/.test(step.field));
  return {
    label: known?.label ?? step.field,
    manifestKey: known?.manifestKey,
    value: seconds ? `${step.value} s` : String(step.value),
  };
}
