/**
 * The schemas of the output forms' facts (content/outputs/*.yaml): GIE's inferencepool chart for `helm-values`, and
 * LeaderWorkerSet's API and each model server's multi-node launch for `lws`.
 */
import { z } from './zod.ts';
import { checkSourceRefs, id, sourceIds, text, URL_PATTERN, wholeNumber } from './common.ts';

const COMMIT = /^[0-9a-f]{40}$/;
const TAG = /^v\d+\.\d+\.\d+$/;
const DOTTED = z.string().regex(/^[A-Za-z]+(\.[A-Za-z]+)*$/);
const ENV_NAME = z.string().regex(/^[A-Z_]+$/);
const PORT = wholeNumber(1, 65535);

/** The sources an output-facts file cites: an id and a URL each. */
const outputSources = z.array(z.strictObject({ id, url: z.string().regex(URL_PATTERN) })).min(1);

/** GIE's inferencepool chart at a release: where it is, the value paths Hitless sets, defaults and constants. */
export const chartFactsSchema = z.strictObject({
  id,
  chart: id,
  release: z.string().regex(TAG),
  commit: z.string().regex(COMMIT),
  repository: z.string().regex(/^oci:\/\/[a-z0-9./-]+$/),
  sources: outputSources,
  poolNamedAfterRelease: z.literal(true, {
    error: 'must be true: the helm-values form names the release after the pool',
  }),
  eppNameReleaseChars: wholeNumber(1, 253),
  values: z.strictObject({
    selector: DOTTED,
    targetPorts: DOTTED,
    modelServerType: DOTTED,
    failureMode: DOTTED,
    extProcPort: DOTTED,
    provider: DOTTED,
  }),
  defaults: z.strictObject({
    failureMode: text,
    extProcPort: PORT,
    targetPort: PORT,
    modelServerType: text,
    provider: text,
  }),
  modelServerTypes: z.array(id).min(1),
  /** Engine-type label values whose metrics the Endpoint Picker reads by built-in names (others get vLLM's). */
  eppMetricEngineTypes: z.array(id).default(() => []),
  providers: z.array(id).min(1),
  hardCoded: z.strictObject({
    gkeBackendTimeoutSeconds: wholeNumber(1, 86400),
    gkeHealthCheckPath: z.string().regex(/^\/\S*$/),
    eppTerminationGracePeriodSeconds: wholeNumber(0, 86400),
  }),
});
export type ChartFacts = z.output<typeof chartFactsSchema>;

/** LeaderWorkerSet at a release, and the model servers Hitless can run across its pods. */
export const lwsFactsSchema = z
  .strictObject({
    id,
    release: z.string().regex(TAG),
    commit: z.string().regex(COMMIT),
    apiVersion: z.string().regex(/^[a-z0-9.-]+\/v[0-9a-z]+$/),
    sources: outputSources,
    env: z.strictObject({ leaderAddress: ENV_NAME, groupSize: ENV_NAME, workerIndex: ENV_NAME }),
    restartPolicy: text,
    /** How each model server runs one replica over several pods: shell lines with `{server}`, `{gpus}`, `{gpusPerPod}`, `{nodes}`. */
    multiNode: z.record(
      z.string(),
      /** `note`: how this launch differs from the upstream example it follows, printed above the worker's command. */
      z.strictObject({ sources: sourceIds, leaderShell: text, workerShell: text, note: text.optional() }),
    ),
  })
  .superRefine((l, ctx) => checkSourceRefs(l, new Set(l.sources.map((s) => s.id)), ctx));
export type LwsFacts = z.output<typeof lwsFactsSchema>;
