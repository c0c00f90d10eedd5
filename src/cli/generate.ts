/**
 * `hitless generate`: the annotated manifest (YAML) or `{ inputs, plan, manifest }` (JSON) on stdout; exit 1 when an
 * error-severity warning was printed with it (on stderr), else 0.
 * `--output bundle|patch|helm-values|lws` picks the output form (an input like the others, so the generator's
 * links carry it); with more than one file, the YAML has a `# File:` line before each and JSON lists them as `files`.
 * `--drain-model 1` says the inputs were written for drain model v1: the output is v2's, and every value that
 * changed for them is listed, old → new (on stderr, and as `migration` in JSON).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIELDS } from '../model/fields.ts';
import { describeRange } from '../model/parse-value.ts';
import { fieldHelp } from '../model/field-help.ts';
import { resolveInputs, defaultsFor, profileIdsFor, DEFAULT_GATEWAY, DEFAULT_MODEL_SERVER } from '../model/resolve.ts';
import { plan, MODEL_VERSION } from '../model/plan.ts';
import { describeChange, migrateInputs } from '../model/migrate.ts';
import { emitOutput } from '../emit/output.ts';
import { OutputError } from '../emit/files.ts';
import { readOutputFacts } from '../facts/read-output-files.ts';
import { readProfiles } from '../facts/read-files.ts';
import { choiceOption, noPositional, parseArgs, UsageError } from './args.ts';
import { writeOutput } from './streams.ts';

const FORMATS = ['yaml', 'json'];

export const GENERATE_HELP = `Usage: hitless generate [--gateway ID] [--model-server ID] [--<input> VALUE ...] [--output FORM]
                        [--format yaml|json] [--out-dir DIR] [--drain-model 1]

Prints the annotated manifest for the inputs (hitless inputs lists them, with ranges and defaults); every drain
value carries a comment saying how it was derived. --output picks the form: bundle (one manifest, the default),
patch (a kustomize patch for your own Deployment), helm-values (values for GIE's inferencepool chart) or lws
(a LeaderWorkerSet). --out-dir DIR writes each file of the form into DIR (made if missing; files there with the
same names are replaced) and prints their names instead of the text. --format json prints
{ inputs, plan, manifest, files }. --drain-model 1 reads inputs written for drain model v1 and lists what changed.
Warnings go to stderr. Exit 0, or 1 when an error is printed with the manifest, 2 for a bad input or flag.`;

export const INPUTS_HELP = `Usage: hitless inputs

Lists every input of generate, check and policy: its flag, what it means, its allowed values and its default.`;

export async function runGenerate(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['format', 'drain-model', 'out-dir']);
  noPositional(args, 'generate');
  const format = choiceOption(args, 'format', FORMATS, 'yaml');
  const modelText = args.options['drain-model'] ?? String(MODEL_VERSION);
  if (!/^[1-9]\d*$/.test(modelText) || Number(modelText) > MODEL_VERSION) {
    throw new UsageError(
      `--drain-model must be a drain model version from 1 to ${MODEL_VERSION} (got ${JSON.stringify(modelText)})`,
    );
  }
  const profiles = readProfiles();
  const resolved = resolveInputs(args.inputs, profiles);
  if (resolved.errors.length > 0) throw new UsageError(resolved.errors.map((e) => `--${e.message}`).join('\n  '));
  const migration =
    Number(modelText) < MODEL_VERSION ? migrateInputs(args.inputs, Number(modelText), profiles).migration : undefined;
  const planned = plan(resolved.inputs, profiles);
  let output;
  try {
    output = emitOutput(planned, resolved.inputs, profiles, readOutputFacts());
  } catch (error) {
    if (error instanceof OutputError) throw new UsageError(`--${error.flag}: ${error.message}`);
    throw error;
  }
  const manifest = output.text;
  // The bundle is one file, the manifest itself; the other forms list theirs.
  const files =
    output.form === 'bundle' ? {} : { files: output.files.map(({ name, purpose, text }) => ({ name, purpose, text })) };
  if (migration) {
    const lines = migration.changes.length > 0 ? migration.changes.map((c) => `  ${describeChange(c)}`) : ['  nothing'];
    writeOutput(
      'stderr',
      `notice: these inputs were written for drain model v${migration.fromVersion}; this is v${MODEL_VERSION}'s output. What changed:\n${lines.join('\n')}\n`,
    );
  }
  const outDir = args.options['out-dir'];
  if (outDir !== undefined) {
    writeFiles(outDir, output.files);
  } else if (format === 'json') {
    // Without a migration its key is left out: JSON.stringify drops an undefined value.
    const out = { inputs: resolved.inputs, plan: planned, manifest, ...files, migration };
    writeOutput('stdout', `${JSON.stringify(out, null, 2)}\n`);
  } else {
    writeOutput('stdout', manifest);
  }
  for (const w of planned.warnings)
    if (w.severity !== 'info') writeOutput('stderr', `${w.severity} [${w.code}]: ${w.message}\n`);
  // An error means the manifest as emitted cuts requests or needs a step by hand: a script must not take it as clean.
  return planned.warnings.some((w) => w.severity === 'error') ? 1 : 0;
}

/** Write each file of an output form into `dir` (made if missing) and list them on stdout. */
function writeFiles(dir: string, files: readonly { name: string; text: string }[]): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new UsageError(`--out-dir ${dir} cannot be made (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
  for (const file of files) {
    const path = join(dir, file.name);
    try {
      writeFileSync(path, file.text);
    } catch (error) {
      throw new UsageError(`--out-dir: ${path} cannot be written (${(error as NodeJS.ErrnoException).code ?? error})`);
    }
    writeOutput('stdout', `${path}\n`);
  }
}

/** Run `hitless inputs`: every input with its allowed values and default. */
export async function runInputs(argv: string[]): Promise<number> {
  if (argv.length > 0) throw new UsageError('inputs takes no arguments');
  const profiles = readProfiles();
  const defaults = defaultsFor(profiles, DEFAULT_GATEWAY, DEFAULT_MODEL_SERVER);
  for (const f of FIELDS) {
    const d =
      f.default === 'profile'
        ? `from the data files (${defaults[f.key]} for ${DEFAULT_GATEWAY}/${DEFAULT_MODEL_SERVER})`
        : f.default === undefined
          ? 'none'
          : String(f.default);
    process.stdout.write(
      `--${f.flag}\n    ${fieldHelp(f, profiles)}\n    allowed: ${describeRange(f, f.kind === 'profile' ? profileIdsFor(f, profiles) : [])}; default: ${d}\n`,
    );
  }
  return 0;
}
