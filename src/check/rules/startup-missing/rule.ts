import { formatSeconds as s } from '../../../model/seconds.ts';
import { formulaOf } from '../context.ts';
import { probeWindowSeconds, readProbe } from '../../workload/pod.ts';
import { addProbeFix } from '../shared/probes.ts';
import { defineRule, type Verdict } from '../rule.ts';

export const rule = defineRule({
  code: 'startup-missing',
  order: 130,
  scope: 'workload',
  severity: { error: 'when liveness would restart a loading model', info: 'otherwise' },
  restsOn: ['model load time'],
  summary: 'No startup probe for the model load.',
  remediation: 'Add a startup probe whose period \u00d7 failureThreshold covers the model load.',
  remedy: 'applied',
  appliesTo: ({ container }) => !readProbe(container, 'startupProbe') && Boolean(readProbe(container, 'livenessProbe')),
  check: ({ container, inputs }): Verdict[] => {
    const liveness = readProbe(container, 'livenessProbe')!;
    const window = probeWindowSeconds(liveness);
    const load = s(inputs.startupSeconds);
    const restarts = window < inputs.startupSeconds;
    return [
      {
        severity: restarts ? 'error' : 'info',
        path: [...container.path, 'startupProbe'],
        message: restarts
          ? `Without a startup probe the liveness probe restarts the container ${s(window)} after it starts (${liveness.initialDelaySeconds ? `${s(liveness.initialDelaySeconds)} delay + ` : ''}`
            + `${s(liveness.periodSeconds)} × ${liveness.failureThreshold}), before a ${load} model load ends: new pods restart in a loop and the rollout never finishes.`
          : `The liveness probe waits ${s(window)} before it can restart the container, long enough for a ${load} model load but slow to catch a hung server; `
            + 'a startup probe covers the load so that liveness can be quick.',
      },
    ];
  },
  fix: (ctx) =>
    addProbeFix(ctx, 'startupProbe', ctx.plan.probes.startup, formulaOf(ctx.plan, 'startupProbe.failureThreshold')),
});
