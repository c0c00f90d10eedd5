/**
 * A Kubernetes object a gateway needs beside the Deployment and InferencePool (content/gateways/*.yaml
 * `extraManifests`), as a template: whole-string `${value}` placeholders where inputs or plan numbers go.
 */
import { z } from './zod.ts';
import { id, refuse, sourceIds, text } from './common.ts';

/**
 * The values a manifest template may name, as a whole string scalar `${value}`: the pool's name, namespace and
 * port, the model server's readiness path, and the plan's gateway settings.
 */
const TEMPLATE_VALUES = [
  'name',
  'namespace',
  'port',
  'readinessPath',
  'gatewayRequestTimeoutSeconds',
  'gatewayDrainingSeconds',
] as const;

/** One value a manifest template may name. */
export type TemplateValue = (typeof TEMPLATE_VALUES)[number];

const PLACEHOLDER = /^\$\{([A-Za-z]+)\}$/;

/** Every `${value}` a template names must be a known value; other strings must not contain `${`; no nulls. */
function checkTemplate(node: unknown, ctx: z.RefinementCtx, path: PropertyKey[]): void {
  const fail = (message: string) => refuse(ctx, path, message);
  if (typeof node === 'string') {
    const name = PLACEHOLDER.exec(node)?.[1];
    if (name !== undefined && !(TEMPLATE_VALUES as readonly string[]).includes(name))
      fail(`names \${${name}}, which is not a template value (known: ${TEMPLATE_VALUES.join(', ')})`);
    else if (name === undefined && node.includes('${'))
      fail('must be a whole ${value} placeholder or plain text without "${"');
  } else if (Array.isArray(node)) {
    node.forEach((item, i) => checkTemplate(item, ctx, [...path, i]));
  } else if (typeof node === 'object' && node !== null) {
    for (const [key, item] of Object.entries(node)) checkTemplate(item, ctx, [...path, key]);
  } else if (typeof node !== 'number' && typeof node !== 'boolean') {
    fail(`must be a string, number, boolean, list or mapping, found ${node === null ? 'null' : typeof node}`);
  }
}

/** The template values a manifest names. */
export function namedValues(node: unknown, found = new Set<string>()): Set<string> {
  if (typeof node === 'string') {
    const name = PLACEHOLDER.exec(node)?.[1];
    if (name !== undefined) found.add(name);
  } else if (typeof node === 'object' && node !== null) {
    for (const item of Object.values(node)) namedValues(item, found);
  }
  return found;
}

/** Whether a dotted path (`spec.targetRef.name`, `items.0`) leads to a value in an object. */
function hasPath(root: unknown, path: string): boolean {
  let node: unknown = root;
  for (const part of path.split('.')) {
    if (Array.isArray(node) && /^\d+$/.test(part)) node = node[Number(part)];
    else if (typeof node === 'object' && node !== null && !Array.isArray(node))
      node = (node as Record<string, unknown>)[part];
    else return false;
    if (node === undefined) return false;
  }
  return true;
}

const manifest = z
  .strictObject({
    apiVersion: z.string().regex(/^[a-z0-9.-]+\/[a-z0-9]+$/),
    kind: z.string().regex(/^[A-Z][A-Za-z0-9]*$/),
    metadata: z.strictObject({
      name: text,
      namespace: z.unknown().optional(),
      labels: z.unknown().optional(),
      annotations: z.unknown().optional(),
    }),
    spec: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((m, ctx) => checkTemplate(m, ctx, []));

/** A gateway's extra object: why it is needed, its template and comments by dotted path for values that are facts. */
export const extraManifest = z
  .strictObject({
    id,
    /** One sentence: why the gateway needs it; also the document's header comment. */
    purpose: text,
    sources: sourceIds,
    /** The object, with `${value}` strings where inputs or plan numbers go. */
    manifest,
    /** Comments by dotted path (`spec.default.checkIntervalSec`), for values whose reason is a fact. */
    comments: z.record(z.string(), text).default(() => ({})),
  })
  .superRefine((e, ctx) => {
    for (const path of Object.keys(e.comments)) {
      if (!hasPath(e.manifest, path)) refuse(ctx, ['comments', path], 'names no value of the manifest');
    }
  })
  // The object's kind, for headings and tables.
  .transform(({ id, ...rest }) => ({ id, kind: rest.manifest.kind, ...rest }));

/** A Kubernetes object a gateway needs beside the Deployment and InferencePool, as a template. */
export type ExtraManifest = z.output<typeof extraManifest>;
