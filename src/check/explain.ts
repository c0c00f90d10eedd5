/**
 * The workload model behind a check (`hitless check --explain`): every pod-bearing object the checker read, each
 * container with what it runs (server, release, role) and the evidence, and every input each workload was checked
 * with and where it came from (read from the manifest, given by the reader, or assumed: a default). Built from the
 * same contexts the rules run on, so it shows what the findings rest on, not a second reading.
 */
import { FIELDS } from '../model/fields.ts';
import type { DrainInputs } from '../model/resolve.ts';
import { imageRelease, isServerImage, otherServerOf } from '../facts/releases.ts';
import type { Profiles } from '../facts/profiles.ts';
import { objectName, type WorkloadContext } from './rules/context.ts';
import { CHECK_RENDERED_POD, unreadServing, type Located, type PodTemplate, type Workload } from './workload/locate.ts';
import { valueAt } from './read/path.ts';
import { containersOf, holdsAccelerators, sidecarsOf, type Container } from './workload/pod.ts';
import { servedPort, servicesOf, servingPorts, type ServingPort } from './workload/serving-ports.ts';
import { findInvocation, imageStillRuns, invocationText } from './workload/server-invocation.ts';
import { fileName } from './workload/script-file.ts';
import { CHECK_SETTING_FLAGS, type CheckedFor, type FoundSetting } from './workload/settings.ts';

/** What a container is in its pod. */
export type ContainerRole = 'serving' | 'multi-node worker' | 'sidecar' | 'init' | 'other';

export interface ExplainedContainer {
  name: string;
  image: string;
  /** `containers[0]`, `initContainers[1]`. */
  at: string;
  role: ContainerRole;
  /** The model server it runs, when the checker recognises one. */
  server?: string;
  /** The server's release, read from the image tag (when the image is the server's own). */
  release?: string;
  /** A server recognised by its image that has no drain profile (content/other-servers/), by name. */
  withoutProfile?: string;
  /** How sure the reading is: both the command and the image name the server (high), one of them (medium), none. */
  confidence: 'high' | 'medium' | 'none';
  evidence: string[];
  gpus: number;
}

export interface ExplainedTemplate {
  /** `pod`, or a LeaderWorkerSet's / LLMInferenceService's `leader` and `worker`. */
  role: PodTemplate['role'];
  path: string;
  containers: ExplainedContainer[];
}

/** Where an input's value came from. */
export type InputSource = 'read' | 'given' | 'assumed';

export interface ExplainedInput {
  flag: string;
  value: string;
  source: InputSource;
  /** For `read`: where in the manifest; for `given`: the flag; for `assumed`: the default. */
  from: string;
}

export interface ExplainedWorkload {
  object: string;
  document: number;
  kind: Workload['kind'];
  replicas: number;
  /** False when a Deployment, StatefulSet, ReplicaSet or LeaderWorkerSet leaves spec.replicas unset (Kubernetes' default 1, or an autoscaler's count). */
  replicasStated: boolean;
  groupSize: number;
  /** spec.replicas as written when it is no count (an unrendered `${REPLICAS}`). */
  replicasUnread?: string;
  templates: ExplainedTemplate[];
  /** Checked as a model-server workload, or why not. */
  checked: boolean;
  why?: string;
  /** The server the rules used, and whether they recognised it or took it from a setting or the header. */
  server?: {
    id: string;
    recognised: boolean /** A server recognised by its image that has no drain profile. */;
    withoutProfile?: string;
  };
  /** A KServe LLMInferenceService's baseRefs: the configs merged into its pod (in the input) and those not found. */
  bases?: { merged: string[]; missing: string[] };
  /** The serving controller that makes the pods from this object's template, what it does, and the fields it sets. */
  servedBy?: { controller: string; summary: string; at: string; owns: string[] };
  /** Where a LeaderWorkerSet's worker template is that makes no pod (size 1: the leader alone). */
  unusedWorkers?: string;
  inputs: ExplainedInput[];
}

export interface Explanation {
  gateway: CheckedFor;
  workloads: ExplainedWorkload[];
  /** Serving objects of a controller whose pods the manifest does not hold. */
  controllerManaged: { object: string; controller: string }[];
  pools: string[];
  ignored: string[];
  /** Documents refused unread (not valid YAML, a repeated key), each with its line and why: neither checked nor fixed. */
  refused?: string[];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function explainContainer(
  container: Container,
  place: 'containers' | 'initContainers',
  template: PodTemplate,
  profiles: Profiles,
  servingContainer: Container | undefined,
  ports: readonly ServingPort[],
): ExplainedContainer {
  let best: { id: string; release?: string; evidence: string[]; points: number } | undefined;
  for (const profile of profiles.modelServers) {
    const serverImage = isServerImage(profile, container.image);
    const invocation = findInvocation(container.line, profile, serverImage);
    const image = serverImage && imageStillRuns(container.line, profile, invocation);
    const evidence: string[] = [];
    let points = 0;
    if (invocation.found && invocation.how !== 'entrypoint') {
      points++;
      evidence.push(
        invocation.how === 'file' && container.line.file
          ? `command ${invocationText(invocation)} in ${fileName(container.line.file)}`
          : invocation.entrypointAssumed
            ? `args ${invocationText(invocation)} (the image's entrypoint, not known, taken to run them)`
            : `command ${invocationText(invocation)}`,
      );
    }
    if (image) {
      points++;
      evidence.push(`image is ${profile.name}'s`);
    }
    if (points > (best?.points ?? 0))
      best = { id: profile.id, release: imageRelease(profile, container.image), evidence, points };
  }
  const served = servedPort(container, ports);
  const other = best ? undefined : otherServerOf(profiles.otherServers, container.image);
  const role: ContainerRole =
    place === 'initContainers'
      ? container.value.restartPolicy === 'Always'
        ? 'sidecar'
        : 'init'
      : best
          || other
          || holdsAccelerators(container)
          || served
          || (servingContainer && servingContainer.index === container.index)
        ? template.role === 'worker'
          ? 'multi-node worker'
          : 'serving'
        : servingContainer
          ? 'sidecar'
          : 'other';
  const evidence = best?.evidence ?? [];
  if (other)
    evidence.push(`image is ${other.name}'s, which has no drain profile (content/other-servers/${other.id}.yaml)`);
  if (container.gpus > 0)
    evidence.push(`requests ${container.gpus} ${container.accelerator}${container.gpus > 1 ? 's' : ''}`);
  if (container.gpusUnread !== undefined)
    evidence.push(`requests ${container.accelerator}s (a count of ${JSON.stringify(container.gpusUnread)}, not read)`);
  if (served) evidence.push(`listens on ${served.port}, which ${served.from} targets`);
  if (place === 'initContainers' && role === 'sidecar') evidence.push('restartPolicy: Always (a native sidecar)');
  return {
    name: container.name,
    image: container.image,
    at: `${place}[${container.index}]`,
    role,
    ...(best ? { server: best.id } : {}),
    ...(best?.release ? { release: best.release } : {}),
    ...(other ? { withoutProfile: other.name } : {}),
    confidence: !best ? 'none' : best.points >= 2 ? 'high' : 'medium',
    evidence,
    gpus: container.gpus,
  };
}

function explainTemplate(
  template: PodTemplate,
  profiles: Profiles,
  ports: readonly ServingPort[],
  serving?: Container,
): ExplainedTemplate {
  const containers = containersOf(template);
  const init = Array.isArray(template.spec.initContainers) ? template.spec.initContainers : [];
  // Init containers that run to completion before the pod starts: listed by name only.
  const ran = init.flatMap((value, index) =>
    value && typeof value === 'object' && (value as Record<string, unknown>).restartPolicy !== 'Always'
      ? [{ index, value: value as Record<string, unknown> }]
      : [],
  );
  return {
    role: template.role,
    path: template.path.join('.'),
    containers: [
      ...containers.map((c) => explainContainer(c, 'containers', template, profiles, serving, ports)),
      ...sidecarsOf(template).map((c) => explainContainer(c, 'initContainers', template, profiles, serving, ports)),
      ...ran.map(({ index, value }) => ({
        name: text(value.name ?? ''),
        image: text(value.image ?? ''),
        at: `initContainers[${index}]`,
        role: 'init' as const,
        confidence: 'none' as const,
        evidence: ['runs to completion before the pod starts'],
        gpus: 0,
      })),
    ],
  };
}

/** Each input the checker uses, with its value and where it came from. */
function explainInputs(
  inputs: DrainInputs,
  found: readonly FoundSetting[],
  unused: readonly FoundSetting[],
  given: ReadonlySet<string>,
  givenBy: (flag: string) => string,
): ExplainedInput[] {
  const values = inputs as unknown as Record<string, unknown>;
  const out: ExplainedInput[] = [];
  for (const field of FIELDS) {
    const read = found.find((f) => f.flag === field.flag);
    if (!CHECK_SETTING_FLAGS.includes(field.flag) && !read) continue;
    const value = values[field.key];
    if (value === undefined) continue;
    // A value the manifest states but the drain model cannot take (value-out-of-range says so): the default stands.
    const dropped = read && unused.includes(read);
    const source: InputSource = given.has(field.flag) ? 'given' : read && !dropped ? 'read' : 'assumed';
    out.push({
      flag: field.flag,
      value: String(value),
      source,
      from:
        source === 'given'
          ? givenBy(field.flag)
          : source === 'read'
            ? read!.from
            : dropped
              ? `the default, in place of ${JSON.stringify(read!.value)} at ${read!.from}`
              : 'the default',
    });
  }
  return out;
}

/** spec.replicas as written when the workload states something that is no count. */
function unreadReplicas(workload: Workload): string | undefined {
  const raw = valueAt(workload.object.value, ['spec', 'replicas']);
  return workload.replicasRead || raw === undefined || raw === null ? undefined : JSON.stringify(raw);
}

/** The workload model of a check. */
export function explain(
  located: Located,
  contexts: readonly WorkloadContext[],
  checkedFor: CheckedFor,
  given: ReadonlySet<string>,
  profiles: Profiles,
  /** Where a given setting came from: its flag, or the config file that set it. */
  givenBy: (flag: string) => string = (flag) => `--${flag}`,
): Explanation {
  const workloads = located.workloads.map((workload): ExplainedWorkload => {
    const ctx = contexts.find((c) => c.workload === workload);
    const ports = servingPorts(located, workload);
    const templates = [workload.serving, ...(workload.workers ? [workload.workers] : [])].map((t) =>
      explainTemplate(t, profiles, t === workload.serving ? ports : [], ctx?.container),
    );
    return {
      object: objectName(workload.object),
      document: workload.object.document + 1,
      kind: workload.kind,
      replicas: workload.replicas,
      replicasStated:
        workload.served !== undefined
        || workload.kind === 'Job'
        || workload.kind === 'Pod'
        || workload.kind === 'LLMInferenceService'
        || valueAt(workload.object.value, ['spec', 'replicas']) !== undefined,
      groupSize: workload.groupSize,
      ...(unreadReplicas(workload) === undefined ? {} : { replicasUnread: unreadReplicas(workload) }),
      templates,
      ...(workload.unusedWorkers ? { unusedWorkers: workload.unusedWorkers.path.join('.') } : {}),
      checked: ctx !== undefined,
      ...(workload.bases
        ? {
            bases: {
              merged: workload.bases.found.map((n) => `LLMInferenceServiceConfig/${n}`),
              missing: workload.bases.missing.map((n) => `LLMInferenceServiceConfig/${n}`),
            },
          }
        : {}),
      ...(workload.served
        ? {
            servedBy: {
              controller: workload.served.controller,
              summary: workload.served.kind.summary,
              at: workload.served.kind.at,
              owns: workload.served.kind.pods?.owns ?? [],
            },
          }
        : {}),
      ...(ctx
        ? {
            server: {
              id: ctx.server.id,
              recognised: ctx.serverKnown,
              ...(ctx.otherServer ? { withoutProfile: ctx.otherServer.name } : {}),
            },
          }
        : {
            why: 'no container runs a model server the checker recognises, requests a GPU, or is selected by an InferencePool',
          }),
      inputs: ctx ? explainInputs(ctx.inputs, ctx.found, ctx.unused, ctx.given ?? given, givenBy) : [],
    };
  });
  // ConfigMaps a container runs a script from are read with it (script-file.ts), and Services that select a workload's
  // pods for the ports they send requests to (serving-ports.ts).
  const scripts = new Set([
    ...located.workloads.flatMap((w) =>
      [w.serving, w.workers].flatMap((t) => (t ? containersOf(t).flatMap((c) => c.line.file?.configMap ?? []) : [])),
    ),
    ...located.workloads.flatMap((w) => servicesOf(located, w)),
  ]);
  return {
    gateway: checkedFor,
    workloads,
    controllerManaged: located.ignored
      .filter((o) => unreadServing(o, profiles))
      .map((o) => ({ object: objectName(o), controller: unreadServing(o, profiles)! })),
    pools: located.pools.map((p) => objectName(p.object)),
    ignored: located.ignored.filter((o) => !unreadServing(o, profiles) && !scripts.has(o)).map(objectName),
  };
}

/** The model as text, one block per workload, for `hitless check --explain`. */
export function explanationText(e: Explanation): string {
  const lines: string[] = [];
  const g = e.gateway;
  lines.push(
    `Gateway: ${g.name} (${g.source === 'setting' ? 'given' : g.source === 'manifest' ? `read from ${g.from}` : 'assumed: the default'})`,
  );
  for (const w of e.workloads) {
    lines.push(
      `${w.object} (document ${w.document}): ${w.replicasUnread !== undefined ? `replicas ${w.replicasUnread} not read (a count a template fills in?)` : w.replicasStated && w.replicas === 0 ? 'replicas 0 (scaled down, or an autoscaler or a Rollout sets the count: the replicas input below is assumed)' : w.replicasStated ? `${w.replicas} replica${w.replicas === 1 ? '' : 's'}${w.groupSize > 1 ? ` of ${w.groupSize} pods` : ''}` : `replicas unset (${w.replicas} unless an autoscaler sets more)${w.groupSize > 1 ? `, ${w.groupSize} pods each` : ''}`}; ${!w.checked ? `not checked: ${w.why}` : w.server!.recognised ? `checked as ${w.server!.id}` : w.server!.withoutProfile ? `checked as ${w.server!.withoutProfile}, which has no drain profile, with the rules that hold for any server` : 'checked with the rules that hold for any server (no model server recognised or named)'}`,
    );
    if (w.bases)
      lines.push(
        '  KServe merges its well-known config under this object first; the input does not hold it, so a finding on a value no layer here sets is a note',
      );
    if (w.servedBy) {
      const { controller, summary, at, owns } = w.servedBy;
      lines.push(`  ${controller} ${summary} (as its code reads at ${at})`);
      if (owns.length > 0)
        lines.push(`  ${controller} sets ${owns.join(', ')} itself: a finding there is a note, and its fix is by hand`);
    }
    if (w.bases?.merged.length)
      lines.push(`  pod merged from ${w.bases.merged.join(', ')} (in order), then this object's spec, which wins`);
    if (w.bases?.missing.length)
      lines.push(
        `  baseRefs not in the input: ${w.bases.missing.join(', ')}; what they set is unknown, so findings here are notes`,
      );
    for (const t of w.templates) {
      lines.push(`  ${t.role === 'pod' ? 'pod template' : `${t.role} template`} ${t.path}`);
      for (const c of t.containers) {
        const server = c.server
          ? `${c.server}${c.release ? ` ${c.release}` : ' (release not in the tag)'}, confidence ${c.confidence}`
          : c.withoutProfile
            ? `${c.withoutProfile}, which has no drain profile`
            : 'no model server recognised';
        lines.push(`    ${c.at} ${c.name || '(no name)'}: ${c.role}; ${server}; image ${c.image || '(none)'}`);
        if (c.evidence.length > 0) lines.push(`      evidence: ${c.evidence.join('; ')}`);
      }
    }
    if (w.unusedWorkers)
      lines.push(
        `  worker template ${w.unusedWorkers}: makes no pod (a size of 1, the default, is the leader alone), so it is not checked`,
      );
    if (w.inputs.length > 0) {
      lines.push('  inputs:');
      for (const i of w.inputs) lines.push(`    ${i.flag} ${i.value}: ${i.source} (${i.from})`);
    }
  }
  for (const m of e.controllerManaged)
    lines.push(
      `${m.object}: ${m.controller} makes its pods, which the manifest does not hold; check a rendered pod: ${CHECK_RENDERED_POD}`,
    );
  if (e.pools.length > 0) lines.push(`InferencePools: ${e.pools.join(', ')}`);
  if (e.ignored.length > 0) lines.push(`Not read: ${e.ignored.join(', ')}`);
  for (const r of e.refused ?? []) lines.push(`Refused unread, so neither checked nor fixed: ${r}`);
  return `${lines.join('\n')}\n`;
}
