/**
 * Numbers and YAML for the guide pages, computed at build time through the drain core, so that no page
 * types a number the model produces. Not a page: the docs loader reads only Markdown files.
 */
import { emitManifest } from '../../emit/bundle.ts';
import { plan, type Plan } from '../../model/plan.ts';
import { resolveInputs } from '../../model/resolve.ts';
import { emitPolicy, type PolicyFormat } from '../../emit/policy/policy.ts';
import { profiles } from '../../facts/site.ts';
import { outputFacts } from '../../facts/site-output.ts';

export { profiles };

function resolved(raw: Record<string, unknown>) {
  const { inputs, errors } = resolveInputs(raw, profiles);
  if (errors.length > 0) throw new Error(`guide inputs are invalid: ${errors.map((e) => e.message).join('; ')}`);
  return inputs;
}

/** The plan for raw inputs keyed by flag (`{ gateway: 'istio' }`); the defaults when empty. */
export function planOf(raw: Record<string, unknown> = {}): Plan {
  return plan(resolved(raw), profiles);
}

/** The annotated manifest for raw inputs, as the generator and `hitless generate` print it. */
export function manifestOf(raw: Record<string, unknown> = {}): string {
  const inputs = resolved(raw);
  return emitManifest(plan(inputs, profiles), inputs, profiles, outputFacts.chart);
}

/** The admission policy (Warn + Audit, every namespace) for raw inputs, as `hitless policy` prints it. */
export function policyOf(format: PolicyFormat, raw: Record<string, unknown> = {}): string {
  const inputs = resolved(raw);
  return emitPolicy(plan(inputs, profiles), inputs, {
    format,
    actions: ['Warn', 'Audit'],
    namespaceLabels: {},
    name: 'hitless-drain',
    servers: profiles.modelServers,
  });
}

/**
 * One block of a manifest: the first line whose key is `key` (`lifecycle:`, `args:`), the comment lines
 * right above it, and every more-indented line below it, dedented.
 */
export function yamlBlock(manifest: string, key: string): string {
  const lines = manifest.split('\n');
  const start = lines.findIndex((l) => l.trimStart().startsWith(`${key}:`));
  if (start < 0) throw new Error(`the manifest has no ${key}: line`);
  const indentOf = (l: string) => l.length - l.trimStart().length;
  const indent = indentOf(lines[start]);
  let first = start;
  while (first > 0 && indentOf(lines[first - 1]) === indent && lines[first - 1].trimStart().startsWith('#')) first--;
  let end = start + 1;
  while (end < lines.length && lines[end].trim() !== '' && indentOf(lines[end]) > indent) end++;
  return lines
    .slice(first, end)
    .map((l) => l.slice(indent))
    .join('\n');
}
