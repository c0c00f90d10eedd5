/**
 * The `deploy` block of a model-server data file: what the Deployment needs beyond the drain for the server to
 * start and use its GPUs (its default model, tensor-parallel flag, environment, model volume, /dev/shm and the
 * CPU and memory estimates), each with its reason and sources.
 */
import { z } from './zod.ts';
import { ID, MODEL, refuse, sourceIds, text, wholeNumber } from './common.ts';

/** One environment variable the server's container gets, with why. */
const envVar = z.strictObject({ name: z.string().regex(/^[A-Z_][A-Z0-9_]*$/), value: text, why: text });

/** Everything a model server needs in its Deployment to start. */
export const deploySchema = z
  .strictObject({
    /** The model the generator passes when the reader gives none (a GGUF repository for llama.cpp). */
    defaultModel: z.string().regex(MODEL),
    /** Why this default, when it differs from other servers'. */
    defaultModelNote: text.optional(),
    /** Where `defaultModelNote` comes from. */
    defaultModelSources: sourceIds.optional(),
    /**
     * How a replica uses more than one GPU: a flag whose value is the GPUs per replica (`--tensor-parallel-size`),
     * or, for a server without one, a note that says where it is set instead.
     */
    tensorParallel: z.strictObject({
      flag: z
        .string()
        .regex(/^--?[a-z][a-z0-9-]*$/)
        .optional(),
      note: text,
      sources: sourceIds,
    }),
    env: z.array(envVar).default(() => []),
    /** Why the pod turns Service environment variables off, when the server has its own reason (the manifest comment). */
    serviceLinksComment: text.optional(),
    /** A model repository or model file the server reads from a path, mounted from a PersistentVolumeClaim. */
    modelVolume: z
      .strictObject({
        mountPath: z.string().regex(/^\/[A-Za-z0-9._/-]*$/),
        /** The claim is named `<name>-<claimSuffix>`. */
        claimSuffix: z.string().regex(ID),
        /** What goes there and how to fill it; the manifest comment. */
        explanation: text,
        sources: sourceIds,
      })
      .optional(),
    /** The memory-backed /dev/shm volume: its size limit and why. */
    shm: z.strictObject({ sizeLimitGi: wholeNumber(1, 1024), explanation: text, sources: sourceIds }),
    /** CPU and memory requests per GPU of a replica: estimates, with how to size them. */
    resources: z.strictObject({
      cpuPerGpu: wholeNumber(1, 256),
      memoryGiPerGpu: wholeNumber(1, 4096),
      explanation: text,
    }),
  })
  .superRefine((d, ctx) => {
    const names = new Set<string>();
    d.env.forEach((env, i) => {
      if (names.has(env.name)) refuse(ctx, ['env', i], `sets ${env.name} twice`);
      names.add(env.name);
    });
  });
