import { readProbe } from '../../workload/pod.ts';
import { defineRule, type Verdict } from '../rule.ts';
import { manualFix } from '../findings.ts';
import { openPath } from '../shared/probes.ts';

export const rule = defineRule({
  code: 'readiness-path-differs',
  order: 110,
  scope: 'workload',
  severity: {
    warning: 'a port check on a server that accepts connections before its model has loaded',
    info: 'a path other than the profile\u2019s',
  },
  summary:
    'A readiness path other than the model-server profile\u2019s, with the profile\u2019s reasons; a port check on a server that listens before it can serve.',
  remediation:
    'Weigh the profile\u2019s reasons and change the path by hand if they apply; check the readiness path, not the port.',
  remedy: 'manual',
  // A readiness path other than the profile's: a note with the profile's reasons, not a fix (the sources differ).
  appliesTo: (ctx) => ctx.serverKnown,
  check: (ctx): Verdict[] => {
    const { container, server } = ctx;
    const readiness = readProbe(container, 'readinessProbe');
    // Where an API key guards the profile's path, its open path is the one to compare with.
    const profilePath = server.probes.readiness.path && openPath(ctx, server.probes.readiness.path);
    if (!readiness || !profilePath) return [];
    if (readiness.value.tcpSocket !== undefined && server.probes.listensBeforeReady)
      return [
        {
          severity: 'warning',
          path: [...readiness.path, 'tcpSocket'],
          message:
            `The readiness probe only checks that the port accepts connections, which ${server.name} does before its model has loaded `
            + `(${profilePath} answers an error until then): a new pod is counted ready, and sent requests, while it cannot serve them. `
            + `Probe ${profilePath} with httpGet instead.`,
        },
      ];
    const httpGet = readiness.value.httpGet as { path?: unknown } | undefined;
    const readinessPath = typeof httpGet?.path === 'string' ? httpGet.path : undefined;
    if (!readinessPath || readinessPath === profilePath) return [];
    return [
      {
        severity: 'info',
        path: [...readiness.path, 'httpGet', 'path'],
        message: `The readiness probe checks ${readinessPath}, where the ${server.name} profile checks ${profilePath}: ${server.probes.explanation}`,
      },
    ];
  },
  fix: (ctx, verdict) => {
    const path = openPath(ctx, ctx.server.probes.readiness.path ?? '');
    return verdict.severity === 'warning'
      ? manualFix(
          `replace tcpSocket with httpGet: { path: ${path}, port: the same port } (one handler: remove tcpSocket)`,
        )
      : { text: `path: ${path}`, edits: [] };
  },
});
