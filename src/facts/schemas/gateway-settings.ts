/**
 * The gateway settings a gateway data file sizes or describes: a setting in seconds the plan sets (a request
 * timeout, a connection-draining timeout), what the gateway does with an HTTPRoute's timeouts, and how a proxy
 * injected into the model-server pod is kept alive through the drain.
 */
import { z } from './zod.ts';
import { refuse, sourceIds, text, wholeNumber } from './common.ts';

const MAX_INT32 = 2147483647;

/** A gateway setting in seconds that the plan sizes (a request timeout, a connection-draining timeout). */
export const secondsSetting = z
  .strictObject({
    /** Where it is set, e.g. `GCPBackendPolicy spec.default.timeoutSec`. */
    setting: text,
    defaultSeconds: wholeNumber(0, MAX_INT32),
    maxSeconds: wholeNumber(1, MAX_INT32),
    /**
     * The least value Hitless sets, when a source gives one above the gateway's default (GIE's GKE example sets a
     * 300 s request timeout): the plan never goes below it. Comes with `floorReason` (a few words for the derivation
     * and YAML comment) and `floorExplanation` (why Hitless keeps it); its sources are in `sources`.
     */
    floorSeconds: wholeNumber(0, MAX_INT32).optional(),
    floorReason: text.optional(),
    floorExplanation: text.optional(),
    sources: sourceIds,
  })
  .superRefine((s, ctx) => {
    const fail = (key: string, message: string) => refuse(ctx, [key], message);
    if (s.defaultSeconds > s.maxSeconds) fail('defaultSeconds', `must not exceed maxSeconds (${s.maxSeconds})`);
    if (s.floorSeconds === undefined) {
      if (s.floorReason !== undefined) fail('floorReason', 'needs floorSeconds');
      if (s.floorExplanation !== undefined) fail('floorExplanation', 'needs floorSeconds');
      return;
    }
    if (s.floorSeconds < s.defaultSeconds)
      fail('floorSeconds', `must not be below defaultSeconds (${s.defaultSeconds})`);
    if (s.floorSeconds > s.maxSeconds) fail('floorSeconds', `must not exceed maxSeconds (${s.maxSeconds})`);
    if (s.floorReason === undefined) fail('floorReason', 'is required with floorSeconds');
    if (s.floorExplanation === undefined) fail('floorExplanation', 'is required with floorSeconds');
  });
export type GatewaySecondsSetting = z.output<typeof secondsSetting>;

/** A gateway's request timeout on an HTTPRoute rule, read at a named release. */
export const routeTimeout = z
  .strictObject({
    /** Whether the gateway applies `timeouts.request` (false: it accepts the field and ignores it). */
    honored: z.boolean(),
    /** The timeout a request gets when the route sets none; absent when there is none. */
    defaultSeconds: wholeNumber(1, 86400).optional(),
    /**
     * For a gateway that does not take `timeouts` on the route: the setting that bounds a response instead, and
     * whether it counts the whole response (`total`) or only a gap between two reads (`between-reads`).
     */
    instead: z
      .strictObject({
        setting: text,
        defaultSeconds: wholeNumber(1, 86400),
        scope: z.enum(['total', 'between-reads'], {
          error: (i) => `must be total or between-reads, found ${JSON.stringify(i.input)}`,
        }),
      })
      .optional(),
    /** What the gateway does, in a sentence or two, for the gateway's page and the plan's notes. */
    summary: text,
    sources: sourceIds,
  })
  .superRefine((r, ctx) => {
    if (r.honored && r.instead) refuse(ctx, ['instead'], 'is only for a gateway that does not honor timeouts.request');
    if (!r.honored && !r.instead)
      refuse(ctx, ['instead'], 'is required when honored is false: say what bounds a response instead');
  });

const ANNOTATION = /^[a-z0-9.-]+\/[A-Za-z0-9.-]+$/;

/** How a proxy injected into the model-server pod (an Istio sidecar) is kept alive through the drain. */
export const podSidecar = z.strictObject({
  /** What happens to the injected proxy on pod deletion, and why it matters. */
  summary: text,
  /** The annotation that asks for a native sidecar (stopped only after the main containers exit), value "true". */
  nativeAnnotation: z.string().regex(ANNOTATION),
  /**
   * The first Kubernetes minor version (1.29) whose nodes run native sidecars by default, so that the annotation can
   * force one (Istio's own default waits for kubelet 1.33).
   */
  nativeFromKubernetes: z.string().regex(/^1\.\d+$/),
  /** The proxy-config annotation whose terminationDrainDuration the manifest sets when native sidecars are not available. */
  drainAnnotation: z.string().regex(ANNOTATION),
  sources: sourceIds,
});
