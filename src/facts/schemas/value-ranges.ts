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
    /**
     * The Go type the API server decodes the JSON value into: a whole number, or `intOrPercent` (intstr.IntOrString:
     * an int32, or a string of digits and `%`, as ValidatePositiveIntOrPercent accepts).
     */
    type: z.enum(['int32', 'int64', 'intOrPercent']),
    minimum: z.number().int(),
    /** A maximum that validation sets below the type's own (for `intOrPercent`, of the count). */
    maximum: z.number().int().optional(),
    /** For `intOrPercent`: the greatest percentage validation accepts (IsNotMoreThan100Percent), when it sets one. */
    percentMaximum: z.number().int().min(0).optional(),
    why: text,
    sources: sourceIds,
  })
  .refine((r) => r.maximum === undefined || r.maximum >= r.minimum, { message: 'maximum is below minimum' })
  .refine((r) => r.percentMaximum === undefined || r.type === 'intOrPercent', {
    message: 'percentMaximum is for intOrPercent fields',
  });

/** One side of a relation: a path from the object, and the value the API server defaults it to when absent. */
const side = z.strictObject({
  path: z.string().regex(/^[A-Za-z]+(\.[A-Za-z]+)*$/),
  default: z.union([z.number().int(), z.string().min(1)]),
});

/**
 * A rule between two fields of one object that validation enforces after defaulting: `greaterThan` (left > right),
 * `notBothZero` (a count or percentage of 0 on both sides, `0%` being 0). `when` limits it to objects where a field
 * has one value (after its default).
 */
const relation = z.strictObject({
  kinds: z.array(z.string().min(1)).min(1),
  left: side,
  relation: z.enum(['greaterThan', 'notBothZero']),
  right: side,
  when: z.strictObject({ path: z.string().min(1), equals: z.string().min(1), default: z.string().min(1) }).optional(),
  why: text,
  sources: sourceIds,
});

/** The file: its fields, sources and the date they were checked. */
export const valueRangesSchema = z
  .strictObject({
    fields: z.array(valueRange).min(1),
    relations: z.array(relation),
    sources: z.array(source).min(1),
    lastChecked: z.string().regex(DATE),
  })
  .superRefine((d, ctx) => checkSourceRefs(d, new Set(d.sources.map((s) => s.id)), ctx));
export type ValueRanges = z.output<typeof valueRangesSchema>;
/** One field's range. */
export type ValueRange = ValueRanges['fields'][number];
/** One relation between two fields of an object. */
export type ValueRelation = ValueRanges['relations'][number];
