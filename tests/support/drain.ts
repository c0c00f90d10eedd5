/** Test helpers: the repository's profiles, and raw inputs → plan / manifest through the public core. */
import { readProfiles } from '../../src/facts/read-files.ts';
import { emitManifest } from '../../src/emit/bundle.ts';
import { plan, type Plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import type { ModelServerProfile, Profiles } from '../../src/facts/profiles.ts';
import { chart } from './chart.ts';

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
  return emitManifest(plan(inputs, profiles), inputs, profiles, chart);
}

/** The warning codes of a plan. */
export function codesOf(p: Plan): string[] {
  return p.warnings.map((w) => w.code);
}

/**
 * The repository's profiles with one model server changed, for tests that must not depend on today's data files:
 * `drain` replaces the server's drain facts (whole), `rest` any other top-level facts.
 */
export function withServer(
  id: string,
  drain: Partial<ModelServerProfile['drain']>,
  rest: Partial<ModelServerProfile> = {},
): Profiles {
  return {
    ...profiles,
    modelServers: profiles.modelServers.map((m) =>
      m.id === id
        ? {
            ...m,
            ...rest,
            drain: { summary: '', whileDraining: '', sources: [], ...drain } as ModelServerProfile['drain'],
          }
        : m,
    ),
  };
}

/** Resolve, plan and emit raw inputs against given profiles; fails the test on input errors. */
export function generateWith(given: Profiles, raw: Record<string, unknown> = {}): { plan: Plan; manifest: string } {
  const { inputs, errors } = resolveInputs(raw, given);
  if (errors.length > 0) throw new Error(`unexpected input errors: ${errors.map((e) => e.message).join('; ')}`);
  const p = plan(inputs, given);
  return { plan: p, manifest: emitManifest(p, inputs, given, chart) };
}
