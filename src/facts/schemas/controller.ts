/**
 * The schema of a serving controller's file (content/controllers/<id>.yaml): the custom resources it turns into pods,
 * where their pod templates are, what the controller does to a template on its way to the pod, and the release whose
 * code these facts were read at, each with its sources.
 */
import { z } from './zod.ts';
import { checkSourceRefs, DATE, id, source, sourceIds, text, wholeNumber } from './common.ts';

/** A path of field names from an object (`spec.template.roles`). */
const fieldPath = z.string().regex(/^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/, {
  error: (i) => `must be field names joined by dots, such as spec.template, found ${JSON.stringify(i.input)}`,
});

/** A pod template in a resource: a PodTemplateSpec (metadata and spec) or a bare PodSpec. */
const template = z.strictObject({
  path: fieldPath,
  shape: z.enum(['PodTemplateSpec', 'PodSpec']),
});

/**
 * Pod fields a controller sets on the way from the template to the pod, relative to the pod spec; a container field
 * applies to every container (`containers.lifecycle.preStop`). A finding on one is a note, and its fix is by hand.
 */
const ownedField = z.enum([
  'terminationGracePeriodSeconds',
  'containers.lifecycle.preStop',
  'containers.readinessProbe',
  'containers.livenessProbe',
  'containers.startupProbe',
  'containers.command',
  'containers.args',
]);

/** A count in a resource, and the API's default when it is unset. */
const count = z.strictObject({ path: fieldPath, default: wholeNumber(0, 100000) });

/** One kind of resource the controller serves from. */
const servingKind = z.strictObject({
  group: z.string().regex(/^[a-z0-9.-]+$/),
  kind: z.string().regex(/^[A-Z][A-Za-z0-9]*$/),
  /** What the controller makes of it, in a clause after its name ("copies each role's entryTemplate …"). */
  summary: text,
  /**
   * Where the pods' templates are, when the checker reads them. Absent: the resource holds no pod template the
   * checker can read (the controller builds the pod from its own defaults or from other objects), and a warning
   * names it instead.
   */
  pods: z
    .strictObject({
      /** A list whose entries each make a separate set of pods (`spec.template.roles`); the paths below are then within an entry. */
      each: fieldPath.optional(),
      /** The template of the pods that serve requests: the first of these the resource has. */
      serving: z.array(template).min(1),
      /** A multi-node server's other pods; when `serving` fell back to this same template, every pod is made from it. */
      workers: template.optional(),
      /** Pods (or groups of pods) per set. */
      replicas: count.optional(),
      /** Pods per group: all of them (`pods`, as a LeaderWorkerSet's size counts) or the workers only (`workers`). */
      groupSize: count.extend({ counts: z.enum(['pods', 'workers']) }).optional(),
      /**
       * Labels the controller puts on the serving pods besides the template's (which win), by key; the value is a
       * text in which `{name}` is the resource's name, `{entry.PATH}` a field of the list entry and `{object.PATH}` one
       * of the resource (`{object.spec.models.0.name}`); a label whose field is not a text in the input is left out.
       */
      addsLabels: z.record(z.string().regex(/^[A-Za-z0-9./_-]+$/), text).default({}),
      owns: z.array(ownedField).default([]),
    })
    .optional(),
  /** The controller release whose code was read for these facts (`v0.3.0`). */
  at: text,
  sources: sourceIds,
});
export type ServingKind = z.output<typeof servingKind>;

export const controllerSchema = z
  .strictObject({
    id,
    name: text,
    order: wholeNumber(0, 10000),
    kinds: z.array(servingKind).min(1),
    sources: z.array(source).min(1),
    lastChecked: z.string().regex(DATE),
  })
  .superRefine((c, ctx) => checkSourceRefs(c, new Set(c.sources.map((s) => s.id)), ctx));
export type ControllerFacts = z.output<typeof controllerSchema>;
