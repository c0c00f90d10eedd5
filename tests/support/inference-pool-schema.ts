/**
 * The InferencePool `inference.networking.k8s.io/v1` schema, written for the tests from the Gateway API
 * Inference Extension's v1 API (`api/v1/inferencepool_types.go`, CRD
 * `config/crd/bases/inference.networking.k8s.io_inferencepools.yaml`); no npm package ships it.
 *
 * - spec.selector.matchLabels: required, 1 to 64 entries, Kubernetes label keys and values
 * - spec.targetPorts: 1 to 8 entries, each `{ number }` from 1 to 65535, numbers unique
 * - spec.appProtocol: `http` (the default) or `kubernetes.io/h2c`
 * - spec.endpointPickerRef: group (default "", a DNS subdomain or empty), kind (default Service),
 *   name (required), port.number (required when kind is Service), failureMode FailOpen | FailClose
 *   (default FailClose). Optional since v1.6.0, but still required by most implementations, so the
 *   generator always writes it and `requireEndpointPicker` (on by default) checks for it.
 */
import {
  DNS1123_LABEL,
  DNS1123_SUBDOMAIN,
  labelKeySchema,
  labelValueSchema,
  objectMetaSchema,
  validateSchema,
  type Schema,
} from './structural-schema.ts';

export const INFERENCE_POOL_API_VERSION = 'inference.networking.k8s.io/v1';

const portNumber: Schema = { type: 'integer', format: 'int32', minimum: 1, maximum: 65535 };

const endpointPickerRef: Schema = {
  type: 'object',
  required: ['name'],
  properties: {
    group: {
      type: 'string',
      maxLength: 253,
      pattern: /^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/,
    },
    kind: { type: 'string', minLength: 1, maxLength: 63, pattern: /^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$/ },
    name: { type: 'string', minLength: 1, maxLength: 253, pattern: DNS1123_SUBDOMAIN },
    port: { type: 'object', required: ['number'], properties: { number: portNumber } },
    failureMode: { type: 'string', enum: ['FailOpen', 'FailClose'] },
  },
  rules: [
    {
      check: (ref: { kind?: string; port?: unknown }) =>
        (ref.kind ?? 'Service') !== 'Service' || ref.port !== undefined,
      message: 'port is required when kind is Service (the default kind)',
    },
  ],
};

const inferencePoolSpecSchema: Schema = {
  type: 'object',
  required: ['selector', 'targetPorts'],
  properties: {
    selector: {
      type: 'object',
      required: ['matchLabels'],
      properties: {
        matchLabels: {
          type: 'object',
          minProperties: 1,
          maxProperties: 64,
          additionalProperties: labelValueSchema,
          keys: labelKeySchema,
        },
      },
    },
    targetPorts: {
      type: 'array',
      minItems: 1,
      maxItems: 8,
      listMapKeys: ['number'],
      items: { type: 'object', required: ['number'], properties: { number: portNumber } },
    },
    appProtocol: { type: 'string', enum: ['http', 'kubernetes.io/h2c'] },
    endpointPickerRef,
  },
};

const inferencePoolSchema: Schema = {
  type: 'object',
  required: ['apiVersion', 'kind', 'metadata', 'spec'],
  properties: {
    apiVersion: { type: 'string', enum: [INFERENCE_POOL_API_VERSION] },
    kind: { type: 'string', enum: ['InferencePool'] },
    metadata: {
      ...objectMetaSchema,
      properties: {
        ...objectMetaSchema.properties,
        namespace: { type: 'string', minLength: 1, maxLength: 63, pattern: DNS1123_LABEL },
      },
    },
    spec: inferencePoolSpecSchema,
  },
};

/** Validate an InferencePool object; returns one message per problem. */
export function validateInferencePool(object: unknown, options: { requireEndpointPicker?: boolean } = {}): string[] {
  const errors = validateSchema(object, inferencePoolSchema);
  const spec = (object as { spec?: { endpointPickerRef?: unknown } } | null)?.spec;
  if (
    (options.requireEndpointPicker ?? true)
    && spec
    && typeof spec === 'object'
    && spec.endpointPickerRef === undefined
  ) {
    errors.push('spec.endpointPickerRef: is required by most implementations (optional in the API only since v1.6.0)');
  }
  return errors;
}
