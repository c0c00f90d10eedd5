/**
 * The schema of a model server Hitless recognises but has no drain profile for (content/other-servers/<id>.yaml): the
 * images that run it, each with the source that shows its entrypoint starts the server. A workload running one is
 * checked for what holds for any server (preStop, grace period, probes, rollout), not skipped, and never gets a
 * server-specific flag.
 */
import { z } from './zod.ts';
import { checkSourceRefs, DATE, id, source, sourceIds, text, wholeNumber } from './common.ts';

export const otherServerSchema = z
  .strictObject({
    id,
    name: text,
    order: wholeNumber(0, 10000),
    /** What is known of its SIGTERM behaviour, or that nothing is, in a sentence or two. */
    summary: text,
    /**
     * Where a source shows that it does not drain (requests in flight at SIGTERM are cut): the checker then plans no
     * drain for it, as for a profiled server of drain kind `none`. Absent when its SIGTERM behaviour is not traced.
     */
    drain: z
      .strictObject({
        kind: z.literal('none'),
        /** What it does at SIGTERM, as a sentence that reads after "While draining:" (`It closes every connection.`). */
        whileDraining: text,
        sources: sourceIds,
      })
      .optional(),
    images: z
      .array(
        z.strictObject({
          /** A repository without registry host (`ollama/ollama`); a mirror's path prefix is allowed before it. */
          repository: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/),
          sources: sourceIds,
        }),
      )
      .min(1),
    sources: z.array(source).min(1),
    lastChecked: z.string().regex(DATE),
  })
  .superRefine((s, ctx) => checkSourceRefs(s, new Set(s.sources.map((x) => x.id)), ctx));
export type OtherServer = z.output<typeof otherServerSchema>;
