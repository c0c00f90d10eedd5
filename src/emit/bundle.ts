/**
 * Emit the annotated manifest for a plan: the model-server Deployment, the extra objects the gateway's profile lists
 * (`gateway-objects.ts`) and the PodDisruptionBudget, as one multi-document YAML string built with the `yaml`
 * Document API. The InferencePool and its Endpoint Picker come from GIE's chart, whose one install command the
 * header states (`chart-install.ts`). Every drain value carries a comment with its arithmetic, taken from the plan's
 * derivation; nothing here computes a number of its own.
 * User strings reach the YAML only as scalar values (the library quotes them) and only after validation.
 */
import { Document } from 'yaml';
import { formulaOf, type Plan } from '../model/plan.ts';
import { annotatePodAnnotations, annotatePodSpec, commentOn, keyAt, podAnnotations, podSpecFor } from './pod.ts';
import type { ChartFacts, GatewayProfile, ModelServerProfile, Profiles } from '../facts/profiles.ts';
import { changedInputs, gatewayById, modelServerById, type DrainInputs } from '../model/resolve.ts';
import { extraManifestDocuments } from './gateway-objects.ts';
import { DOCUMENT_OPTIONS } from './options.ts';
import { documentText } from './files.ts';
import { withHeadroom } from '../model/plan-gateway.ts';
import { formatFactor } from '../model/seconds.ts';
import { installLines } from './chart-install.ts';

/** The generator's version, named in every manifest header. */
const GENERATOR_VERSION = '0.1.0';

/** The label GIE uses to tell the Endpoint Picker which engine serves the pool. */
export const ENGINE_TYPE_LABEL = 'inference.networking.k8s.io/engine-type';

function deploymentFor(
  plan: Plan,
  inputs: DrainInputs,
  server: ModelServerProfile,
  gateway: GatewayProfile,
): Record<string, unknown> {
  const labels = { app: inputs.name, [ENGINE_TYPE_LABEL]: server.engineType };
  const annotations = podAnnotations(plan, inputs, gateway);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: inputs.name, namespace: inputs.namespace, labels: { app: inputs.name } },
    spec: {
      replicas: inputs.replicas,
      progressDeadlineSeconds: plan.progressDeadlineSeconds,
      strategy: { type: 'RollingUpdate', rollingUpdate: { ...plan.strategy } },
      selector: { matchLabels: { app: inputs.name } },
      template: {
        metadata: annotations ? { labels, annotations } : { labels },
        spec: podSpecFor(plan, inputs, server),
      },
    },
  };
}

/** The progress deadline and rolling update of a Deployment (or its patch), and the rollout's worst case, then `more`. */
export function annotateRollout(doc: Document, plan: Plan, more: string): void {
  commentOn(doc, ['spec', 'progressDeadlineSeconds'], formulaOf(plan, 'progressDeadlineSeconds'));
  commentOn(doc, ['spec', 'strategy', 'rollingUpdate', 'maxSurge'], formulaOf(plan, 'strategy'));
  keyAt(doc, ['spec'], 'strategy').commentBefore =
    ` Rollout, worst case: ${formulaOf(plan, 'rolloutSeconds')} = ${plan.rolloutSeconds}s${more}`;
}

/** Add the drain comments to the Deployment document. */
function annotateDeployment(
  doc: Document,
  plan: Plan,
  inputs: DrainInputs,
  server: ModelServerProfile,
  gateway: GatewayProfile,
): void {
  annotateRollout(doc, plan, `; during a step ${formulaOf(plan, 'rolloutCapacity')}.`);
  annotatePodAnnotations(doc, ['spec', 'template', 'metadata'], plan, inputs, gateway);
  if (server.engineTypeNote)
    keyAt(doc, ['spec', 'template', 'metadata', 'labels'], ENGINE_TYPE_LABEL).commentBefore =
      ` ${server.engineTypeNote.summary}`;
  annotatePodSpec(doc, ['spec', 'template', 'spec'], plan, inputs, server);
}

/** What a PodDisruptionBudget selects and the comment above it that says why it is there. */
export interface BudgetShape {
  matchLabels: Record<string, string>;
  why: string[];
}

/** The Deployment's budget: its pods by their `app` label. */
function deploymentBudget(inputs: DrainInputs): BudgetShape {
  return {
    matchLabels: { app: inputs.name },
    why: [
      ' Node drains and cluster-autoscaler scale-downs evict pods without regard to the rollout strategy; this budget',
      ' makes them take one pod at a time. Leave it out (pod-disruption-budget=false) if another budget already selects',
      ' these pods: the eviction API refuses to evict a pod that two budgets select.',
    ],
  };
}

/**
 * The PodDisruptionBudget beside the workload (the Deployment's pods unless `shape` says otherwise): evictions one
 * pod at a time, its number commented with how it was derived.
 */
export function podDisruptionBudgetDocument(
  plan: Plan,
  inputs: DrainInputs,
  shape: BudgetShape = deploymentBudget(inputs),
): Document | undefined {
  if (!plan.podDisruptionBudget) return undefined;
  const doc = new Document(
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: inputs.name, namespace: inputs.namespace },
      spec: {
        maxUnavailable: plan.podDisruptionBudget.maxUnavailable,
        selector: { matchLabels: shape.matchLabels },
      },
    },
    DOCUMENT_OPTIONS,
  );
  doc.commentBefore = shape.why.join('\n');
  commentOn(doc, ['spec', 'maxUnavailable'], formulaOf(plan, 'podDisruptionBudget'));
  return doc;
}

/** What the HTTPRoute that sends requests to the pool needs, for a gateway whose default route timeout cuts long requests. */
export function routeTimeoutNote(plan: Plan, inputs: DrainInputs, gateway: GatewayProfile): string | undefined {
  const route = gateway.routeTimeout;
  if (!route) return undefined;
  const needed = withHeadroom(plan.maxRequestSeconds, inputs.drainHeadroomPercent);
  if (route.honored && route.defaultSeconds !== undefined && route.defaultSeconds < needed) {
    return (
      ` ${gateway.name} cuts a request after ${route.defaultSeconds}s unless its HTTPRoute sets a timeout: in the HTTPRoute that sends`
      + ` requests to this pool, set spec.rules[].timeouts.request: ${needed}s (${plan.maxRequestSeconds}s longest request × ${formatFactor(inputs.drainHeadroomPercent)} headroom).`
    );
  }
  if (!route.honored && route.instead && route.instead.defaultSeconds < plan.maxRequestSeconds) {
    return (
      ` ${gateway.name} accepts timeouts on an HTTPRoute rule but ignores them; ${route.instead.setting} (${route.instead.defaultSeconds}s by default) bounds the`
      + ` wait between two reads from the pod instead: attach one of at least ${needed}s to the HTTPRoute that sends requests to this pool, or stream responses.`
    );
  }
  return undefined;
}

/** The header: generator version, the pair profiled, how to reproduce the output, and the drain. */
function headerLines(plan: Plan, inputs: DrainInputs, profiles: Profiles): string[] {
  const changed = changedInputs(inputs, profiles);
  const flags = changed.map(([flag, value]) => (value === 'true' ? `--${flag}` : `--${flag} ${value}`)).join(' ');
  return [
    ` Generated by Hitless ${GENERATOR_VERSION} (drain model v${plan.modelVersion}) for ${plan.gateway} + ${plan.modelServer}.`,
    changed.length > 0 ? ` Inputs changed from defaults: ${flags}` : ' All inputs at their defaults.',
    ` Reproduce: hitless generate${flags ? ` ${flags}` : ''}`,
    ` Drain: ${plan.preStopSeconds}s preStop, ${plan.drainSeconds}s drain, ${plan.teardownSeconds}s teardown = ${plan.terminationGracePeriodSeconds}s grace.`,
  ];
}

/**
 * The documents of the manifest, annotated: the Deployment, the gateway's extra objects, then the PodDisruptionBudget
 * when the plan has one. No InferencePool: GIE's chart creates it with its Endpoint Picker. The Deployment's comment is
 * the header, then `install` (the lines that state the chart's install, if any), then what the HTTPRoute needs.
 */
export function manifestDocuments(
  plan: Plan,
  inputs: DrainInputs,
  profiles: Profiles,
  install: readonly string[] = [],
): Document[] {
  const server = modelServerById(profiles, inputs.modelServer);
  const gateway = gatewayById(profiles, inputs.gateway);
  const deployment = new Document(deploymentFor(plan, inputs, server, gateway), DOCUMENT_OPTIONS);
  const routeNote = routeTimeoutNote(plan, inputs, gateway);
  deployment.commentBefore = [
    ...headerLines(plan, inputs, profiles),
    ...install,
    ...(routeNote ? [routeNote] : []),
  ].join('\n');
  annotateDeployment(deployment, plan, inputs, server, gateway);
  const budget = podDisruptionBudgetDocument(plan, inputs);
  return [
    deployment,
    ...extraManifestDocuments(plan, inputs, profiles).map((extra) => extra.document),
    ...(budget ? [budget] : []),
  ];
}

/**
 * The bundle as YAML text: every document of `manifestDocuments`, separated by `---`, the header stating the one
 * chart install that creates the InferencePool and Endpoint Picker the rest refers to.
 */
export function emitManifest(plan: Plan, inputs: DrainInputs, profiles: Profiles, chart: ChartFacts): string {
  const pods = `the pods of Deployment ${inputs.name} (label app: ${inputs.name})`;
  return manifestDocuments(plan, inputs, profiles, installLines(inputs, profiles, chart, pods))
    .map(documentText)
    .join('---\n');
}
