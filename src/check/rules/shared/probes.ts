/** The probe the plan wants, as a fix on the port the server answers on: shared by the missing-probe rules. */
import type { PlannedProbe } from '../../../model/plan.ts';
import { setEdit, snippet, type WorkloadContext } from '../context.ts';
import { manualFix, type Fix } from '../findings.ts';
import { findFlag } from '../../workload/command-line.ts';
import { flagFor } from '../../workload/identify-server.ts';
import { servingPort } from '../../workload/pod.ts';
import { servingPorts } from '../../workload/serving-ports.ts';
import { isRecord } from '../../read/path.ts';
import { serverArgs } from '../../workload/server-invocation.ts';

/** What the server's own --port flag (its profile's port flag) says, as written; undefined when it is not set. */
function portFlagValue(ctx: WorkloadContext): string | undefined {
  const flag = ctx.serverKnown ? flagFor(ctx.server, '{port}') : undefined;
  return flag && ctx.invocation?.found ? findFlag(serverArgs(ctx.invocation), flag)?.value : undefined;
}

/** The port the server's own port flag sets, when its command writes a number (1 to 65535). */
export function listenPort(ctx: WorkloadContext): number | undefined {
  const value = portFlagValue(ctx);
  return value !== undefined && /^\d{1,5}$/.test(value) && Number(value) > 0 && Number(value) < 65536
    ? Number(value)
    : undefined;
}

/**
 * The port the server answers on, as a probe should name it: the server's own --port flag (the declared port
 * of that number, by name when it has one), else the declared serving port; undefined when neither says.
 */
function probePort(ctx: WorkloadContext): string | number | undefined {
  const listen = listenPort(ctx);
  if (listen !== undefined) {
    const declared = ctx.container.ports.find((p) => p.containerPort === listen);
    return declared?.name ?? listen;
  }
  const port = servingPort(ctx.container);
  return port?.name ?? port?.containerPort;
}

/** A whole-number `PORT` in the container's env (TGI and many servers listen on it), when the port is not known. */
function envPort(ctx: WorkloadContext): number | undefined {
  const env = Array.isArray(ctx.container.value.env) ? ctx.container.value.env : [];
  const entry = env.find((e) => isRecord(e) && e.name === 'PORT');
  const value = isRecord(entry) ? entry.value : undefined;
  return typeof value === 'string' && /^\d{1,5}$/.test(value) && Number(value) > 0 && Number(value) < 65536
    ? Number(value)
    : undefined;
}

/** The one numbered port the pool or the Services of the input send this workload's pods, when there is one. */
function sentPort(ctx: WorkloadContext): { port: number; from: string } | undefined {
  const numbered = servingPorts(ctx.check.located, ctx.workload).filter(
    (p): p is { port: number; from: string } => typeof p.port === 'number',
  );
  return new Set(numbered.map((p) => p.port)).size === 1 ? numbered[0] : undefined;
}

/**
 * The path a probe of `path` takes on this container: the server's open path where an API key may guard `path` (the
 * key's flag in its command, its env var, or an envFrom that may set it), since a probe sends no key.
 */
export function openPath(ctx: WorkloadContext, path: string): string {
  const auth = ctx.serverKnown ? ctx.server.probes.authenticated : undefined;
  if (!auth || !(path === auth.prefix || path.startsWith(`${auth.prefix}/`))) return path;
  const { env, envFrom } = ctx.container.value;
  const keyed =
    (ctx.invocation?.found === true && findFlag(serverArgs(ctx.invocation), auth.flag) !== undefined)
    || (Array.isArray(env) && env.some((e) => isRecord(e) && e.name === auth.env))
    || (Array.isArray(envFrom) && envFrom.length > 0);
  return keyed ? auth.path : path;
}

function probeValue(ctx: WorkloadContext, planned: PlannedProbe): Record<string, unknown> {
  const portRef = probePort(ctx) ?? envPort(ctx) ?? sentPort(ctx)?.port ?? ctx.inputs.port;
  const check =
    ctx.serverKnown && planned.path
      ? { httpGet: { path: openPath(ctx, planned.path), port: portRef } }
      : { tcpSocket: { port: portRef } };
  return {
    ...check,
    periodSeconds: planned.periodSeconds,
    timeoutSeconds: planned.timeoutSeconds,
    failureThreshold: planned.failureThreshold,
  };
}

/**
 * The `--nnodes` value when one server runs over several pods of this one template (a StatefulSet or Deployment
 * whose pods are the ranks): every rank gets what the template gets, and a rank above 0 may not answer HTTP (that
 * depends on the server and its release). A LeaderWorkerSet's leader template is the leader's alone.
 */
function ranksShareTemplate(ctx: WorkloadContext): string | undefined {
  if (ctx.workload.serving.role === 'leader' || !ctx.invocation?.found) return undefined;
  const value = findFlag(serverArgs(ctx.invocation), '--nnodes')?.value;
  return value !== undefined && value !== '1' ? value : undefined;
}

/** The fix that adds a probe the plan times, or the probe to add by hand when the port is unknown. */
export function addProbeFix(
  ctx: WorkloadContext,
  key: 'readinessProbe' | 'startupProbe',
  planned: PlannedProbe,
  why?: string,
): Fix {
  const value = probeValue(ctx, planned);
  const nnodes = ranksShareTemplate(ctx);
  if (nnodes !== undefined) {
    return manualFix(
      `the ${ctx.container.name} container runs one server over --nnodes ${nnodes} pods of this template, and a rank above 0 may not answer on the server's port (whether it does depends on the server and its release: some run only their share of the model there): this ${key} could keep it unready (and a StatefulSet's default OrderedReady would then never start the next rank). Add a probe that passes on every rank, for example an exec probe that checks the port on rank 0 only.`,
    );
  }
  if (probePort(ctx) === undefined) {
    const env = envPort(ctx);
    const sent = sentPort(ctx);
    const which =
      env !== undefined
        ? `; its env sets PORT=${env}, which the probe below uses: check that the server listens on it`
        : sent
          ? `; the probe below uses ${sent.port}, the port ${sent.from} sends requests to: check that the server listens on it`
          : (ctx.given ?? ctx.check.given).has('port')
            ? `; the probe below uses ${ctx.inputs.port}, the --port you gave`
            : `; the probe below uses ${ctx.inputs.port}, the --port default, which the manifest does not state`;
    return manualFix(
      `add this ${key} with the port the ${ctx.container.name} container's server listens on (the container declares no port and the command sets none${which}):\n${snippet(key, value)}${envText(probeEnv(ctx, value))}`,
    );
  }
  const path = [...ctx.container.path, key];
  const edits = [setEdit(ctx.object, path, value)];
  if (why) edits.push(setEdit(ctx.object, [...path, 'failureThreshold'], planned.failureThreshold, ` ${why}`));
  // The env the server's profile sets for its probe path (SGLang: /health without a generation), where unset, added to
  // the container's list. An `env:` left empty (null) is not a list to add to: the whole fix is then by hand.
  const env = probeEnv(ctx, value);
  if (env.length > 0 && ctx.container.value.env === null)
    return manualFix(
      `add this ${key}, and make the ${ctx.container.name} container's empty env: a list that holds the entry below:\n${snippet(key, value)}${envText(env)}`,
    );
  for (const { name, value: set } of env)
    edits.push({
      op: 'append',
      document: ctx.object.document,
      path: [...ctx.object.base, ...ctx.container.path, 'env'],
      value: { name, value: set },
    });
  return { text: snippet(key, value, why ? [[['failureThreshold'], why]] : []) + envText(env), edits };
}

/** The env entries a probe fix adds, as its text says them. */
function envText(env: readonly { name: string; value: string; why: string }[]): string {
  return env.map(({ name, value, why }) => `\nand in env: - { name: ${name}, value: "${value}" } (${why})`).join('');
}

/** The server profile's env entries a probe on its own path needs, that the container does not set yet. */
function probeEnv(ctx: WorkloadContext, probe: Record<string, unknown>) {
  if (!ctx.serverKnown || !('httpGet' in probe)) return [];
  const written = ctx.container.value.env;
  // An env that is neither a list nor left empty is one the API server refuses: nothing is added to it.
  if (written !== undefined && written !== null && !Array.isArray(written)) return [];
  const env = Array.isArray(written) ? written : [];
  const from = ctx.container.value.envFrom;
  // A variable an envFrom source may set cannot be told: leave it to the reader.
  if (Array.isArray(from) && from.length > 0) return [];
  return ctx.server.deploy.env.filter((e) => !env.some((set) => isRecord(set) && set.name === e.name));
}
