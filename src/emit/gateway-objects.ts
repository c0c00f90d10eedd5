/**
 * Emit the extra objects a gateway needs beside the Deployment and InferencePool (GKE's HealthCheckPolicy and
 * GCPBackendPolicy, for example). The objects are templates in the gateway's profile; this fills each `${value}`
 * from the inputs or the plan and comments it: plan numbers with their derivation, the rest with where they
 * came from, and the profile's own comments for values whose reason is a fact.
 */
import { Document, isMap, isScalar, isSeq, type Node } from 'yaml';
import { formulaOf, type Plan } from '../model/plan.ts';
import type { ExtraManifest, GatewayProfile, Profiles, TemplateValue } from '../facts/profiles.ts';
import { gatewayById, modelServerById, type DrainInputs } from '../model/resolve.ts';
import { DOCUMENT_OPTIONS } from './options.ts';

/** One extra object: the profile's template id and kind, why the gateway needs it, and the annotated document. */
export interface ExtraDocument {
  id: string;
  kind: string;
  purpose: string;
  document: Document;
}

const PLACEHOLDER = /^\$\{([A-Za-z]+)\}$/;

/** A template value with the comment that says where it came from. */
interface FilledValue {
  value: string | number;
  comment?: string;
}

/** The value of `${name}` for these inputs and this plan. Load-time checks guarantee the plan has it. */
function fillValue(name: TemplateValue, plan: Plan, inputs: DrainInputs, profiles: Profiles): FilledValue {
  switch (name) {
    case 'name':
      return { value: inputs.name };
    case 'namespace':
      return { value: inputs.namespace };
    case 'port':
      return { value: inputs.port, comment: 'the model server\u2019s port, the InferencePool\u2019s target port' };
    case 'readinessPath': {
      const server = modelServerById(profiles, inputs.modelServer);
      return plan.probes.readiness.path
        ? {
            value: plan.probes.readiness.path,
            comment: `${server.name}\u2019s readiness path, as the pod\u2019s own readinessProbe`,
          }
        : {
            value: '/',
            comment: `${server.name} has no HTTP readiness path; set one that answers 200 while it accepts requests`,
          };
    }
    case 'gatewayRequestTimeoutSeconds':
      return { value: plan.gatewayRequestTimeoutSeconds!, comment: formulaOf(plan, 'gatewayRequestTimeoutSeconds') };
    case 'gatewayDrainingSeconds':
      return { value: plan.gatewayDrainingSeconds!, comment: formulaOf(plan, 'gatewayDrainingSeconds') };
  }
}

/** Copy a template, filling each `${value}` and noting its comment under the value's dotted path. */
function fillTemplate(
  node: unknown,
  path: string[],
  fill: (name: TemplateValue) => FilledValue,
  comments: Map<string, string>,
): unknown {
  if (typeof node === 'string') {
    const match = PLACEHOLDER.exec(node);
    if (!match) return node;
    const filled = fill(match[1] as TemplateValue);
    if (filled.comment) comments.set(path.join('.'), filled.comment);
    return filled.value;
  }
  if (Array.isArray(node)) return node.map((item, i) => fillTemplate(item, [...path, String(i)], fill, comments));
  if (typeof node === 'object' && node !== null) {
    return Object.fromEntries(
      Object.entries(node).map(([key, item]) => [key, fillTemplate(item, [...path, key], fill, comments)]),
    );
  }
  return node;
}

/** Put a comment after a scalar value, or on the line above the key of a mapping or list value. */
function attachComment(doc: Document, dottedPath: string, text: string): void {
  const path = dottedPath.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  const node = doc.getIn(path, true) as Node | undefined;
  if (isScalar(node)) {
    node.comment = node.comment ? `${node.comment}; ${text}` : ` ${text}`;
    return;
  }
  if (!isMap(node) && !isSeq(node)) throw new Error(`no value at ${dottedPath} to comment`);
  const parent = path.length > 1 ? doc.getIn(path.slice(0, -1), true) : doc.contents;
  const key = path[path.length - 1];
  const pair = isMap(parent) ? parent.items.find((p) => isScalar(p.key) && p.key.value === key) : undefined;
  if (pair && isScalar(pair.key)) pair.key.commentBefore = ` ${text}`;
  else node.commentBefore = ` ${text}`;
}

function extraDocument(
  extra: ExtraManifest,
  gateway: GatewayProfile,
  plan: Plan,
  inputs: DrainInputs,
  profiles: Profiles,
): ExtraDocument {
  const comments = new Map<string, string>();
  const object = fillTemplate(extra.manifest, [], (name) => fillValue(name, plan, inputs, profiles), comments);
  const document = new Document(object, DOCUMENT_OPTIONS);
  document.commentBefore = ` ${gateway.name}: ${extra.purpose}`;
  for (const [path, text] of comments) attachComment(document, path, text);
  for (const [path, text] of Object.entries(extra.comments)) attachComment(document, path, text);
  return { id: extra.id, kind: extra.kind, purpose: extra.purpose, document };
}

/** The extra objects the plan's gateway needs, in the order its profile lists them; none for most gateways. */
export function extraManifestDocuments(plan: Plan, inputs: DrainInputs, profiles: Profiles): ExtraDocument[] {
  const gateway = gatewayById(profiles, inputs.gateway);
  return gateway.extraManifests.map((extra) => extraDocument(extra, gateway, plan, inputs, profiles));
}

/**
 * What the plan's gateway's extra objects take from the plan and inputs besides the pool's name and namespace, as
 * one string: two calls with the same key (and the same profiles) give objects that differ only in those two.
 */
export function extraValuesKey(plan: Plan, inputs: DrainInputs, profiles: Profiles): string {
  const gateway = gatewayById(profiles, inputs.gateway);
  const values = new Map<string, FilledValue>();
  const note = (name: TemplateValue): FilledValue => {
    if (name !== 'name' && name !== 'namespace' && !values.has(name))
      values.set(name, fillValue(name, plan, inputs, profiles));
    return { value: '' };
  };
  for (const extra of gateway.extraManifests) fillTemplate(extra.manifest, [], note, new Map());
  return JSON.stringify([gateway.id, [...values]]);
}
