import { readKinds, servingKindOf, unreadServing } from '../../workload/locate.ts';
import { groupOf } from '../../workload/gateway-policies.ts';
import { ignoredByKind, namesOf, unknownPodSpec } from '../shared/ignored.ts';
import { servicesOf } from '../../workload/serving-ports.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'unknown-kind',
  order: 310,
  scope: 'manifest',
  severity: 'info',
  summary: 'Objects of kinds the checker does not read (ignored).',
  remediation: 'Nothing: check the model-server workload and its pool.',
  remedy: 'manual',
  check: (ctx) => {
    // A ConfigMap a container runs a script from (script-file.ts) and a Service that selects the pods of a workload of the input
    // (serving-ports.ts) are read.
    const readHere = new Set([
      ...ctx.contexts.flatMap((c) => c.containers.flatMap((k) => (k.line.file ? [k.line.file.configMap] : []))),
      ...ctx.located.workloads.flatMap((workload) => servicesOf(ctx.located, workload)),
    ]);
    return [
      ...ignoredByKind(ctx)
        .filter((objects) => !unreadServing(objects[0], ctx.profiles) && !unknownPodSpec(objects[0], ctx.profiles))
        .map((objects) => objects.filter((o) => !readHere.has(o)))
        .filter((objects) => objects.length > 0)
        .map((objects) => {
          const first = objects[0];
          const kinds = readKinds(ctx.profiles);
          const pods = servingKindOf(first, ctx.profiles)?.kind.pods;
          const templates = pods?.serving.map((t) => (pods.each ? `${pods.each}[].${t.path}` : t.path)).join(' or ');
          return {
            severity: 'info' as const,
            object: first,
            path: ['kind'],
            message: templates
              ? `Ignored ${namesOf(objects)}: no pod template at ${templates}, where the checker reads this kind's pods.`
              : first.kind === 'LLMInferenceServiceConfig' && groupOf(first.apiVersion) === 'serving.kserve.io'
                ? `Ignored ${namesOf(objects)}: no LLMInferenceService of the input names it in baseRefs, and the checker reads a config only as part of the one that does.`
                : kinds.includes(first.kind)
                  ? `Ignored ${namesOf(objects)}: the checker reads ${first.kind} only in its usual API group, not ${first.apiVersion || 'an empty apiVersion'}, or it has no pod template.`
                  : `Ignored ${namesOf(objects)}: the checker reads ${kinds.join(', ')}.`,
          };
        }),
      ...ctx.manifest.strays.map(([document, what]) => {
        const start = ctx.manifest.documents[document]?.range[0];
        return {
          severity: 'info' as const,
          path: [],
          message: `Document ${document + 1} is ${what}; it was ignored.`,
          stray: { document, line: start === undefined ? undefined : ctx.manifest.lineCounter.linePos(start).line },
        };
      }),
    ];
  },
});
