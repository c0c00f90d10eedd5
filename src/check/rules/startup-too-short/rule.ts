import { formatSeconds as s } from '../../../model/seconds.ts';
import { formulaOf, setEdit } from '../context.ts';
import { probeWindowSeconds, readProbe } from '../../workload/pod.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'startup-too-short',
  order: 140,
  scope: 'workload',
  severity: 'error',
  restsOn: ['model load time'],
  summary: 'The startup probe gives up before the model load time.',
  remediation: 'Raise the startup probe\u2019s failureThreshold to cover the model load.',
  remedy: 'applied',
  check: ({ container, inputs }) => {
    const startup = readProbe(container, 'startupProbe');
    if (!startup || probeWindowSeconds(startup) >= inputs.startupSeconds) return [];
    return [
      {
        severity: 'error',
        path: [...startup.path, 'failureThreshold'],
        message:
          `The startup probe gives the model ${s(probeWindowSeconds(startup))} to load (${startup.initialDelaySeconds ? `${s(startup.initialDelaySeconds)} delay + ` : ''}`
          + `${s(startup.periodSeconds)} × ${startup.failureThreshold}), less than the ${s(inputs.startupSeconds)} model load: a slow load is killed and restarts in a loop.`,
      },
    ];
  },
  fix: ({ container, object, plan }) => {
    const startup = readProbe(container, 'startupProbe')!;
    const why = formulaOf(plan, 'startupProbe.failureThreshold');
    const edits = [
      setEdit(object, [...startup.path, 'failureThreshold'], plan.probes.startup.failureThreshold, ` ${why}`),
    ];
    if (startup.periodSeconds !== plan.probes.startup.periodSeconds)
      edits.push(setEdit(object, [...startup.path, 'periodSeconds'], plan.probes.startup.periodSeconds));
    return { text: `failureThreshold: ${plan.probes.startup.failureThreshold} # ${why}`, edits };
  },
});
