/** The schema of a gateway data file (content/gateways/*.yaml): one gateway implementation and its sources. */
import { z } from './zod.ts';
import {
  basis,
  checkRange,
  checkSourceRefs,
  id,
  latestChecked,
  numberFrom,
  refuse,
  releaseRange,
  source,
  sourceIds,
  text,
  wholeNumber,
} from './common.ts';
import { extraManifest, namedValues } from './gateway-manifest.ts';
import { podSidecar, routeTimeout, secondsSetting } from './gateway-settings.ts';
import { checkLedger, ledgerProblems, type LedgerEntry } from './ledger.ts';

/** How a terminating pod stops getting new requests at a gateway. */
const mechanism = z.enum(['epp-only', 'endpoint-view', 'health-check']);
export type Mechanism = z.output<typeof mechanism>;

/**
 * What a gateway setting is about: how fast the gateway notices a gone pod (`detection`), how it treats
 * requests to a backend that is leaving (`backend`), or how its own proxy pods drain on their rollout (`own-pods`).
 */
const knobRole = z.enum(['detection', 'backend', 'own-pods']);
export type KnobRole = z.output<typeof knobRole>;

/** A drain-relevant setting that the gateway itself has. */
const knob = z.strictObject({
  name: text,
  default: text,
  effect: text,
  role: knobRole,
  /** For a default that differs between releases: the product (`Envoy Gateway`) and the releases it holds for. */
  holdsFor: z
    .strictObject({ of: text, ...releaseRange })
    .superRefine((h, ctx) => {
      if (h.since === undefined && h.until === undefined) refuse(ctx, ['since'], 'is missing: give since and/or until');
      checkRange(h, ctx);
    })
    .optional(),
  sources: sourceIds,
});
export type GatewayKnob = z.output<typeof knob>;

/** Something the public sources do not say (`not-found`) or say two ways (`conflict`). */
const gap = z.strictObject({
  kind: z.enum(['not-found', 'conflict']),
  topic: text,
  detail: text,
  sources: z.array(id).default(() => []),
});
export type SourceGap = z.output<typeof gap>;

const gatewayFile = z
  .strictObject({
    id,
    name: text,
    order: wholeNumber(0, 1000),
    summary: text,
    gatewayClassNames: z.array(text).default(() => []),
    /** What a reader should know about `gatewayClassNames`, e.g. that the class name is the user's choice. */
    gatewayClassNote: text.optional(),
    /**
     * Kinds only this gateway defines (Envoy AI Gateway's AIGatewayRoute): a manifest holding one is for this
     * gateway, when no policy or Gateway class names one first.
     */
    ownKinds: z.array(z.strictObject({ group: text, kind: text })).default(() => []),
    /** Where `ownKinds` come from; required when there are any. */
    ownKindsSources: sourceIds.optional(),
    mechanism,
    mechanismDetail: text,
    /** Where `mechanismDetail` comes from. */
    mechanismSources: sourceIds,
    failOpenNote: text.optional(),
    /** How the gateway notices a terminating pod at its default settings, in words, with sources. */
    detection: z.strictObject({ summary: text, sources: sourceIds }),
    /** The removal time and how it is known; `seconds` is absent where the health-check formula gives it. */
    removal: z.strictObject({
      seconds: numberFrom(0, 600).optional(),
      basis,
      explanation: text,
      howToMeasure: text,
      sources: sourceIds,
    }),
    /** Health-check detection: removal = interval × threshold + timeout + propagation. */
    healthCheck: z
      .strictObject({
        intervalSeconds: numberFrom(1, 300),
        unhealthyThreshold: wholeNumber(1, 20),
        timeoutSeconds: numberFrom(0, 300),
        propagationSeconds: numberFrom(0, 600),
        basis,
        explanation: text,
        sources: sourceIds,
      })
      .optional(),
    knobs: z.array(knob).default(() => []),
    /** The gateway's own per-request timeout, when the manifests set it. */
    requestTimeout: secondsSetting.optional(),
    /** The gateway's connection-draining timeout for a removed endpoint, when the manifests set it. */
    connectionDraining: secondsSetting.optional(),
    extraManifests: z.array(extraManifest).default(() => []),
    /** For a gateway whose proxy can run in the model-server pod: what keeps it alive through the drain. */
    podSidecar: podSidecar.optional(),
    /** What the gateway does with an HTTPRoute's timeouts.request, and its timeout without one. */
    routeTimeout: routeTimeout.optional(),
    gaps: z.array(gap).default(() => []),
    status: text,
    /** Where `status` comes from. */
    statusSources: z.array(id).default(() => []),
    sources: z.array(source).min(1),
  })
  .superRefine((g, ctx) => {
    if (g.removal.seconds === undefined && !g.healthCheck)
      refuse(ctx, ['removal', 'seconds'], 'is missing, and there is no healthCheck to derive removal from');
    if (g.ownKinds.length > 0 && !g.ownKindsSources)
      refuse(ctx, ['ownKindsSources'], 'is missing: ownKinds need sources');
    checkExtraManifests(g, ctx);
    checkSourceRefs(g, new Set(g.sources.map((s) => s.id)), ctx);
  })
  // The latest `checked` date of its sources.
  .transform((g) => ({ ...g, lastChecked: latestChecked(g.sources) }));

/** One gateway implementation. */
export type GatewayProfile = z.output<typeof gatewayFile>;

/** Extra manifests need unique ids, and a plan number they name needs the gateway setting it is sized for. */
function checkExtraManifests(
  g: Pick<GatewayProfile, 'extraManifests' | 'requestTimeout' | 'connectionDraining'>,
  ctx: z.RefinementCtx,
): void {
  const seen = new Set<string>();
  g.extraManifests.forEach((extra, i) => {
    const fail = (key: string, message: string) => refuse(ctx, ['extraManifests', i, key], message);
    if (seen.has(extra.id)) fail('id', `repeats the id "${extra.id}"`);
    seen.add(extra.id);
    const uses = namedValues(extra.manifest);
    if (uses.has('gatewayRequestTimeoutSeconds') && !g.requestTimeout)
      fail('manifest', 'names ${gatewayRequestTimeoutSeconds}, but the profile has no requestTimeout to size it');
    if (uses.has('gatewayDrainingSeconds') && !g.connectionDraining)
      fail('manifest', 'names ${gatewayDrainingSeconds}, but the profile has no connectionDraining to size it');
  });
}

/**
 * What the ledger finds wrong with a gateway profile (empty when every fact is sourced). Every fact must cite a
 * source but gaps that report a missing source, and the status of a profile with no GatewayClass (the custom
 * profile, whose status is Hitless's own).
 */
export function gatewayLedgerProblems(g: GatewayProfile): string[] {
  const entries: LedgerEntry[] = [{ path: 'mechanismSources', sources: g.mechanismSources }];
  if (g.gatewayClassNames.length > 0) entries.push({ path: 'statusSources', sources: g.statusSources });
  if (g.ownKinds.length > 0) entries.push({ path: 'ownKindsSources', sources: g.ownKindsSources ?? [] });
  entries.push(
    { path: 'detection.sources', sources: g.detection.sources },
    { path: 'removal.sources', sources: g.removal.sources },
  );
  if (g.healthCheck) entries.push({ path: 'healthCheck.sources', sources: g.healthCheck.sources });
  if (g.requestTimeout) entries.push({ path: 'requestTimeout.sources', sources: g.requestTimeout.sources });
  if (g.connectionDraining) entries.push({ path: 'connectionDraining.sources', sources: g.connectionDraining.sources });
  g.knobs.forEach((k, i) => entries.push({ path: `knobs[${i}].sources`, sources: k.sources }));
  g.extraManifests.forEach((e, i) => entries.push({ path: `extraManifests[${i}].sources`, sources: e.sources }));
  g.gaps.forEach((gap, i) => {
    if (gap.kind === 'conflict') entries.push({ path: `gaps[${i}].sources`, sources: gap.sources });
  });
  return ledgerProblems(entries, g.sources);
}

/** A gateway data file: its fields, the rules between them and the facts ledger. */
export const gatewaySchema = gatewayFile.superRefine(checkLedger(gatewayLedgerProblems));
