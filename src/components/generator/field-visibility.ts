/**
 * Which inputs the forms leave out, and the note that says so in their place. A field is left out when it does not
 * apply to the current choice and the reader has neither typed a value there nor got an error for it (a value the
 * core refuses keeps its field, so it can be read and cleared). Leaving such fields out, rather than showing them
 * disabled, keeps the form short and the page quick: Chrome scans every text field when a page finishes parsing.
 *
 * - The health-check inputs (interval, unhealthy threshold, timeout, propagation) describe a gateway that notices a
 *   gone pod only by failed checks. Gateways without health-check data in their profile take a removal p99 instead,
 *   and the drain core refuses these inputs for them.
 * - A field with `onlyForOutput` (the patch form's container name, the lws form's nodes per replica) applies to that
 *   output form only.
 */
import type { FieldSpec } from '../../model/fields.ts';
import { byId } from '../../model/resolve.ts';

/** What these rules read of the gateways: the full profiles, or the generator's choices (profile-choices.ts). */
interface GatewayList {
  gateways: readonly { id: string; name: string; healthCheck?: unknown }[];
}

/** The four health-check fields, by flag. */
const HEALTH_CHECK_FLAGS: readonly string[] = [
  'health-check-interval-seconds',
  'health-check-unhealthy-threshold',
  'health-check-timeout-seconds',
  'propagation-seconds',
];

/** What a form knows when it decides: the chosen gateway and output form, the reader's values and the errors. */
export interface FormState {
  gateway: string;
  /** The output form; the checker has none, and shows no output-specific field. */
  output?: string;
  raw: Record<string, string>;
  errors: ReadonlyMap<string, string>;
}

/** Whether the form leaves the field out (see the module's comment). */
export function fieldHidden(profiles: GatewayList, state: FormState, spec: FieldSpec): boolean {
  const typed = (state.raw[spec.flag] ?? '').trim() !== '';
  if (typed || state.errors.has(spec.flag)) return false;
  if (HEALTH_CHECK_FLAGS.includes(spec.flag) && !byId(profiles.gateways, state.gateway, 'gateway').healthCheck)
    return true;
  return spec.onlyForOutput !== undefined && state.output !== spec.onlyForOutput;
}

/** A list in prose: "a", "a and b", "a, b and c". */
export function listOf(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * The note in place of a group's left-out fields, or undefined when none is left out:
 * "Health-check interval, Unhealthy threshold, Health-check timeout and Propagation: only for “Your own gateway”;
 * other gateways use their removal p99." and "Container (patch): with the patch output form."
 */
export function hiddenFieldsNote(profiles: GatewayList, hidden: readonly FieldSpec[]): string | undefined {
  if (hidden.length === 0) return undefined;
  const sentences: string[] = [];
  const healthChecks = hidden.filter((f) => HEALTH_CHECK_FLAGS.includes(f.flag));
  if (healthChecks.length > 0) {
    const names = profiles.gateways.filter((g) => g.healthCheck).map((g) => `\u201c${g.name}\u201d`);
    sentences.push(
      `${listOf(healthChecks.map((f) => f.label))}: only for ${names.join(' or ')}; other gateways use their removal p99.`,
    );
  }
  const forms = [...new Set(hidden.flatMap((f) => (f.onlyForOutput ? [f.onlyForOutput] : [])))];
  for (const form of forms) {
    const labels = hidden.filter((f) => f.onlyForOutput === form).map((f) => f.label);
    sentences.push(`${listOf(labels)}: with the ${form} output form.`);
  }
  return sentences.join(' ');
}
