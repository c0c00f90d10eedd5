import { readProbe } from '../../workload/pod.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'readiness-path-differs',
  order: 110,
  scope: 'workload',
  severity: 'info',
  summary: 'A readiness path other than the model-server profile\u2019s, with the profile\u2019s reasons.',
  remediation: 'Weigh the profile\u2019s reasons and change the path by hand if they apply.',
  remedy: 'manual',
  // A readiness path other than the profile's: a note with the profile's reasons, not a fix (the sources differ).
  appliesTo: (ctx) => ctx.serverKnown,
  check: ({ container, server }) => {
    const readiness = readProbe(container, 'readinessProbe');
    const httpGet = readiness?.value.httpGet as { path?: unknown } | undefined;
    const readinessPath = typeof httpGet?.path === 'string' ? httpGet.path : undefined;
    const profilePath = server.probes.readiness.path;
    if (!readiness || !readinessPath || !profilePath || readinessPath === profilePath) return [];
    return [
      {
        severity: 'info',
        path: [...readiness.path, 'httpGet', 'path'],
        message: `The readiness probe checks ${readinessPath}, where the ${server.name} profile checks ${profilePath}: ${server.probes.explanation}`,
      },
    ];
  },
  fix: ({ server }) => ({ text: `path: ${server.probes.readiness.path}`, edits: [] }),
});
