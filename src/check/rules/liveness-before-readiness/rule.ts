import { formatSeconds as s } from '../../../model/seconds.ts';
import { setFix } from '../context.ts';
import { readProbe } from '../../workload/pod.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'liveness-before-readiness',
  order: 120,
  scope: 'workload',
  severity: 'warning',
  summary: 'Liveness gives up (period × threshold) before readiness does.',
  remediation: 'Raise the liveness failureThreshold until period \u00d7 threshold covers the readiness window.',
  remedy: 'applied',
  // The plan compares the manifest's liveness with its readiness (or with the readiness probe the fix adds).
  check: ({ container, plan }) => {
    const liveness = readProbe(container, 'livenessProbe');
    const warning = plan.warnings.find((w) => w.code === 'liveness-faster-than-readiness');
    if (!liveness || !warning) return [];
    return [
      {
        severity: 'warning',
        path: [...liveness.path, 'failureThreshold'],
        message: warning.message.replace(/ Raise .*$/, ''),
      },
    ];
  },
  // The liveness failureThreshold that waits out the readiness window.
  fix: ({ container, object, plan }) => {
    const liveness = readProbe(container, 'livenessProbe')!;
    const readinessWindow = Number(plan.derivation.find((d) => d.field === 'readinessProbe.window')?.value);
    const threshold = Math.ceil(readinessWindow / liveness.periodSeconds);
    const why = `${s(liveness.periodSeconds)} period × ${threshold} ≥ ${s(readinessWindow)} readiness window`;
    return setFix(object, [...liveness.path, 'failureThreshold'], threshold, why);
  },
});
