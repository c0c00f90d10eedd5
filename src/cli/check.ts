/**
 * `hitless check FILE...`: check the manifests you run against the drain model. The files are read as one
 * manifest (so a pool in one file is matched with the Deployment in another); `-` reads stdin. There is no cap on
 * the input: one within the page's limits (256 KiB, 500 documents) is checked whole, a larger one in parts
 * (src/check/check-parts.ts), with the same findings. A large input is read, indexed and checked as it goes,
 * its parts and its printed findings kept in temporary stores (check-input.ts, check-findings.ts), so that memory
 * does not grow with the input, its parsed trees or its findings.
 * Exit 0 without error findings, 1 with any, 2 when the input or the settings cannot be used.
 */
import { existsSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { checkManifest, fixManifest, type Finding } from '../check/index.ts';
import { unifiedDiff } from '../check/fix/diff.ts';
import { describeCounts } from '../check/rules/findings.ts';
import { checkIndexedParts } from '../check/check-parts.ts';
import { formatKiB, MAX_DOCUMENTS, MAX_INPUT_BYTES } from '../check/read/limits.ts';
import { describeCheckedFor, settingErrors, type FoundSetting } from '../check/workload/settings.ts';
import { readProfiles } from '../facts/read-files.ts';
import { DEFAULT_GATEWAY } from '../facts/defaults.ts';
import { choiceOption, parseArgs, UsageError } from './args.ts';
import { readCheckInput, withPlainEnv, type CheckInput, type Joined } from './check-input.ts';
import { storeFindings, type FindingStore } from './check-findings.ts';
import { findingPrinter, locate, problemText } from './check-print.ts';
import { sarifFrame, sarifResultPrinter } from './sarif.ts';
import { formatAnnotation } from './github-annotations.ts';
import { explainAndPrint } from './check-explain.ts';
import { writePatch } from './check-patch.ts';
import { findConfig, readConfig } from './check-config.ts';
import type { RepoConfig } from '../check/config.ts';
import { writeOutput } from './streams.ts';
import { writeInPieces } from './write-pieces.ts';
import { boundYoungGeneration, type YoungGenerationBound } from './young-generation.ts';

const FORMATS = ['text', 'json', 'diff', 'patch', 'github', 'sarif'];

export { RULES_HELP, runRules } from './rules.ts';

/** A setting given on the command line that replaces a value read from the manifest. */
export interface Override {
  flag: string;
  /** The command line's value, which the check uses. */
  value: string;
  /** The manifest's value, which it replaces. */
  manifest: string;
  /** Where the manifest's value was read. */
  from: string;
}

/** Same value when both read as the same number (`3` and `3.0`), else the same text. */
function sameValue(a: string, b: string): boolean {
  const [x, y] = [a.trim(), b.trim()];
  return x === y || (x !== '' && y !== '' && Number.isFinite(Number(x)) && Number(x) === Number(y));
}

/** The command-line settings that differ from what the manifest says (the check uses the command line's). */
export function findOverrides(given: Record<string, string>, found: readonly FoundSetting[]): Override[] {
  return found
    .filter((f) => f.flag in given && !sameValue(given[f.flag], f.value))
    .map((f) => ({ flag: f.flag, value: given[f.flag], manifest: f.value, from: f.from }));
}

/** "--replicas 5 replaces the manifest's 3 (Deployment/m spec.replicas)". */
function overrideText(o: Override): string {
  return `--${o.flag} ${o.value} replaces the manifest's ${o.manifest} (${o.from})`;
}

export const CHECK_HELP = `Usage: hitless check FILE... [--gateway ID] [--<input> VALUE ...] [--format text|json|diff|patch|github|sarif]
         [--out-dir DIR] [--strict] [--fix] [--explain] [--config FILE | --no-config]

Checks the manifests (read as one; - reads stdin) against the drain model for the given gateway and request
settings. Each finding says whether its fix can be written for you (fixable: --format diff prints it, json's
"fixed" holds the fixed manifest) or what to do by hand (manual); --fix writes the fixable ones into the FILE (one,
checked whole) and then reports what is left. A workload annotated hitless.dev/ignore: CODE[,CODE] — REASON has
those findings shown as notes with the reason. An error that rests on an input the manifest does not state and you
did not give (the longest request, the gateway's removal p99, the model load time, spare GPUs, the Kubernetes
version: a default) is reported as a warning naming the settings to give; --strict fails the run on those too, and
on a run that checked no model-server workload. A generator header listing its inputs states them all. The manifest
supplies the model server, replicas, GPUs, probes and names; an input given here replaces the manifest's value, and
the output lists each one it replaced. --format github prints GitHub Actions annotations (file and line); --format
sarif a SARIF 2.1.0 log for code scanning. Without --gateway, the gateway is read from the manifest (a gateway
policy, a Gateway's class, an Envoy AI Gateway route, the generator's header comment), else ${DEFAULT_GATEWAY}; the
output says which. --format diff prints the fixes as a unified diff (one FILE of at most 256 KiB); --format patch
the same fixes as a kustomization of JSON 6902 patches over FILE, each change tested against the value it replaces
(--out-dir DIR writes its files; DIR must hold FILE). Any number of documents is checked; inputs over 256 KiB or
500 documents are read in parts. --explain prints what the checker read instead of findings: each workload's
containers (server, release, role, evidence) and each input, read, given or assumed. A .hitless.yaml found upward
from the first FILE (or --config FILE) gives the gateway, inputs (for all workloads, and per workload by name,
namespace, kind or labels), rule levels (off, note, warning, error) and suppressions with a reason; its settings
count as given, flags win. Exit 0 without error findings, 1 with any, 2 when the input or the settings cannot be
used.`;

/**
 * The path a diff names its file by, so that `git apply` and `patch -p1` take it: relative to the current folder
 * (`sub/../x.yaml` is `x.yaml`); for a file outside it (which both refuse as an unsafe path), relative to the top of
 * the git work tree that holds the file, else to the file's own folder, with the folder to apply it in.
 */
function diffPath(name: string): { path: string; applyIn?: string } {
  if (name === '-') return { path: 'stdin' };
  const file = resolve(name);
  const here = relative(process.cwd(), file);
  if (!here.startsWith('..') && !isAbsolute(here)) return { path: here };
  let top = dirname(file);
  while (!existsSync(join(top, '.git')) && dirname(top) !== top) top = dirname(top);
  if (!existsSync(join(top, '.git'))) top = dirname(file);
  return { path: relative(top, file), applyIn: top };
}

/**
 * The inputs checked: the whole check's result or a check in parts'. `printed` has the printed findings (sorted),
 * their counts, and how many errors are reported as warnings because they rest on assumed inputs (--strict fails the
 * run on them); `fix`, only for an input checked whole, the parsed manifest and the findings whose fixes edit it.
 */
function check(
  input: CheckInput & { kind: 'whole' | 'parts' },
  settings: Record<string, string>,
  profiles: ReturnType<typeof readProfiles>,
  print: (f: Finding) => string,
  stores: { close(): void }[],
  young: YoungGenerationBound,
  config: RepoConfig | undefined,
) {
  if (input.kind === 'whole') {
    const whole = withPlainEnv(() => checkManifest(input.text, settings, profiles, undefined, undefined, config));
    if (!whole.ok) return whole;
    const { findings, counts } = whole.report;
    const assumed = findings.filter((f) => f.assumed).length;
    return {
      ok: true as const,
      report: whole.report,
      printed: { counts, assumed, pieces: () => findings.map(print) },
      fix: { manifest: whole.manifest, findings },
    };
  }
  if (input.problem || !input.indexer || !input.store) return { ok: false as const, problem: input.problem! };
  const { indexer, store } = input;
  const found: FindingStore = storeFindings(print);
  let assumed = 0;
  stores.push(found);
  const result = withPlainEnv(() =>
    checkIndexedParts(
      indexer,
      (i) => {
        // Between batches too: the young generation may reach its bound only once the check is under way.
        young.poll();
        return store.text(i);
      },
      settings,
      profiles,
      (f) => {
        if (f.assumed) assumed++;
        found.add(f);
      },
      undefined,
      config,
    ),
  );
  if (!result.ok) return result;
  return {
    ok: true as const,
    report: result.report,
    printed: { counts: found.counts, assumed, pieces: () => found.sorted() },
    fix: undefined,
  };
}

export async function runCheck(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['format', 'config', 'out-dir'], ['strict', 'fix', 'explain', 'no-config']);
  const strict = args.options.strict !== undefined;
  const format = choiceOption(args, 'format', FORMATS, 'text');
  if (args.positional.length === 0) throw new UsageError('check needs at least one FILE (or - to read stdin)');
  if (args.options.fix === 'true') {
    if (args.positional.length !== 1 || args.positional[0] === '-')
      throw new UsageError('--fix writes one FILE in place: give exactly one, not - (use --format diff for stdin)');
    if (format === 'diff') throw new UsageError('--fix writes the fixes; --format diff prints them: choose one');
  }
  if (args.positional.filter((p) => p === '-').length > 1) throw new UsageError('- (stdin) can be given once');
  if (format === 'patch' && (args.positional.length !== 1 || args.positional[0] === '-'))
    throw new UsageError('--format patch builds on one FILE (a kustomization names it as its resource), not -');
  if (args.options['out-dir'] !== undefined && format !== 'patch')
    throw new UsageError('--out-dir writes the files of --format patch');
  const profiles = readProfiles();
  const errors = settingErrors(args.inputs, profiles);
  if (errors.length > 0) throw new UsageError(errors.map((e) => `--${e.message}`).join('\n  '));
  const configFile = findConfig(args.positional, args.options.config, args.options['no-config'] === 'true');
  const config = configFile === undefined ? undefined : readConfig(configFile, profiles);

  if (args.options.explain === 'true') {
    if (args.options.fix === 'true')
      throw new UsageError('--explain prints what was read; --fix writes fixes: choose one');
    return explainAndPrint(args.positional, args.inputs, profiles, format, config);
  }
  if (args.options.fix === 'true') await fixInPlace(args.positional[0], args.inputs, profiles, config);
  // Within the page's limits the input is checked whole (and can be fixed); beyond them, in parts.
  const young = boundYoungGeneration();
  const input = await readCheckInput(args.positional, profiles, format !== 'diff' && format !== 'patch', young.poll);
  const stores: { close(): void }[] = input.kind === 'parts' && input.store ? [input.store] : [];
  try {
    return await checkAndPrint(input, args, format, strict, profiles, stores, young, config);
  } finally {
    for (const store of stores) store.close();
    young.release();
  }
}

/** The first file's own text: without the line break the joined text added after its last line, if it had none. */
const ownText = (input: Joined, text: string) => (input.starts[0].addedBreak ? text.replace(/\n$/, '') : text);

/**
 * `check --fix`: write the fixes into the file (as eslint --fix does), then the usual check reports what is left.
 * Only a file checked whole is fixed; the file is replaced at once (a temporary file beside it, renamed over it, with
 * its mode), through a symlink to the file it names, and keeps its lack of a final line break. An input that cannot
 * be checked is left alone: the check that follows says why.
 */
async function fixInPlace(
  name: string,
  settings: Record<string, string>,
  profiles: ReturnType<typeof readProfiles>,
  config: RepoConfig | undefined,
) {
  const input = await readCheckInput([name], profiles, false);
  if (input.kind !== 'whole') {
    if (input.kind === 'parts')
      throw new UsageError(
        `--fix fixes a file of at most ${formatKiB(MAX_INPUT_BYTES)} and ${MAX_DOCUMENTS} documents (this one is ${formatKiB(input.bytes)}); split it`,
      );
    return;
  }
  const result = checkManifest(input.text, settings, profiles, undefined, undefined, config);
  if (!result.ok) return;
  const before = ownText(input, input.text);
  const after = ownText(input, fixManifest(result.manifest, result.report.findings).text);
  if (after === before) return;
  const fixed = result.report.findings.filter((f) => f.fix && f.fix.edits.length > 0).map((f) => f.code);
  const target = realpathSync(name);
  const temporary = join(dirname(target), `.${basename(target)}.hitless-${process.pid}.tmp`);
  try {
    writeFileSync(temporary, after, { flag: 'wx', mode: statSync(target).mode & 0o7777 });
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new UsageError(
      `--fix could not write ${name} (${(error as NodeJS.ErrnoException).code ?? error}); it is unchanged`,
    );
  }
  writeOutput(
    'stderr',
    `hitless check: fixed ${name}: ${fixed.length} fix${fixed.length === 1 ? '' : 'es'} written (${[...new Set(fixed)].join(', ')}); what is left follows\n`,
  );
}

async function checkAndPrint(
  input: CheckInput,
  args: ReturnType<typeof parseArgs>,
  format: string,
  strict: boolean,
  profiles: ReturnType<typeof readProfiles>,
  stores: { close(): void }[],
  young: YoungGenerationBound,
  config: RepoConfig | undefined,
): Promise<number> {
  /** Say why the input cannot be checked, on stderr and (with --format json) on stdout; exit 2. */
  const unusable = (texts: string[], problems: object[]) => {
    for (const text of texts) process.stderr.write(`hitless check: ${text}\n`);
    if (format === 'json') process.stdout.write(`${JSON.stringify({ ok: false, exitCode: 2, problems }, null, 2)}\n`);
    return 2;
  };
  if (input.kind === 'unreadable') {
    return unusable(
      input.unreadable.map((u) => `${u.name} ${u.problem}`),
      input.unreadable.map((u) => ({ file: u.name, message: u.problem })),
    );
  }
  if (input.kind === 'parts' && (format === 'diff' || format === 'patch')) {
    throw new UsageError(
      `--format ${format} fixes at most ${formatKiB(MAX_INPUT_BYTES)} and ${MAX_DOCUMENTS} documents (this input is ${formatKiB(input.bytes)} in ${input.parts} parts); check it without --format ${format}, or fix its files one at a time`,
    );
  }
  const print = format === 'sarif' ? sarifResultPrinter(input) : findingPrinter(format, input);
  const result = check(input, args.inputs, profiles, print, stores, young, config);
  if (!result.ok) {
    const text = problemText(input, result.problem);
    return unusable([text], [{ file: locate(input, result.problem.line), ...result.problem, message: text }]);
  }
  const { report, printed, fix } = result;
  const { counts } = printed;
  // --strict (for CI): a run that checked no model-server workload fails too, and so does an error that rests on
  // assumed inputs (reported as a warning without it).
  const code = counts.error > 0 || (strict && (report.workloads === 0 || printed.assumed > 0)) ? 1 : 0;
  const overrides = findOverrides(args.inputs, report.found);
  const names = input.starts.map((s) => s.name);
  if (format === 'diff' || format === 'patch') {
    if (format === 'diff' && names.length !== 1) throw new UsageError('--format diff needs exactly one FILE');
    if (!fix || input.kind !== 'whole') throw new Error(`--format ${format} needs the whole check`);
    const fixed = fixManifest(fix.manifest, fix.findings).text;
    if (format === 'patch') {
      writePatch(names[0], args.options['out-dir'], fix.manifest, fixed);
      return code;
    }
    const where = diffPath(names[0]);
    if (where.applyIn)
      writeOutput('stderr', `hitless check: the diff's paths are relative to ${where.applyIn}: apply it there\n`);
    process.stdout.write(unifiedDiff(ownText(input, input.text), ownText(input, fixed), where.path));
    return code;
  }
  const workloads = `${report.workloads} model-server workload${report.workloads === 1 ? '' : 's'} checked`;
  let pieces: Iterable<string>;
  if (format === 'github') {
    const message =
      report.workloads === 0
        ? `No model-server workload was checked (${describeCounts(counts)}).`
        : `${describeCounts(counts)} (${workloads}).`;
    const level = code === 0 ? 'notice' : 'error';
    pieces = framed('', printed.pieces(), `${formatAnnotation({ level, title: 'hitless check', message })}\n`, false);
  } else if (format === 'sarif') {
    const [before, after] = sarifFrame(code);
    pieces = framed(before, printed.pieces(), after);
  } else if (format === 'json') {
    // The fixed manifest of one file, checked whole (a larger input is not fixed in one piece).
    const fixed = names.length === 1 && fix ? fixManifest(fix.manifest, fix.findings).text : undefined;
    // The findings are written as they are read from the store (the same text as one JSON.stringify), so that a
    // large input's output is never held whole in memory.
    const [before, after] =
      `${JSON.stringify({ ok: code === 0, exitCode: code, counts, checkedFor: report.checkedFor, config: config?.file, overrides, findings: [], found: report.found, generator: report.generator, fixed }, null, 2)}\n`.split(
        '"findings": []',
      );
    pieces =
      counts.error + counts.warning + counts.info === 0
        ? [`${before}"findings": []${after}`]
        : framed(`${before}"findings": [`, printed.pieces(), `\n  ]${after}`);
  } else {
    const out = [
      report.workloads === 0
        ? `${names.join(', ')}: no model-server workload was checked, so this is not a pass (${describeCounts(counts)})${strict ? '; --strict fails the run' : ''}`
        : `${names.join(', ')}: ${describeCounts(counts)} (${workloads})`,
      `  Checked for: ${describeCheckedFor(report.checkedFor)}; change it with --gateway ID`,
      ...(config ? [`  Config: ${config.file} (--no-config ignores it)`] : []),
      ...overrides.map((o) => `  Your setting: ${overrideText(o)}`),
      ...(printed.assumed > 0
        ? [
            `  Assumed: ${printed.assumed} warning${printed.assumed === 1 ? '' : 's'} would be ${printed.assumed === 1 ? 'an error' : 'errors'} on inputs the manifest does not state; each names the settings to give${strict ? ' (--strict fails the run on them)' : ', or --strict fails the run on them'}`,
          ]
        : []),
    ];
    const { generator } = report;
    const generate = generator && `hitless generate${generator.flags ? ` ${generator.flags}` : ''}`;
    pieces = framed(
      `${out.join('\n')}\n`,
      printed.pieces(),
      generate ? `  The generator's manifest for these settings: ${generate}\n` : '',
      false,
    );
  }
  await writeInPieces(process.stdout, pieces);
  return code;
}

/**
 * `before`, the printed findings and `after`. A JSON or SARIF finding's text starts with the comma that separates it
 * from the one before (`commas`): the first one's is left out.
 */
function* framed(before: string, findings: Iterable<string>, after: string, commas = true): Generator<string> {
  yield before;
  let first = commas;
  for (const piece of findings) {
    yield first ? piece.slice(1) : piece;
    first = false;
  }
  yield after;
}
