/**
 * What a profile page shows about its preset: the inputs, plan, manifest documents and generator link that the
 * drain core gives for one gateway or model server with every other input at its default. Pages only display
 * these; every number comes from the core.
 */
import { manifestDocuments } from '../../emit/bundle.ts';
import { documentText } from '../../emit/files.ts';
import { extraManifestDocuments } from '../../emit/gateway-objects.ts';
import { plan as planFor, type DerivationStep, type Plan } from '../../model/plan.ts';
import type { Profiles } from '../../facts/profiles.ts';
import { resolveInputs } from '../../model/resolve.ts';
import { encodeQuery } from '../../model/url-state.ts';

/** The generator's path; a preset link adds the query. */
const GENERATOR_PATH = '/generator/';

/** One extra manifest as the page shows it: the profile's id and kind, why, and the emitter's YAML text. */
export type ExtraManifestView = ReturnType<typeof presetFor>['extras'][number];

/**
 * The preset for a gateway or model-server choice, every other input at its default: the resolved inputs, the plan,
 * the extra manifests, the whole manifest's documents and the generator link that reproduces them.
 */
export function presetFor(profiles: Profiles, raw: { gateway?: string; 'model-server'?: string }) {
  const resolved = resolveInputs(raw, profiles);
  if (resolved.errors.length > 0) throw new Error(resolved.errors.map((e) => e.message).join('; '));
  const { inputs } = resolved;
  const plan = planFor(inputs, profiles);
  const extras = extraManifestDocuments(plan, inputs, profiles).map((extra) => ({
    id: extra.id,
    kind: extra.kind,
    purpose: extra.purpose,
    yaml: documentText(extra.document),
  }));
  return {
    inputs,
    plan,
    extras,
    documents: manifestDocuments(plan, inputs, profiles),
    generatorHref: `${GENERATOR_PATH}?${encodeQuery(inputs, profiles)}`,
  };
}

/** The derivation steps for the given fields, in the plan's order; fields the plan lacks are skipped. */
export function stepsFor(plan: Plan, fields: readonly string[]): DerivationStep[] {
  return plan.derivation.filter((step) => fields.includes(step.field));
}

/** The plan fields a gateway page shows, from removal to the gateway's own settings. */
export const GATEWAY_PAGE_FIELDS = [
  'removalSeconds',
  'preStopSeconds',
  'maxRequestSeconds',
  'drainSeconds',
  'terminationGracePeriodSeconds',
  'drainFlag',
  'gatewayRequestTimeoutSeconds',
  'gatewayDrainingSeconds',
] as const;

/** The plan fields a model-server page shows: the drain and the probes. */
export const MODEL_SERVER_PAGE_FIELDS = [
  'maxRequestSeconds',
  'drainSeconds',
  'drainFlag',
  'terminationGracePeriodSeconds',
  'startupProbe.failureThreshold',
  'readinessProbe.window',
  'livenessProbe.window',
] as const;
