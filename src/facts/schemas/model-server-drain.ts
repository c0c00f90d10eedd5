/** How a model server handles SIGTERM (`drain`) and how its probes are set (`probes`), in a model-server data file. */
import { z } from './zod.ts';
import { basis, id, refuse, sourceIds, text, wholeNumber } from './common.ts';

/** How a model server handles SIGTERM. */
const drainKind = z.enum(['flag', 'unbounded', 'fixed', 'none']);
export type DrainKind = z.output<typeof drainKind>;

/** A model server's SIGTERM behaviour and drain setting. */
export const drainSchema = z
  .strictObject({
    kind: drainKind,
    /** The flag that bounds the drain, for kind `flag`. */
    flag: z
      .string()
      .regex(/^--[a-z][a-z0-9-]*$/)
      .optional(),
    /** The flag's default in seconds. */
    defaultSeconds: wholeNumber(0, 86400).optional(),
    /** True when the default (0) aborts in-flight requests instead of draining. */
    zeroAborts: z.boolean().optional(),
    /** The built-in bound for kind `fixed`. */
    fixedSeconds: wholeNumber(1, 86400).optional(),
    /** The first version with the flag, when known. */
    minVersion: text.optional(),
    /** For kind `flag`: the fixed bound of releases before `minVersion`, when they had one (TGI's launcher: 90 s). */
    beforeFlagSeconds: wholeNumber(1, 86400).optional(),
    summary: text,
    whileDraining: text,
    /** What the drain waits for: in-flight requests, or every open HTTP connection, idle keep-alive ones too. */
    waitsFor: z.enum(['requests', 'connections']).default('requests'),
    /** What the health endpoints answer while draining: 503 (`fails`), or 200 for lack of a draining check. */
    healthWhileDraining: z.enum(['fails', 'passes']).default('fails'),
    sources: sourceIds,
    /** How `minVersion` is known, when it is not verified, as a short parenthetical (`per llm-d #927; not verified`). */
    minVersionNote: text.optional(),
    /**
     * For kind `fixed`: who gives whom the fixed time, as a clause that reads after "its" or the server's name
     * with "'s" (`launcher gives the web server`).
     */
    fixedScope: text.optional(),
    /**
     * What about the SIGTERM behaviour is not verified, as a short clause; shown wherever a page, warning or
     * manifest comment states that behaviour in brief.
     */
    caveat: text.optional(),
  })
  .superRefine((d, ctx) => {
    const fail = (key: string, message: string) => refuse(ctx, [key], message);
    if (d.kind === 'flag' && !d.flag) fail('flag', 'is required when kind is flag');
    if (d.kind === 'fixed' && d.fixedSeconds === undefined) fail('fixedSeconds', 'is required when kind is fixed');
    if (d.kind === 'fixed' && d.fixedScope === undefined) fail('fixedScope', 'is required when kind is fixed');
    if (d.minVersionNote !== undefined && d.minVersion === undefined) fail('minVersionNote', 'needs minVersion');
    if (d.beforeFlagSeconds !== undefined && d.minVersion === undefined) fail('beforeFlagSeconds', 'needs minVersion');
  });

/** One probe of the model-server container; without `path`, a TCP check on the `http` port. */
const probe = z.strictObject({
  path: z
    .string()
    .regex(/^\/[A-Za-z0-9._/-]*$/)
    .optional(),
  periodSeconds: wholeNumber(1, 300),
  failureThreshold: wholeNumber(1, 100).optional(),
  timeoutSeconds: wholeNumber(1, 300),
});
const probeWithThreshold = probe.extend({ failureThreshold: wholeNumber(1, 100) });

/** The container's probes, why they are set so, and how their periods, thresholds and timeouts are known. */
export const probesSchema = z.strictObject({
  startup: probe,
  readiness: probeWithThreshold,
  liveness: probeWithThreshold,
  explanation: text,
  /**
   * The server accepts connections on its port before the model has loaded (its readiness path answers an error
   * until then), so a tcpSocket readiness probe passes on a pod that cannot serve. Covered by `sources`.
   */
  listensBeforeReady: z.boolean().optional(),
  /**
   * Given an API key (its flag or env var), the server answers 401 without it on the paths under `prefix`; `path`
   * stays open, so a probe goes there instead.
   */
  authenticated: z
    .strictObject({
      flag: z.string().regex(/^--[a-z][a-z0-9-]*$/),
      env: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
      prefix: z.string().startsWith('/'),
      path: z.string().startsWith('/'),
      explanation: text,
      sources: sourceIds,
    })
    .optional(),
  sources: sourceIds,
  /** Where the periods, thresholds and timeouts come from (the paths are covered by `sources`). */
  timing: z.strictObject({ basis, explanation: text, sources: z.array(id).default(() => []) }),
});
