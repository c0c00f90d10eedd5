/** `hitless generate`: the annotated manifest (YAML) or `{ inputs, plan, manifest }` (JSON) on stdout. */
import { FIELDS } from '../drain/fields.ts';
import { describeRange } from '../drain/parse-value.ts';
import { resolveInputs, defaultsFor, profileIdsFor, DEFAULT_GATEWAY, DEFAULT_MODEL_SERVER } from '../drain/resolve.ts';
import { plan } from '../drain/plan.ts';
import { emitManifest } from '../drain/emit.ts';
import { readProfiles } from '../profiles/read-files.ts';
import { parseArgs, UsageError } from './args.ts';

const FORMATS = ['yaml', 'json'];

/** Run `hitless generate` with its arguments; returns the exit code. */
export async function runGenerate(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['format']);
  if (args.positional.length > 0) throw new UsageError(`generate takes no file arguments (got ${JSON.stringify(args.positional[0])})`);
  const format = args.options.format ?? 'yaml';
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')} (got ${JSON.stringify(format)})`);
  const profiles = readProfiles();
  const resolved = resolveInputs(args.inputs, profiles);
  if (resolved.errors.length > 0) {
    throw new UsageError(resolved.errors.map((e) => `--${e.message}`).join('\n  '));
  }
  const planned = plan(resolved.inputs, profiles);
  const manifest = emitManifest(planned, resolved.inputs, profiles);
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify({ inputs: resolved.inputs, plan: planned, manifest }, null, 2)}\n`);
  } else {
    process.stdout.write(manifest);
    for (const w of planned.warnings) if (w.severity === 'warning') process.stderr.write(`warning [${w.code}]: ${w.message}\n`);
  }
  return 0;
}

/** Run `hitless inputs`: every input with its allowed values and default. */
export async function runInputs(argv: string[]): Promise<number> {
  if (argv.length > 0) throw new UsageError('inputs takes no arguments');
  const profiles = readProfiles();
  const defaults = defaultsFor(profiles, DEFAULT_GATEWAY, DEFAULT_MODEL_SERVER);
  for (const f of FIELDS) {
    const d = f.default === 'profile' ? `from the profile (${defaults[f.key]} for ${DEFAULT_GATEWAY}/${DEFAULT_MODEL_SERVER})` : f.default === undefined ? 'none' : String(f.default);
    process.stdout.write(`--${f.flag}\n    ${f.help}\n    allowed: ${describeRange(f, f.kind === 'profile' ? profileIdsFor(f, profiles) : [])}; default: ${d}\n`);
  }
  return 0;
}
