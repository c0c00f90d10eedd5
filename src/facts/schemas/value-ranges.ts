/**
 * The schema of content/kubernetes/value-ranges.yaml: the whole-number fields of a workload that the checker reads or
 * its fixes write, each with its Go type and the range the API server's validation accepts, and the sources.
 */
import { z } from 'zod';
import { checkSourceRefs, DATE, source, sourceIds, text } from './common.ts';

/** Where a field's path starts: the object, its pod spec, or one of its containers. */
const within = z.enum(['object', 'podSpec', 'container']);

/** One field: where it is, its Go type and the values the API server accepts. */
const valueRange = z
  .strictObject({
    /** The workload kinds that have it (every workload kind when absent). */
    kinds: z.array(z.string().min(1)).min(1).optional(),
    within,
    /** The dotted path from `within` to the field. */
    path: z.string().regex(/^[A-Za-z]+(\.[A-Za-z]+)*$/),
    /** The Go type the API server decodes the JSON number into. */
    type: z.enum(['int32', 'int64']),
    minimum: z.number().int(),
    /** A maximum that validation sets below the type's own. */
    maximum: z.number().int().optional(),
    why: text,
    sources: sourceIds,
  })
  .refine((r) => r.maximum === undefined || r.maximum >= r.minimum, { message: 'maximum is below minimum' });

/** The file: its fields, sources and the date they were checked. */
export const valueRangesSchema = z
  .strictObject({
    fields: z.array(valueRange).min(1),
    sources: z.array(source).min(1),
    lastChecked: z.string().regex(DATE),
  })
  .superRefine((d, ctx) => checkSourceRefs(d, new Set(d.sources.map((s) => s.id)), ctx));
export type ValueRanges = z.output<typeof valueRangesSchema>;
/** One field's range. */
export type ValueRange = ValueRanges['fields'][number];
