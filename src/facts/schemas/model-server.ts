/** The schema of a model-server data file (content/model-servers/*.yaml): one model server and its sources. */
import { z } from './zod.ts';
import { compareReleases, releaseFromImage, releaseParts } from '../releases.ts';
import {
  checkRange,
  checkSourceRefs,
  ID,
  id,
  latestChecked,
  refuse,
  releaseRange,
  source,
  sourceIds,
  text,
  wholeNumber,
} from './common.ts';
import { checkLedger, ledgerProblems, type LedgerEntry } from './ledger.ts';
import { deploySchema } from './model-server-deploy.ts';
import { drainSchema, probesSchema } from './model-server-drain.ts';
import { shutdownLogSchema } from './model-server-log.ts';

/** What a per-release model-server fact is about. */
const RELEASE_FACT_TOPICS = [
  'drain-flag',
  'in-flight',
  'new-requests',
  'probes',
  'entrypoint',
  'shutdown-log',
] as const;
const releaseFactTopic = z.enum(RELEASE_FACT_TOPICS);
export type ReleaseFactTopic = z.output<typeof releaseFactTopic>;

/**
 * A model-server fact for a range of releases: the drain flag and its default, what happens to in-flight and new
 * requests on SIGTERM, the probe endpoints and what they answer while draining, the entrypoint, the log lines in
 * order (the lines themselves are `shutdownLog`). It has `since` and/or `until`; where no bound is known, `rangeNote` says so plainly.
 */
const releaseFact = z
  .strictObject({
    topic: releaseFactTopic,
    ...releaseRange,
    rangeNote: text.optional(),
    says: text,
    sources: sourceIds,
  })
  .superRefine((f, ctx) => {
    checkRange(f, ctx);
    if (f.since === undefined && f.until === undefined && f.rangeNote === undefined) {
      const why = 'a per-release fact needs since and/or until, or a rangeNote saying why no release bound is known';
      refuse(ctx, ['since'], `is missing: ${why}`);
    }
  });
export type ReleaseFact = z.output<typeof releaseFact>;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * A way a model server is started besides its `command`: a binary with an optional subcommand (`vllm serve`,
 * `text-generation-launcher`) or a Python module (`python3 -m M`), with the source that shows it exists at the
 * release read; that source joins the file's sources. The checker edits a server's flags only in an invocation
 * it finds by these.
 */
const entryPoint = z
  .strictObject({
    binary: z.string().regex(NAME).optional(),
    subcommand: z.string().regex(NAME).optional(),
    module: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/)
      .optional(),
    /** True when the model is the first argument, not a flag's value (`vllm serve MODEL`). */
    modelPositional: z.boolean().optional(),
    source,
  })
  .superRefine((e, ctx) => {
    if ((e.binary === undefined) === (e.module === undefined))
      refuse(ctx, [], 'needs exactly one of binary and module');
    if (e.subcommand !== undefined && e.binary === undefined) refuse(ctx, ['subcommand'], 'is only for a binary');
  });

const modelServerFile = z
  .strictObject({
    id,
    name: text,
    order: wholeNumber(0, 1000),
    summary: text,
    engineType: z.string().regex(ID),
    /**
     * What the Endpoint Picker does with this engine type when it has no metric names built in for it (GIE v1.5.0:
     * it reads vLLM's names); the emitted manifests print it beside the engine-type label. Absent for a built-in type.
     */
    engineTypeNote: z.strictObject({ summary: text, sources: sourceIds }).optional(),
    image: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._/:@-]*$/),
    /**
     * How an image tag names a release (`tagPattern`, a regular expression whose first group is the release) and,
     * for a preset `image` whose tag names none, the release it runs (`pinned`). See `releases.ts`.
     */
    release: z.strictObject({
      tagPattern: text.refine(isRegExp, { error: (i) => `is not a regular expression: ${JSON.stringify(i.input)}` }),
      /**
       * Tags of the preset image's repository that hold the server's clients, not the server (Triton's
       * `<yy.mm>-py3-sdk`): an image with one runs no server, whatever its repository.
       */
      clientTags: z
        .strictObject({
          pattern: text.refine(isRegExp, { error: (i) => `is not a regular expression: ${JSON.stringify(i.input)}` }),
          sources: sourceIds,
        })
        .optional(),
      pinned: z
        .string()
        .regex(/^\d+(\.\d+){0,3}$/)
        .optional(),
    }),
    /**
     * Other images of the server (vendor and variant builds: ROCm, TPU, CPU, a vendor's product), each with how its
     * tag names the server's release (`tagPattern`, absent when it names something else, such as the vendor's
     * version) and whether its entrypoint starts the server (so that a container giving only `args` runs it).
     */
    images: z
      .array(
        z
          .strictObject({
            repository: z
              .string()
              .regex(/^[A-Za-z0-9][A-Za-z0-9._/-]*$/)
              .optional(),
            /**
             * For images whose repository name carries the release (Google's Deep Learning Containers:
             * `huggingface-text-generation-inference-cu124.2-3.ubuntu2204`): a regular expression over the repository
             * (without registry host) whose groups, joined with dots, are the release (`2-3` → 2.3).
             */
            repositoryPattern: text
              .refine(isRegExp, { error: (i) => `is not a regular expression: ${JSON.stringify(i.input)}` })
              .optional(),
            tagPattern: text
              .refine(isRegExp, { error: (i) => `is not a regular expression: ${JSON.stringify(i.input)}` })
              .optional(),
            entrypointStartsServer: z.boolean(),
            /**
             * Releases before `until` whose entrypoint is a shell script that starts the server without exec: the shell
             * stays PID 1 and the kubelet's SIGTERM never reaches the server.
             */
            entrypointForks: z.strictObject({ until: z.string().regex(/^\d+(\.\d+){0,3}$/) }).optional(),
            sources: sourceIds,
          })
          .refine((i) => (i.repository === undefined) !== (i.repositoryPattern === undefined), {
            error: 'needs exactly one of repository and repositoryPattern',
          }),
      )
      .default(() => []),
    command: z.array(text).min(1).optional(),
    entryPoints: z.array(entryPoint).default(() => []),
    /** Arguments; `{model}` and `{port}` are replaced by validated inputs. */
    args: z.array(text),
    drain: drainSchema,
    probes: probesSchema,
    shutdownLog: shutdownLogSchema.optional(),
    /** Which releases print `shutdownLog`, when that differs from the preset image or is not verified. */
    shutdownLogNote: text.optional(),
    versionNotes: text,
    /** The per-release facts (the ledger), in data order: each topic at least once. */
    facts: z
      .array(releaseFact)
      .min(1)
      .superRefine((facts, ctx) => {
        for (const topic of RELEASE_FACT_TOPICS) {
          if (!facts.some((f) => f.topic === topic))
            refuse(ctx, [], `has no fact with topic ${topic} (each of ${RELEASE_FACT_TOPICS.join(', ')} is needed)`);
        }
      }),
    /** What the Deployment needs for the server to start and use its GPUs. */
    deploy: deploySchema,
    sources: z.array(source).min(1),
  })
  .superRefine((m, ctx) => {
    const fail = (path: PropertyKey[], message: string) => refuse(ctx, path, message);
    const known = new Set(m.sources.map((s) => s.id));
    m.entryPoints.forEach((e, i) => {
      if (known.has(e.source.id))
        fail(
          ['entryPoints', i, 'source', 'id'],
          `repeats the source id ${JSON.stringify(e.source.id)}; give the entry point its own`,
        );
      known.add(e.source.id);
    });
    if (m.shutdownLogNote !== undefined && m.shutdownLog === undefined)
      fail(['shutdownLogNote'], 'needs shutdownLog lines to be about');
    checkSourceRefs(m, known, ctx);
    const fromTag = releaseFromImage({ release: { tagPattern: new RegExp(m.release.tagPattern) } }, m.image);
    const { pinned } = m.release;
    if (pinned !== undefined && fromTag !== undefined && compareReleases(pinned, fromTag) !== 0)
      fail(['release', 'pinned'], `is ${pinned}, but the image's tag says ${fromTag}`);
    // A drain flag that only some releases have needs a preset image whose release can be read.
    const { kind, flag, minVersion } = m.drain;
    const preset = pinned ?? fromTag;
    if (kind !== 'flag' || minVersion === undefined) return;
    if (!releaseParts(minVersion))
      fail(['drain', 'minVersion'], `must be a release such as 0.18.0, found ${JSON.stringify(minVersion)}`);
    else if (preset === undefined)
      fail(
        ['image'],
        `names no release (its tag does not match release.tagPattern and release.pinned is unset), but ${flag} exists only from ${minVersion}`,
      );
    else if (compareReleases(preset, minVersion) < 0)
      fail(['image'], `runs ${preset}, which predates ${flag} (from ${minVersion})`);
  })
  .transform(({ release, entryPoints, sources, images, ...m }) => {
    const tagPattern = new RegExp(release.tagPattern);
    const pinned = release.pinned ?? releaseFromImage({ release: { tagPattern } }, m.image);
    const clientTags = release.clientTags ? { clientTags: new RegExp(release.clientTags.pattern) } : {};
    return {
      ...m,
      images: images.map(({ tagPattern, repositoryPattern, ...image }) => ({
        ...image,
        ...(tagPattern === undefined ? {} : { tagPattern: new RegExp(tagPattern) }),
        ...(repositoryPattern === undefined ? {} : { repositoryPattern: new RegExp(repositoryPattern) }),
      })),
      release: { tagPattern, ...(pinned === undefined ? {} : { pinned }), ...clientTags },
      /** Entry points other than `command`, each citing its own source; empty when there are none. */
      entryPoints: entryPoints.map(({ source, ...point }) => ({ ...point, sources: [source.id] })),
      sources: [...sources, ...entryPoints.map((e) => e.source)],
      /** The latest `checked` date of its sources. */
      lastChecked: latestChecked([...sources, ...entryPoints.map((e) => e.source)]),
    };
  });

/** One model server. */
export type ModelServerProfile = z.output<typeof modelServerFile>;
/** A way a model server is started besides its `command`. */
export type EntryPoint = ModelServerProfile['entryPoints'][number];

function isRegExp(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/**
 * What the ledger finds wrong with a model-server profile (empty when every fact is sourced and ranged): every fact
 * must cite a source, and the per-release facts also need a range.
 */
export function modelServerLedgerProblems(m: ModelServerProfile): string[] {
  const entries: LedgerEntry[] = [
    { path: 'drain.sources', sources: m.drain.sources },
    { path: 'probes.sources', sources: m.probes.sources },
  ];
  // Timing that is an estimate or an example has no source by definition; its basis badge says so.
  if (m.probes.timing.basis === 'documented' || m.probes.timing.basis === 'observed') {
    entries.push({ path: 'probes.timing.sources', sources: m.probes.timing.sources });
  }
  if (m.shutdownLog) entries.push({ path: 'shutdownLog.sources', sources: m.shutdownLog.sources });
  m.entryPoints.forEach((e, i) => entries.push({ path: `entryPoints[${i}].sources`, sources: e.sources }));
  m.facts.forEach((f, i) =>
    entries.push({
      path: `facts[${i}]`,
      sources: f.sources,
      range: { since: f.since, until: f.until, rangeNote: f.rangeNote },
    }),
  );
  return ledgerProblems(entries, m.sources);
}

/** A model-server data file: its fields, the rules between them and the facts ledger. */
export const modelServerSchema = modelServerFile.superRefine(checkLedger(modelServerLedgerProblems));
