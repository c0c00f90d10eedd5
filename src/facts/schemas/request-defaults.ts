/**
 * The schema of the request defaults file (content/request-defaults.yaml): the defaults of request inputs that are
 * facts (the time per output token of the default model), each with its sources and the date they were checked.
 */
import { z } from './zod.ts';
import { checkSourceRefs, DATE, MODEL, numberFrom, source, sourceIds, text } from './common.ts';

/** The sourced defaults of the request inputs. */
export const requestDefaultsSchema = z
  .strictObject({
    /** The model the defaults are for (the default of the `model` input). */
    model: z.string().regex(MODEL),
    /** The default time per output token, what it is (a clause after "the default, 100 ms, is") and its sources. */
    tpotMs: z.strictObject({
      // The same range as the tpot-ms input (model/fields.ts).
      value: numberFrom(0.1, 10000),
      summary: text,
      sources: sourceIds,
    }),
    sources: z.array(source).min(1),
    lastChecked: z.string().regex(DATE),
  })
  .superRefine((d, ctx) => checkSourceRefs(d, new Set(d.sources.map((s) => s.id)), ctx));
export type RequestDefaults = z.output<typeof requestDefaultsSchema>;
