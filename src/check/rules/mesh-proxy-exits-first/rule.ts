/**
 * mesh-proxy-exits-first: the pod template asks Linkerd to inject its proxy (`linkerd.io/inject: enabled`). At
 * deletion every container gets SIGTERM at once, and "when the Linkerd proxy sidecar receives this signal, it will
 * immediately begin a graceful shutdown where it refuses all new requests" (Linkerd, Graceful Pod Shutdown): the
 * model server's preStop sleep keeps the server up, but the proxy in front of it refuses what gateways still send
 * during the removal window. `config.alpha.linkerd.io/proxy-wait-before-exit-seconds` adds a preStop hook to the
 * proxy that delays its SIGTERM, bounded by the pod's grace period (Linkerd, Proxy Configuration); a proxy run as a
 * native sidecar (`config.beta.linkerd.io/proxy-enable-native-sidecar`, or the alpha name) is stopped only after the
 * regular containers have exited (KEP-753), so it needs no wait.
 * Sources: https://linkerd.io/2/tasks/graceful-shutdown/ and https://linkerd.io/2/reference/proxy-configuration/
 * (read 2026-12-04).
 */
import { formatSeconds as s } from '../../../model/seconds.ts';
import { setEdit, type WorkloadContext } from '../context.ts';
import { isRecord, valueAt } from '../../read/path.ts';
import { defineRule } from '../rule.ts';

const INJECT = 'linkerd.io/inject';
const WAIT = 'config.alpha.linkerd.io/proxy-wait-before-exit-seconds';
const NATIVE = [
  'config.beta.linkerd.io/proxy-enable-native-sidecar',
  'config.alpha.linkerd.io/proxy-enable-native-sidecar',
];

export const rule = defineRule({
  code: 'mesh-proxy-exits-first',
  order: 385,
  scope: 'workload',
  severity: 'warning',
  summary:
    'A Linkerd proxy injected by annotation refuses new requests at SIGTERM, before the model server\u2019s preStop sleep ends.',
  remediation:
    'Set config.alpha.linkerd.io/proxy-wait-before-exit-seconds on the pod template to the preStop sleep + drain, or run the proxy as a native sidecar.',
  remedy: 'applied',
  check: (ctx) => {
    const found = waitNeeded(ctx);
    if (!found) return [];
    return [
      {
        severity: 'warning',
        path: found.path,
        message:
          `The pod template asks Linkerd to inject its proxy, which gets SIGTERM at deletion with every container and then refuses new requests at once, `
          + `${found.now === undefined ? 'with no' : `with a ${s(found.now)}`} wait before exit: gateways still route to the pod for up to ${s(ctx.plan.removalSeconds)} (the removal p99), `
          + `so those requests fail though ${ctx.container.name} sleeps ${s(ctx.targets.preStopTarget)} in its preStop. Keep the proxy up through the sleep and the drain.`,
      },
    ];
  },
  fix: (ctx) => {
    const seconds = ctx.targets.preStopTarget + ctx.plan.drainSeconds;
    const path = [...ctx.workload.serving.path, 'metadata', 'annotations', WAIT];
    const why = `the ${s(ctx.targets.preStopTarget)} preStop + ${s(ctx.plan.drainSeconds)} drain`;
    return { text: `${WAIT}: "${seconds}" (${why})`, edits: [setEdit(ctx.object, path, String(seconds), ` ${why}`)] };
  },
});

/** The template's annotations path and the wait it sets, when Linkerd injects a proxy that would exit too soon. */
function waitNeeded(ctx: WorkloadContext): { path: (string | number)[]; now?: number } | undefined {
  const base = [...ctx.workload.serving.path, 'metadata', 'annotations'];
  const annotations = valueAt(ctx.object.value, base);
  if (!isRecord(annotations) || annotations[INJECT] !== 'enabled') return undefined;
  if (NATIVE.some((k) => annotations[k] === 'true' || annotations[k] === true)) return undefined;
  const raw = annotations[WAIT];
  const now =
    typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : typeof raw === 'number' ? raw : undefined;
  if (raw !== undefined && now === undefined) return undefined; // not a number: not ours to judge
  if (now !== undefined && now >= ctx.targets.preStopTarget) return undefined;
  return { path: now === undefined ? [...base, INJECT] : [...base, WAIT], now };
}
