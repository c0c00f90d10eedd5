/**
 * The manifest of a batch of parts for the second pass of a check in parts (check-parts.ts), read by the quick
 * reader (read-plain-yaml.ts) when every part is in its plain style: the same objects as `readManifest` gives for
 * the batch's text, and the line of each node from the reader, so that no yaml Document is built. Such a manifest is
 * checked, never fixed (a large input is not fixed in one piece).
 */
import { LineCounter } from 'yaml';
import type { NodePath } from './path.ts';
import { objectFrom, type Manifest, type ManifestObject } from './read-manifest.ts';
import { readPlainYaml, type NodeLines } from './read-plain-yaml.ts';
import { lineBreaks } from './split-documents.ts';

/** A string index as yaml's `getIn` reads one in a sequence (`'1'` → 1), or undefined. */
function itemIndex(segment: string | number): number | undefined {
  const index = typeof segment === 'string' && segment ? Number(segment) : segment;
  return typeof index === 'number' && Number.isInteger(index) && index >= 0 ? index : undefined;
}

/**
 * The line of the node at a path (of its key, for a mapping entry), or of its nearest ancestor that exists, as
 * `lineAt` of read-manifest.ts finds it in a yaml Document: a step into a sequence by a string index (`'0'`) is
 * followed, as yaml's `getIn` follows it, but does not name the item's line.
 */
function plainLineAt(lines: NodeLines, values: unknown[], document: number, path: NodePath): number | undefined {
  let node = values[document];
  let line = lines.roots[document];
  if (node === undefined) return undefined;
  for (const segment of path) {
    const nodeLines = typeof node === 'object' && node !== null ? lines.nodes.get(node) : undefined;
    if (!nodeLines) break;
    if (Array.isArray(node)) {
      const index = itemIndex(segment);
      if (index === undefined || index >= node.length) break;
      if (typeof segment === 'number') line = nodeLines[index];
      node = node[index];
    } else {
      const map = node as Record<string, unknown>;
      if (typeof segment !== 'string' || !Object.hasOwn(map, segment)) break;
      line = nodeLines[Object.keys(map).indexOf(segment)];
      node = map[segment];
    }
  }
  return line;
}

/**
 * The manifest of parts (each one YAML document, in input order, each ending with a line break but the input's
 * last) read by the quick reader, or `undefined` when any part is not in its plain style or is no single object.
 */
export function readPlainManifest(texts: string[]): Manifest | undefined {
  const lines: NodeLines = { nodes: new Map(), roots: [] };
  const objects: ManifestObject[] = [];
  let line = 1;
  for (const [document, text] of texts.entries()) {
    const value = readPlainYaml(text, lines, line);
    const object = value === undefined ? undefined : objectFrom(value, document, []);
    if (object === undefined || typeof object === 'string' || object.kind === 'List') return undefined;
    objects.push(object);
    line += lineBreaks(text);
  }
  const values = objects.map((o) => o.value);
  return {
    text: texts.join(''),
    documents: [],
    lineCounter: new LineCounter(),
    objects,
    strays: [],
    plain: { documents: texts.length, lineAt: (document, path) => plainLineAt(lines, values, document, path) },
  };
}
