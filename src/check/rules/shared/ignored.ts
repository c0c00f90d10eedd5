/** The objects the checker ignores, by kind: the rules on unread kinds note each kind once. */
import type { CheckContext } from '../context.ts';
import { objectName } from '../context.ts';
import type { ManifestObject } from '../../read/read-manifest.ts';

/** Objects that belong beside a model-server workload and carry nothing the checker reads: no note for them. */
const COMPANION_KINDS: ReadonlySet<string> = new Set(['policy/v1 PodDisruptionBudget']);

/** The ignored objects grouped by apiVersion and kind, in input order; companions (a PodDisruptionBudget) left out. */
export function ignoredByKind(check: CheckContext): ManifestObject[][] {
  const byKind = new Map<string, ManifestObject[]>();
  for (const object of check.located.ignored) {
    // The generator writes a PodDisruptionBudget beside the Deployment; it holds no drain setting to check.
    if (COMPANION_KINDS.has(`${object.apiVersion} ${object.kind}`)) continue;
    const key = `${object.apiVersion} ${object.kind}`;
    byKind.set(key, [...(byKind.get(key) ?? []), object]);
  }
  return [...byKind.values()];
}

/** The first three objects' names, and how many more: "Kind/a, Kind/b, Kind/c and 2 more". */
export function namesOf(objects: ManifestObject[]): string {
  return objects.slice(0, 3).map(objectName).join(', ') + (objects.length > 3 ? ` and ${objects.length - 3} more` : '');
}
