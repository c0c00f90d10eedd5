/** Rules on the model-server container's probes: readiness, startup (model load) and liveness. */
import type { PlannedProbe } from '../../../model/plan.ts';
import { formatSeconds as s } from '../../../model/seconds.ts';
import { formulaOf, report, setEdit, snippet, type WorkloadContext } from '../context.ts';
import type { Fix } from '../findings.ts';
import { findFlag } from '../../workload/command-line.ts';
import { flagFor } from '../../workload/identify-server.ts';
import { probeWindowSeconds, readProbe, servingPort } from '../../workload/pod.ts';
import { serverArgs } from '../../workload/server-invocation.ts';

/** A probe for the fix: the plan's timing, checking the profile's path on the serving port. */
/**
 * The port the server answers on, as a probe should name it: the server's own --port flag (the declared port
 * of that number, by name when it has one), else the declared serving port; undefined when neither says.
 */
export function probePort(ctx: WorkloadContext): string | number | undefined {
  const flag = ctx.serverKnown ? flagFor(ctx.server, '{port}') : undefined;
  const value = flag && ctx.invocation?.found ? findFlag(serverArgs(ctx.invocation), flag)?.value : undefined;
  const listen = value !== undefined && /^\d{1,5}$/.test(value) ? Number(value) : undefined;
  if (listen !== undefined) {
    const declared = ctx.container.ports.find((p) => p.containerPort === listen);
    return declared?.name ?? listen;
  }
  const port = servingPort(ctx.container);
  return port?.name ?? port?.containerPort;
}

function probeValue(ctx: WorkloadContext, planned: PlannedProbe): Record<string, unknown> {
  const portRef = probePort(ctx) ?? ctx.inputs.port;
  const check =
    ctx.serverKnown && planned.path
      ? { httpGet: { path: planned.path, port: portRef } }
      : { tcpSocket: { port: portRef } };
  return {
    ...check,
    periodSeconds: planned.periodSeconds,
    timeoutSeconds: planned.timeoutSeconds,
    failureThreshold: planned.failureThreshold,
  };
}

function addProbeFix(
  ctx: WorkloadContext,
  key: 'readinessProbe' | 'startupProbe',
  planned: PlannedProbe,
  why?: string,
): Fix {
  const value = probeValue(ctx, planned);
  if (probePort(ctx) === undefined) {
    return {
      text: `Manual: add this ${key} with the port the ${ctx.container.name} container's server listens on (the container declares no port and the command sets none):\n${snippet(key, value)}`,
      edits: [],
    };
  }
  const path = [...ctx.container.path, key];
  const edits = [setEdit(ctx.object, path, value)];
  if (why) edits.push(setEdit(ctx.object, [...path, 'failureThreshold'], planned.failureThreshold, ` ${why}`));
  return { text: snippet(key, value, why ? [[['failureThreshold'], why]] : []), edits };
}

/** Check readiness, startup and liveness probes. */
export function checkProbes(ctx: WorkloadContext): void {
  const { check, object, container, plan, inputs } = ctx;
  const readiness = readProbe(container, 'readinessProbe');
  const startup = readProbe(container, 'startupProbe');
  const liveness = readProbe(container, 'livenessProbe');
  const startupWhy = formulaOf(plan, 'startupProbe.failureThreshold');

  if (!readiness) {
    report(
      check,
      object,
      'readiness-missing',
      startup ? 'warning' : 'error',
      [...container.path, 'readinessProbe'],
      startup
        ? 'Without a readiness probe a server that stops answering stays in rotation, and the rollout counts it as available.'
        : 'Without a readiness or startup probe the pod counts as ready as soon as its container starts: the rollout moves on to the next '
            + 'old pod and gateways route requests to a server still loading its model.',
      addProbeFix(ctx, 'readinessProbe', plan.probes.readiness),
    );
  }

  if (!startup && liveness) {
    const window = probeWindowSeconds(liveness);
    const load = s(inputs.startupSeconds);
    if (window < inputs.startupSeconds) {
      report(
        check,
        object,
        'startup-missing',
        'error',
        [...container.path, 'startupProbe'],
        `Without a startup probe the liveness probe restarts the container ${s(window)} after it starts (${liveness.initialDelaySeconds ? `${s(liveness.initialDelaySeconds)} delay + ` : ''}`
          + `${s(liveness.periodSeconds)} × ${liveness.failureThreshold}), before a ${load} model load ends: new pods restart in a loop and the rollout never finishes.`,
        addProbeFix(ctx, 'startupProbe', plan.probes.startup, startupWhy),
      );
    } else {
      report(
        check,
        object,
        'startup-missing',
        'info',
        [...container.path, 'startupProbe'],
        `The liveness probe waits ${s(window)} before it can restart the container, long enough for a ${load} model load but slow to catch a hung server; `
          + 'a startup probe covers the load so that liveness can be quick.',
        addProbeFix(ctx, 'startupProbe', plan.probes.startup, startupWhy),
      );
    }
  } else if (startup && probeWindowSeconds(startup) < inputs.startupSeconds) {
    const edits = [
      setEdit(object, [...startup.path, 'failureThreshold'], plan.probes.startup.failureThreshold, ` ${startupWhy}`),
    ];
    if (startup.periodSeconds !== plan.probes.startup.periodSeconds)
      edits.push(setEdit(object, [...startup.path, 'periodSeconds'], plan.probes.startup.periodSeconds));
    report(
      check,
      object,
      'startup-too-short',
      'error',
      [...startup.path, 'failureThreshold'],
      `The startup probe gives the model ${s(probeWindowSeconds(startup))} to load (${startup.initialDelaySeconds ? `${s(startup.initialDelaySeconds)} delay + ` : ''}`
        + `${s(startup.periodSeconds)} × ${startup.failureThreshold}), less than the ${s(inputs.startupSeconds)} model load: a slow load is killed and restarts in a loop.`,
      { text: `failureThreshold: ${plan.probes.startup.failureThreshold} # ${startupWhy}`, edits },
    );
  }

  // Every second with a one-second timeout: a server busy generating answers late, fails readiness and leaves the pool.
  if (readiness && readiness.periodSeconds <= 1 && readiness.timeoutSeconds <= 1) {
    // The profile's timing, not the plan's: the plan reads its readiness period from this very probe.
    const { periodSeconds, timeoutSeconds } = ctx.server.probes.readiness;
    report(
      check,
      object,
      'readiness-too-tight',
      'warning',
      [...readiness.path, 'timeoutSeconds'],
      `The readiness probe runs every ${s(readiness.periodSeconds)} with a ${s(readiness.timeoutSeconds)} timeout: a server busy with long generations can answer later than that, `
        + `fail ${readiness.failureThreshold} checks in a row and leave the pool under load, so its requests go to fewer pods.`,
      {
        text: `timeoutSeconds: ${timeoutSeconds}, periodSeconds: ${periodSeconds} (the ${ctx.server.name} profile\u2019s)`,
        edits: [
          setEdit(object, [...readiness.path, 'timeoutSeconds'], timeoutSeconds),
          setEdit(object, [...readiness.path, 'periodSeconds'], periodSeconds),
        ],
      },
    );
  }

  // A readiness path other than the profile's: a note with the profile's reasons, not a fix (the sources differ).
  const readinessPath =
    readiness && typeof (readiness.value.httpGet as { path?: unknown } | undefined)?.path === 'string'
      ? (readiness.value.httpGet as { path: string }).path
      : undefined;
  const profilePath = ctx.server.probes.readiness.path;
  if (ctx.serverKnown && readiness && readinessPath && profilePath && readinessPath !== profilePath) {
    report(
      check,
      object,
      'readiness-path-differs',
      'info',
      [...readiness.path, 'httpGet', 'path'],
      `The readiness probe checks ${readinessPath}, where the ${ctx.server.name} profile checks ${profilePath}: ${ctx.server.probes.explanation}`,
      { text: `path: ${profilePath}`, edits: [] },
    );
  }

  // The plan compares the manifest's liveness with its readiness (or with the readiness probe the fix adds).
  const warning = plan.warnings.find((w) => w.code === 'liveness-faster-than-readiness');
  if (liveness && warning) {
    const readinessWindow = Number(plan.derivation.find((d) => d.field === 'readinessProbe.window')?.value);
    const threshold = Math.ceil(readinessWindow / liveness.periodSeconds);
    report(
      check,
      object,
      'liveness-before-readiness',
      'warning',
      [...liveness.path, 'failureThreshold'],
      warning.message.replace(/ Raise .*$/, ''),
      {
        text: `failureThreshold: ${threshold} # ${s(liveness.periodSeconds)} period × ${threshold} ≥ ${s(readinessWindow)} readiness window`,
        edits: [
          setEdit(
            object,
            [...liveness.path, 'failureThreshold'],
            threshold,
            ` ${s(liveness.periodSeconds)} period × ${threshold} ≥ ${s(readinessWindow)} readiness window`,
          ),
        ],
      },
    );
  }
}
