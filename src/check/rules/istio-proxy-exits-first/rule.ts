/**
 * istio-proxy-exits-first: the pod template asks Istio to inject its proxy (the label `sidecar.istio.io/inject: "true"`,
 * a revision label `istio.io/rev`, the older annotation of the same name), or the pod already holds a classic
 * `istio-proxy` container. At deletion a classic sidecar gets SIGTERM with every container; pilot-agent then drains
 * Envoy's inbound listeners and waits `terminationDrainDuration` (5 s unless set) before it stops Envoy
 * (pkg/envoy/agent.go terminate, pkg/config/mesh/mesh.go defaults). Requests the model server is still serving, and
 * those gateways send during the removal window, pass through that proxy and fail once it is gone. Envoy also stops
 * accepting after its drain time (`drainDuration`, 45 s unless set; `--drain-time-s`, pkg/envoy/proxy.go). A native
 * sidecar (an init container that keeps running: the annotation `sidecar.istio.io/nativeSidecar: "true"`, or Istio's
 * default from 1.27 where kubelets are 1.33 or later) is stopped only after the model server has exited.
 * Sources: istio/istio 1.28.0 pkg/envoy/agent.go, pkg/envoy/proxy.go, pkg/config/mesh/mesh.go,
 * manifests/charts/istio-control/istio-discovery/files/injection-template.yaml (the same at 1.22.8 and 1.30.3).
 */
import { isMap, parseDocument } from 'yaml';
import { formatSeconds as s } from '../../../model/seconds.ts';
import { setEdit, type WorkloadContext } from '../context.ts';
import { isRecord, valueAt, type Segment } from '../../read/path.ts';
import { defineRule } from '../rule.ts';
import { manualFix } from '../findings.ts';

const INJECT = 'sidecar.istio.io/inject';
const REVISION = 'istio.io/rev';
const NATIVE = 'sidecar.istio.io/nativeSidecar';
const CONFIG = 'proxy.istio.io/config';
/** Istio's mesh defaults (pkg/config/mesh/mesh.go DefaultProxyConfig). */
const DEFAULT_TERMINATION_DRAIN = 5;
const DEFAULT_DRAIN = 45;

export const rule = defineRule({
  code: 'istio-proxy-exits-first',
  order: 386,
  scope: 'workload',
  severity: 'warning',
  summary:
    'An Istio sidecar injected as a classic container exits 5 s after SIGTERM (its terminationDrainDuration), before the model server has drained.',
  remediation:
    'Set terminationDrainDuration in the pod template\u2019s proxy.istio.io/config to the preStop sleep + drain, or inject the proxy as a native sidecar (sidecar.istio.io/nativeSidecar: "true").',
  remedy: 'applied',
  check: (ctx) => {
    const found = proxyCut(ctx);
    if (!found) return [];
    const need = ctx.targets.preStopTarget + ctx.plan.drainSeconds;
    const why =
      found.termination < need
        ? `drains for ${s(found.termination)} (its terminationDrainDuration${found.termination === DEFAULT_TERMINATION_DRAIN && !found.set ? ', 5 s unless set' : ''}) and then stops Envoy`
        : `stops accepting after its ${s(found.drain)} drainDuration`;
    return [
      {
        severity: 'warning',
        path: found.path,
        message:
          `${found.how}. A classic sidecar gets SIGTERM at deletion with every container, ${why}; the pod must serve through the `
          + `${s(ctx.targets.preStopTarget)} preStop sleep (gateways route to it for up to ${s(ctx.plan.removalSeconds)}, the removal p99)`
          + `${ctx.plan.drainSeconds > 0 ? ` and ${ctx.container.name}'s ${s(ctx.plan.drainSeconds)} drain` : ''}, so requests through the proxy fail once it stops. `
          + 'Keep it up that long (terminationDrainDuration, and drainDuration past the sleep), '
          + `or inject it as a native sidecar (${NATIVE}: "true", Kubernetes 1.29 or later), which stops after the server exits; `
          + 'Istio 1.27 and later injects one by default where every kubelet is 1.33 or later.',
      },
    ];
  },
  fix: (ctx) => {
    const found = proxyCut(ctx);
    if (!found) return undefined;
    const termination = ctx.targets.preStopTarget + ctx.plan.drainSeconds;
    const settings: Record<string, string> = { terminationDrainDuration: `${termination}s` };
    if (found.drain < ctx.targets.preStopTarget) settings.drainDuration = `${ctx.targets.preStopTarget}s`;
    const value = proxyConfig(found.config, settings);
    const why = `the ${s(ctx.targets.preStopTarget)} preStop + ${s(ctx.plan.drainSeconds)} drain`;
    const path = [...found.annotations, CONFIG];
    if (found.where === 'pod')
      return manualFix(
        `set ${CONFIG} to ${JSON.stringify(value)} (${why}) in the pod template of the workload that made this pod: Istio reads it when it injects the proxy, so a running pod keeps its own.`,
      );
    const said = Object.entries(settings)
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
    const kept = found.config === undefined ? '' : ', the rest of it kept';
    return { text: `${CONFIG}: ${said} (${why})${kept}`, edits: [setEdit(ctx.object, path, value, ` ${why}`)] };
  },
});

interface ProxyCut {
  /** How the manifest asks for the proxy, for the message. */
  how: string;
  /** Where the finding points. */
  path: Segment[];
  /** The template's (or pod's) annotations mapping. */
  annotations: Segment[];
  /** `template` when the proxy is still to be injected, `pod` when the pod already holds it. */
  where: 'template' | 'pod';
  /** The proxy.istio.io/config text, when set. */
  config?: string;
  /** terminationDrainDuration and drainDuration in seconds, and whether the first was set. */
  termination: number;
  drain: number;
  set: boolean;
}

/** Where Istio injects a classic proxy whose shutdown would cut the drain; undefined when it does not or cannot be known. */
function proxyCut(ctx: WorkloadContext): ProxyCut | undefined {
  const template = ctx.workload.serving;
  // A template with no metadata of its own (KServe's LLMInferenceService holds a bare pod spec): no annotations to read.
  if (template.path.length === template.specPath.length) return undefined;
  const metadata = [...template.path, 'metadata'];
  const labels = asStrings(valueAt(ctx.object.value, [...metadata, 'labels']));
  const annotations = asStrings(valueAt(ctx.object.value, [...metadata, 'annotations']));
  if (labels[INJECT] === 'false' || annotations[INJECT] === 'false') return undefined;
  if (annotations[NATIVE] === 'true') return undefined;
  const spec = template.spec;
  const injected = containerNamed(spec.containers, 'istio-proxy');
  if (containerNamed(spec.initContainers, 'istio-proxy')) return undefined; // a native sidecar
  let how: string;
  let path: Segment[];
  let where: 'template' | 'pod' = 'template';
  if (injected) {
    // Istio's own hook (the mesh's proxy lifecycle setting) may already hold the proxy: not known from here.
    if (injected.lifecycle !== undefined) return undefined;
    how = `The pod holds Istio's proxy (istio-proxy) as a classic container`;
    path = [...template.specPath, 'containers', (spec.containers as unknown[]).indexOf(injected), 'name'];
    where = ctx.workload.kind === 'Pod' ? 'pod' : 'template';
  } else if (labels[INJECT] === 'true') {
    how = `The pod template asks Istio to inject its proxy (label ${INJECT}: "true")`;
    path = [...metadata, 'labels', INJECT];
  } else if (labels[REVISION] !== undefined && labels[REVISION] !== '') {
    how = `The pod template asks Istio revision ${JSON.stringify(labels[REVISION])} to inject its proxy (label ${REVISION})`;
    path = [...metadata, 'labels', REVISION];
  } else if (annotations[INJECT] === 'true') {
    how = `The pod template asks Istio to inject its proxy (annotation ${INJECT}: "true")`;
    path = [...metadata, 'annotations', INJECT];
  } else return undefined;
  const config = annotations[CONFIG];
  const read: ProxyConfigRead | undefined = config === undefined ? { exitOnZero: false } : readProxyConfig(config);
  if (read === undefined) return undefined; // not a proxy config this can read: not ours to judge
  if (read.exitOnZero) return undefined; // exits when connections end: depends on traffic, not on a setting
  const termination = read.terminationDrainDuration ?? DEFAULT_TERMINATION_DRAIN;
  const drain = read.drainDuration ?? DEFAULT_DRAIN;
  const need = ctx.targets.preStopTarget + ctx.plan.drainSeconds;
  if (termination >= need && drain >= ctx.targets.preStopTarget) return undefined;
  if (termination < need && read.terminationDrainDuration !== undefined) path = [...metadata, 'annotations', CONFIG];
  return {
    how,
    path,
    annotations: [...metadata, 'annotations'],
    where,
    config,
    termination,
    drain,
    set: read.terminationDrainDuration !== undefined,
  };
}

function asStrings(value: unknown): Record<string, string> {
  if (!isRecord(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string' || typeof v === 'boolean') out[k] = String(v);
  return out;
}

function containerNamed(list: unknown, name: string): Record<string, unknown> | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.find((c): c is Record<string, unknown> => isRecord(c) && c.name === name);
}

interface ProxyConfigRead {
  terminationDrainDuration?: number;
  drainDuration?: number;
  exitOnZero: boolean;
}

/**
 * The drain settings of a proxy.istio.io/config annotation (a ProxyConfig in YAML; durations in protobuf's JSON form,
 * `30s`), or undefined when it is not a mapping or a duration is not in that form.
 */
function readProxyConfig(text: string): ProxyConfigRead | undefined {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) return undefined;
  const value: unknown = doc.toJS();
  if (value === null || value === undefined) return { exitOnZero: false };
  if (!isRecord(value)) return undefined;
  const out: ProxyConfigRead = { exitOnZero: false };
  for (const key of ['terminationDrainDuration', 'drainDuration'] as const) {
    if (value[key] === undefined) continue;
    const seconds = duration(value[key]);
    if (seconds === undefined) return undefined;
    out[key] = seconds;
  }
  const metadata = value.proxyMetadata;
  if (isRecord(metadata) && String(metadata.EXIT_ON_ZERO_ACTIVE_CONNECTIONS).toLowerCase() === 'true')
    out.exitOnZero = true;
  return out;
}

/** Seconds of a protobuf JSON duration (`30s`, `1.5s`); undefined for any other form. */
function duration(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{1,9})(?:\.\d{1,9})?s$/.exec(value);
  return m ? Number(m[1]) : undefined;
}

/** The proxy.istio.io/config text with these settings set, the rest of what it held kept. */
function proxyConfig(existing: string | undefined, settings: Record<string, string>): string {
  const doc = parseDocument(existing ?? '');
  if (!isMap(doc.contents))
    return Object.entries(settings)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n');
  for (const [k, v] of Object.entries(settings)) doc.set(k, v);
  // A block scalar's text ends in a line break: kept, so the fix writes it back as a block.
  const text = doc.toString({ lineWidth: 0 }).trimEnd();
  return existing?.endsWith('\n') ? `${text}\n` : text;
}
