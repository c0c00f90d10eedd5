/**
 * Unknown-field check for Kubernetes built-in objects, as `kubectl apply --validate=strict` (the default
 * since kubectl 1.27 warns, strict rejects) does it. kubernetes-models' validators check types but accept
 * unknown keys, so a misspelt field (`failureTreshold`) would pass them; this walks the object against the
 * field lists in kubernetes-models' own type declarations (`.d.ts`), which are generated from the
 * Kubernetes OpenAPI spec, and reports every key the API does not have.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A field's type: a primitive/alias (not checked further), a nested object type, a list or a map of one. */
type FieldType =
  | { kind: 'leaf' }
  | { kind: 'object'; file: string }
  | { kind: 'array'; of: FieldType }
  | { kind: 'map'; of: FieldType };

interface ObjectType {
  fields: Map<string, FieldType>;
}

const cache = new Map<string, ObjectType | null>();

/** The .d.ts file an import specifier in `fromFile` names. */
function resolveImport(fromFile: string, specifier: string): string {
  if (specifier.startsWith('.')) return resolve(dirname(fromFile), specifier.replace(/\.js$/, '.d.ts'));
  return fileURLToPath(import.meta.resolve(specifier)).replace(/\.js$/, '.d.ts');
}

function parseType(text: string, imports: Map<string, string>): FieldType {
  const t = text.trim();
  const array = /^Array<(.+)>$/.exec(t);
  if (array) return { kind: 'array', of: parseType(array[1], imports) };
  const map = /^\{\s*\[key: string\]: (.+?);?\s*\}$/s.exec(t);
  if (map) return { kind: 'map', of: parseType(map[1], imports) };
  const file = imports.get(t);
  return file ? { kind: 'object', file } : { kind: 'leaf' };
}

/** Parse the first `export interface` of a kubernetes-models declaration file; null for type aliases. */
function loadType(file: string): ObjectType | null {
  if (cache.has(file)) return cache.get(file)!;
  const source = readFileSync(file, 'utf8').replace(/\/\*\*[\s\S]*?\*\//g, '');
  const imports = new Map<string, string>();
  for (const m of source.matchAll(/import \{ (\w+) \} from "([^"]+)";/g)) imports.set(m[1], resolveImport(file, m[2]));
  const body = /export interface \w+(?: extends [\w, ]+)? \{\n([\s\S]*?)\n\}/.exec(source);
  if (!body) {
    cache.set(file, null);
    return null;
  }
  const fields = new Map<string, FieldType>();
  let pending: { name: string; text: string } | undefined;
  for (const line of body[1].split('\n')) {
    if (pending) {
      pending.text += `\n${line}`;
      if (/^ {4}\};$/.test(line)) {
        fields.set(pending.name, parseType(pending.text.replace(/;$/, ''), imports));
        pending = undefined;
      }
      continue;
    }
    const m = /^ {4}"([^"]+)"\??: (.*)$/.exec(line);
    if (!m) continue;
    if (m[2].endsWith(';')) fields.set(m[1], parseType(m[2].slice(0, -1), imports));
    else pending = { name: m[1], text: m[2] };
  }
  const type = { fields };
  cache.set(file, type);
  return type;
}

function check(value: unknown, type: FieldType, path: string, errors: string[]): void {
  if (value === null || value === undefined) return;
  if (type.kind === 'array') {
    if (Array.isArray(value)) value.forEach((item, i) => check(item, type.of, `${path}[${i}]`, errors));
  } else if (type.kind === 'map') {
    if (typeof value === 'object')
      for (const [k, v] of Object.entries(value)) check(v, type.of, `${path}[${JSON.stringify(k)}]`, errors);
  } else if (type.kind === 'object') {
    const objectType = loadType(type.file);
    if (!objectType || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      const field = objectType.fields.get(key);
      if (!field) errors.push(`${childPath}: unknown field (not in ${type.file.replace(/^.*node_modules\//, '')})`);
      else check(child, field, childPath, errors);
    }
  }
}

/** The declaration file of a kubernetes-models export, e.g. `kubernetes-models/apps/v1/Deployment`. */
function declarationOf(modelPath: string): string {
  return fileURLToPath(import.meta.resolve(modelPath)).replace(/\.js$/, '.d.ts');
}

/** Every key in `object` that the Kubernetes type at `modelPath` does not define, with its path. */
export function unknownFields(object: unknown, modelPath: string): string[] {
  const errors: string[] = [];
  check(object, { kind: 'object', file: declarationOf(modelPath) }, '', errors);
  return errors;
}
