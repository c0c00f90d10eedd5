import { formatSeconds as s } from '../../../model/seconds.ts';
import { setEdit } from '../context.ts';
import { readProbe } from '../../workload/pod.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'readiness-too-tight',
  order: 210,
  scope: 'workload',
  severity: 'warning',
  summary:
    'A readiness probe every second with a one-second timeout: a busy server misses it and leaves the pool mid-load.',
  remediation: 'Use the profile\u2019s readiness period and timeout.',
  remedy: 'applied',
  check: ({ container }) => {
    // Every second with a one-second timeout: a server busy generating answers late, fails readiness and leaves the pool.
    const readiness = readProbe(container, 'readinessProbe');
    if (!readiness || readiness.periodSeconds > 1 || readiness.timeoutSeconds > 1) return [];
    return [
      {
        severity: 'warning',
        path: [...readiness.path, 'timeoutSeconds'],
        message:
          `The readiness probe runs every ${s(readiness.periodSeconds)} with a ${s(readiness.timeoutSeconds)} timeout: a server busy with long generations can answer later than that, `
          + `fail ${readiness.failureThreshold} checks in a row and leave the pool under load, so its requests go to fewer pods.`,
      },
    ];
  },
  fix: ({ container, object, server }) => {
    const readiness = readProbe(container, 'readinessProbe')!;
    // The profile's timing, not the plan's: the plan reads its readiness period from this very probe.
    const { periodSeconds, timeoutSeconds } = server.probes.readiness;
    return {
      text: `timeoutSeconds: ${timeoutSeconds}, periodSeconds: ${periodSeconds} (the ${server.name} profile\u2019s)`,
      edits: [
        setEdit(object, [...readiness.path, 'timeoutSeconds'], timeoutSeconds),
        setEdit(object, [...readiness.path, 'periodSeconds'], periodSeconds),
      ],
    };
  },
});
