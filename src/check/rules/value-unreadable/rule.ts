import { formulaOf, setEdit, type WorkloadContext } from '../context.ts';
import type { Fix } from '../findings.ts';
import { parseDuration } from '../../read/duration.ts';
import { quote, valueAt } from '../../read/path.ts';
import type { ManifestObject } from '../../read/read-manifest.ts';
import { flagPath } from '../shared/drain-flag.ts';
import { policyTimeouts, routeRules } from '../shared/gateway.ts';
import { annotationOf, IGNORE_ANNOTATION, parseIgnore } from '../shared/ignore-annotation.ts';
import { readStrategy } from '../shared/strategy.ts';

import { defineRule, type Verdict } from '../rule.ts';

/** A value the checker cannot read, and for a preStop sleep without seconds, the seconds to write. */
type Unreadable = Verdict & { object: ManifestObject; planned?: Fix };

export const rule = defineRule({
  code: 'value-unreadable',
  order: 300,
  scope: 'manifest',
  severity: { info: '', warning: 'for a hitless.dev/ignore annotation it cannot read (nothing is suppressed)' },
  summary: 'A drain field that is set to something other than a whole number.',
  remediation: 'Write the field as a whole number (a route timeout as a Gateway API duration such as 300s).',
  remedy: 'manual',
  check: (ctx) => [
    ...ctx.contexts.flatMap(inWorkload),
    ...policyTimeouts(ctx)
      .filter(({ field }) => field.state === 'bad')
      .map(({ policy, setting, field }) => ({
        severity: 'info' as const,
        object: policy,
        path: setting.path,
        message: `${setting.path.at(-1)} is ${quote(field.state === 'bad' ? field.raw : '')}, not a whole number of seconds.`,
      })),
    ...routeRules(ctx).flatMap(({ route, index, rule, plan }) =>
      (['request', 'backendRequest'] as const).flatMap((key) => {
        const raw = valueAt(rule, ['timeouts', key]);
        if (!plan || raw === undefined || (typeof raw === 'string' && parseDuration(raw) !== undefined)) return [];
        return [
          {
            severity: 'info' as const,
            object: route,
            path: ['spec', 'rules', index, 'timeouts', key],
            message: `timeouts.${key} is ${quote(raw)}, not a Gateway API duration such as 300s.`,
          },
        ];
      }),
    ),
    ...ctx.manifest.objects.flatMap((object) => {
      const value = annotationOf(object);
      const parsed = value === undefined ? undefined : parseIgnore(value);
      if (!parsed || !('problem' in parsed)) return [];
      return [
        {
          severity: 'warning' as const,
          object,
          path: ['metadata', 'annotations', IGNORE_ANNOTATION],
          message: `${parsed.problem}. Nothing was suppressed.`,
        },
      ];
    }),
  ],
  fix: (_ctx, verdict: Unreadable) => verdict.planned,
});

/** The values of a model-server workload the checker cannot read: preStop sleep seconds, drain flag, rollout bounds. */
function inWorkload(ctx: WorkloadContext): Unreadable[] {
  const { object, plan, targets: t, server } = ctx;
  const found: Unreadable[] = [];
  if (t.preStop.kind === 'sleep' && t.preStop.seconds.state === 'unset') {
    found.push({
      severity: 'info',
      object,
      path: t.preStop.path,
      message: 'The preStop sleep is missing its seconds; Kubernetes rejects it.',
      planned: {
        text: `seconds: ${t.preStopTarget}`,
        edits: [setEdit(object, t.preStop.path, t.preStopTarget, ` ${formulaOf(plan, 'preStopSeconds')}`)],
      },
    });
  }
  const f = t.flag;
  if (f?.invocation.found && f.now === undefined) {
    found.push({
      severity: 'info',
      object,
      path: flagPath(ctx),
      message: f.use?.valueToken?.references?.length
        ? `${f.flag} takes its value from ${f.use.valueToken.references.map((r) => `$(${r})`).join(', ')}, which the pod gets only when it starts (an env valueFrom, envFrom, or a variable the manifest does not define), so the checker cannot tell how long ${server.name} drains; it should be ${plan.drainSeconds}.`
        : `${f.flag} is ${quote(f.use?.valueToken?.text ?? f.use?.value ?? '')}, not a whole number of seconds the checker can read, so it cannot tell how long ${server.name} drains; it should be ${plan.drainSeconds}.`,
    });
  }
  const strategy = readStrategy(ctx);
  if (
    strategy
    && strategy.type !== 'Recreate'
    && (strategy.surge === undefined || strategy.unavailable === undefined)
  ) {
    found.push({
      severity: 'info',
      object,
      path: strategy.shape.bounds,
      message: `maxSurge ${quote(strategy.surgeRaw ?? strategy.shape.surgeDefault)} or maxUnavailable ${quote(strategy.unavailableRaw ?? strategy.shape.unavailableDefault)} is neither a count nor a percentage.`,
    });
  }
  return found;
}
