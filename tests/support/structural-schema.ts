/**
 * A small validator for the OpenAPI v3 "structural schema" subset that Kubernetes CRDs use, written for the
 * tests: type, properties, required, additionalProperties (false, or a schema for map values), enum,
 * minimum/maximum, minLength/maxLength, pattern, minItems/maxItems, minProperties/maxProperties, list map keys
 * (`x-kubernetes-list-map-keys`: items unique by those keys) and `rules` (the CEL validations a CRD carries,
 * written here as functions). Unknown fields are errors, as with `kubectl apply --validate=strict`.
 */

export type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';

export interface Rule {
  /** True when the value (the object the rule sits on) is valid. */
  check: (value: any) => boolean;
  message: string;
}

export interface Schema {
  type: SchemaType;
  properties?: Record<string, Schema>;
  required?: readonly string[];
  /** false (the default for objects with `properties`): unknown keys are errors. A schema: a map's values. */
  additionalProperties?: false | Schema;
  /** For maps: the schema of each key (the CRD writes this as a CEL rule over `self.all(k, ...)`). */
  keys?: Schema;
  items?: Schema;
  enum?: readonly (string | number | boolean)[];
  minimum?: number;
  maximum?: number;
  /** Integer width: the range Kubernetes' int32/int64 fields accept. */
  format?: 'int32' | 'int64';
  minLength?: number;
  maxLength?: number;
  pattern?: RegExp;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  listMapKeys?: readonly string[];
  rules?: readonly Rule[];
}

const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const INT64 = { min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER };

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** Validate `value` against `schema`; returns one message per problem, each starting with its path. */
export function validateSchema(value: unknown, schema: Schema, path = ''): string[] {
  const errors: string[] = [];
  const at = path || '(root)';
  const actual = typeOf(value);
  const typeOk = schema.type === 'number' ? actual === 'number' || actual === 'integer' : actual === schema.type;
  if (!typeOk) return [`${at}: must be ${schema.type} (got ${actual} ${show(value)})`];

  if (schema.enum && !schema.enum.includes(value as string | number | boolean)) {
    errors.push(`${at}: must be one of ${schema.enum.map((e) => show(e)).join(', ')} (got ${show(value)})`);
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) errors.push(`${at}: must be finite (got ${value})`);
    if (schema.minimum !== undefined && value < schema.minimum)
      errors.push(`${at}: must be >= ${schema.minimum} (got ${value})`);
    if (schema.maximum !== undefined && value > schema.maximum)
      errors.push(`${at}: must be <= ${schema.maximum} (got ${value})`);
    const width = schema.format === 'int32' ? INT32 : schema.format === 'int64' ? INT64 : undefined;
    if (width && (value < width.min || value > width.max))
      errors.push(`${at}: out of ${schema.format} range (got ${value})`);
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength)
      errors.push(`${at}: must be at least ${schema.minLength} characters (got ${show(value)})`);
    if (schema.maxLength !== undefined && length > schema.maxLength)
      errors.push(`${at}: must be at most ${schema.maxLength} characters (got ${length})`);
    if (schema.pattern && !schema.pattern.test(value))
      errors.push(`${at}: must match ${schema.pattern} (got ${show(value)})`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems)
      errors.push(`${at}: must have at least ${schema.minItems} items (got ${value.length})`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems)
      errors.push(`${at}: must have at most ${schema.maxItems} items (got ${value.length})`);
    if (schema.items) value.forEach((item, i) => errors.push(...validateSchema(item, schema.items!, `${path}[${i}]`)));
    if (schema.listMapKeys) {
      const seen = new Set<string>();
      for (const item of value) {
        const key = JSON.stringify(schema.listMapKeys.map((k) => (item as Record<string, unknown>)?.[k]));
        if (seen.has(key)) errors.push(`${at}: duplicate entry for ${schema.listMapKeys.join(', ')} = ${key}`);
        seen.add(key);
      }
    }
  }
  if (actual === 'object') {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    if (schema.minProperties !== undefined && keys.length < schema.minProperties)
      errors.push(`${at}: must have at least ${schema.minProperties} entries (got ${keys.length})`);
    if (schema.maxProperties !== undefined && keys.length > schema.maxProperties)
      errors.push(`${at}: must have at most ${schema.maxProperties} entries (got ${keys.length})`);
    for (const name of schema.required ?? []) {
      if (object[name] === undefined) errors.push(`${path ? `${path}.` : ''}${name}: is required`);
    }
    for (const [name, child] of Object.entries(object)) {
      const childPath = `${path ? `${path}.` : ''}${name}`;
      const known = schema.properties?.[name];
      if (known) {
        errors.push(...validateSchema(child, known, childPath));
      } else if (schema.additionalProperties) {
        if (schema.keys) errors.push(...validateSchema(name, schema.keys, `${childPath} (key)`));
        errors.push(...validateSchema(child, schema.additionalProperties, childPath));
      } else {
        errors.push(`${childPath}: unknown field`);
      }
    }
  }
  if (errors.length === 0) {
    for (const rule of schema.rules ?? []) if (!rule.check(value)) errors.push(`${at}: ${rule.message}`);
  }
  return errors;
}

// Kubernetes' shared string formats (apimachinery validation), used by several schemas.

/** DNS-1123 label: at most 63 characters. */
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
/** DNS-1123 subdomain: dot-separated labels, at most 253 characters. */
export const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** A qualified name's name part (label keys, annotations), at most 63 characters. */
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
/** A label value: empty, or at most 63 characters of alphanumerics, '-', '_' and '.' with alphanumeric ends. */
export const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** A label key: `[prefix/]name`, prefix a DNS subdomain of at most 253, name at most 63 characters. */
export function isQualifiedName(key: string): boolean {
  const slash = key.lastIndexOf('/');
  const prefix = slash === -1 ? undefined : key.slice(0, slash);
  const name = slash === -1 ? key : key.slice(slash + 1);
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix)))
    return false;
  return name.length >= 1 && name.length <= 63 && QUALIFIED_NAME_PART.test(name);
}

export const labelKeySchema: Schema = {
  type: 'string',
  minLength: 1,
  maxLength: 317,
  rules: [
    {
      check: (k: string) => isQualifiedName(k),
      message: 'must be a qualified name ([DNS-subdomain prefix/]name, name at most 63 characters)',
    },
  ],
};
export const labelValueSchema: Schema = { type: 'string', maxLength: 63, pattern: LABEL_VALUE };
const labelsSchema: Schema = { type: 'object', additionalProperties: labelValueSchema, keys: labelKeySchema };

/** metadata of a namespaced object as the generator writes it (name, namespace, labels, annotations). */
export const objectMetaSchema: Schema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 253, pattern: DNS1123_SUBDOMAIN },
    namespace: { type: 'string', minLength: 1, maxLength: 63, pattern: DNS1123_LABEL },
    labels: labelsSchema,
    annotations: { type: 'object', additionalProperties: { type: 'string' }, keys: labelKeySchema },
  },
};
