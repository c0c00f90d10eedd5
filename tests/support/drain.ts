/** Test helpers: the repository's profiles, and raw inputs → plan / manifest through the public core. */
import { readProfiles } from '../../src/profiles/read-files.ts';
import { emitManifest, plan, resolveInputs, type Plan } from '../../src/drain/index.ts';

export const profiles = readProfiles();

/** Resolve raw inputs (by flag) and plan them; fails the test if the inputs have errors. */
export function planOf(raw: Record<string, unknown> = {}): Plan {
  const { inputs, errors } = resolveInputs(raw, profiles);
  if (errors.length > 0) throw new Error(`unexpected input errors: ${errors.map((e) => e.message).join('; ')}`);
  return plan(inputs, profiles);
}

/** The manifest text for raw inputs. */
export function manifestOf(raw: Record<string, unknown> = {}): string {
  const { inputs, errors } = resolveInputs(raw, profiles);
  if (errors.length > 0) throw new Error(`unexpected input errors: ${errors.map((e) => e.message).join('; ')}`);
  return emitManifest(plan(inputs, profiles), inputs, profiles);
}

/** The warning codes of a plan. */
export function codesOf(p: Plan): string[] {
  return p.warnings.map((w) => w.code);
}
