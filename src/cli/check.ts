/**
 * `hitless check FILE...`: check the manifests you run against the drain model. The files are read as one
 * manifest (so a pool in one file is matched with the Deployment in another); `-` reads stdin. There is no cap on
 * the input: one within the page's limits (256 KiB, 500 documents) is checked whole, a larger one in parts
 * (src/drain/check/check-parts.ts), with the same findings and memory that does not grow with the parsed input.
 * Exit 0 without error findings, 1 with any, 2 when the input or the settings cannot be used.
 */
import { once } from 'node:events';
import { readFileSync, statSync } from 'node:fs';
import { checkManifest, fixManifest, type Finding, type InputProblem } from '../drain/check/index.ts';
import { unifiedDiff } from '../drain/check/diff.ts';
import { describeCounts } from '../drain/check/findings.ts';
import type { CheckResult } from '../drain/check/check.ts';
import { checkParts, type PartsResult } from '../drain/check/check-parts.ts';
import { formatKiB, MAX_DOCUMENTS, MAX_INPUT_BYTES } from '../drain/check/limits.ts';
import { splitDocuments } from '../drain/check/split-documents.ts';
import { describeCheckedFor, settingErrors, type FoundSetting } from '../drain/check/settings.ts';
import { readProfiles } from '../profiles/read-files.ts';
import { parseArgs, UsageError } from './args.ts';
import { annotationLevel, formatAnnotation } from './github-annotations.ts';

const FORMATS = ['text', 'json', 'diff', 'github'];

/** One input file's text, or why it cannot be read. */
type Input = { name: string; text: string } | { name: string; problem: string };

/** Decode UTF-8. */
function decode(name: string, bytes: Uint8Array): Input {
  try {
    return { name, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    return { name, problem: 'is not UTF-8 text; it looks like binary data, not a YAML manifest' };
  }
}

async function readStdin(): Promise<Input> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return decode('-', new Uint8Array(Buffer.concat(chunks)));
}

function readInput(name: string): Input {
  try {
    if (!statSync(name).isFile()) return { name, problem: 'is not a file' };
    return decode(name, new Uint8Array(readFileSync(name)));
  } catch (error) {
    return {
      name,
      problem:
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'does not exist'
          : `cannot be read (${(error as Error).message})`,
    };
  }
}

/** Where each file starts in the joined text, to turn a joined line back into file and line. */
interface Joined {
  text: string;
  starts: { name: string; line: number }[];
}

function join(inputs: { name: string; text: string }[]): Joined {
  let text = '';
  let line = 1;
  const starts: Joined['starts'] = [];
  inputs.forEach((input, i) => {
    if (i > 0) {
      text += '---\n';
      line += 1;
    }
    starts.push({ name: input.name, line });
    const body = input.text.endsWith('\n') || input.text === '' ? input.text : `${input.text}\n`;
    text += body;
    line += body.split('\n').length - 1;
  });
  return { text, starts };
}

function locate(joined: Joined, line: number | undefined): string {
  if (line === undefined) return joined.starts.length === 1 ? joined.starts[0].name : '';
  const file = [...joined.starts].reverse().find((s) => s.line <= line) ?? joined.starts[0];
  return `${file.name}:${line - file.line + 1}`;
}

function problemText(joined: Joined, problem: InputProblem): string {
  if (problem.line === undefined) return problem.message;
  const place = locate(joined, problem.line);
  const local = place.slice(place.lastIndexOf(':') + 1);
  const message = problem.message.replace(/at line \d+, column (\d+)/, `at line ${local}, column $1`);
  return `${place}${problem.column ? `:${problem.column}` : ''}: ${message}`;
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((l, i) => (i === 0 ? l : `${by}${l}`))
    .join('\n');
}

function findingText(joined: Joined, f: Finding): string {
  const where = [locate(joined, f.line), f.object, f.path].filter(Boolean).join('  ');
  const lines = [`  ${f.severity.padEnd(7)} ${f.code}${where ? `  ${where}` : ''}`, `          ${f.message}`];
  if (f.fix) lines.push(`          fix (${f.remedy}): ${indent(f.fix.text, '               ')}`);
  else lines.push(`          (${f.remedy})`);
  return lines.join('\n');
}

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

const USAGE = `Usage: hitless check FILE... [--gateway ID] [--<input> VALUE ...] [--format text|json|diff|github] [--strict]

Checks the manifests (read as one; - reads stdin) against the drain model for the given gateway and request
settings. Each finding says whether the fixed manifest carries its fix (applied) or what to do by hand
(manual). A workload annotated hitless.dev/ignore: CODE[,CODE] — REASON has those findings shown as notes with the
reason. --strict also fails a run that checked no model-server workload. The manifest supplies the model server,
replicas, GPUs, probes and names; an input given here replaces the manifest's value, and the output lists each
one it replaced. --format github prints GitHub Actions annotations (file and line). Without --gateway, the
gateway is read from the manifest (a gateway policy, a Gateway's class, the generator's header comment), else
gke; the output says which. --format diff prints the fixes as a unified diff (one FILE of at most 256 KiB).
Any number of documents is checked; inputs over 256 KiB or 500 documents are read in parts. Exit 0 without error findings, 1 with any, 2 when the input or the settings cannot
be used.`;

/**
 * Run `fn` with `process.env` replaced by a plain copy of it, then put the real one back. The yaml parser reads
 * `process.env.LOG_TOKENS` for every token it parses (and the composer `LOG_STREAM` for every document); on the real
 * `process.env` each read is a call into the runtime, which was about 40% of the parse time of a large input.
 */
function withPlainEnv<T>(fn: () => T): T {
  const real = Object.getOwnPropertyDescriptor(process, 'env');
  if (!real?.configurable || !('value' in real)) return fn();
  Object.defineProperty(process, 'env', { ...real, value: { ...process.env } });
  try {
    return fn();
  } finally {
    Object.defineProperty(process, 'env', real);
  }
}

/** Run `hitless check` with its arguments; returns the exit code. */
export async function runCheck(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const args = parseArgs(argv, ['format'], ['strict']);
  const strict = args.options.strict !== undefined;
  const format = args.options.format ?? 'text';
  if (!FORMATS.includes(format))
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')} (got ${JSON.stringify(format)})`);
  if (args.positional.length === 0) throw new UsageError('check needs at least one FILE (or - to read stdin)');
  if (args.positional.filter((p) => p === '-').length > 1) throw new UsageError('- (stdin) can be given once');
  const profiles = readProfiles();
  const errors = settingErrors(args.inputs, profiles);
  if (errors.length > 0) throw new UsageError(errors.map((e) => `--${e.message}`).join('\n  '));

  const inputs: Input[] = [];
  for (const name of args.positional) inputs.push(name === '-' ? await readStdin() : readInput(name));
  const unreadable = inputs.filter((i): i is { name: string; problem: string } => 'problem' in i);
  if (unreadable.length > 0) {
    for (const u of unreadable) process.stderr.write(`hitless check: ${u.name} ${u.problem}\n`);
    if (format === 'json')
      process.stdout.write(
        `${JSON.stringify({ ok: false, problems: unreadable.map((u) => ({ file: u.name, message: u.problem })) }, null, 2)}\n`,
      );
    return 2;
  }
  const joined = join(inputs as { name: string; text: string }[]);
  // Within the page's limits the input is checked whole (and can be fixed); beyond them, in parts.
  const parts = splitDocuments(joined.text);
  const bytes = Buffer.byteLength(joined.text);
  const whole = bytes <= MAX_INPUT_BYTES && parts.length <= MAX_DOCUMENTS;
  if (!whole && format === 'diff') {
    throw new UsageError(
      `--format diff fixes at most ${formatKiB(MAX_INPUT_BYTES)} and ${MAX_DOCUMENTS} documents (this input is ${formatKiB(bytes)} in ${parts.length} parts); check it without --format diff, or diff its files one at a time`,
    );
  }
  const wholeResult = whole ? withPlainEnv(() => checkManifest(joined.text, args.inputs, profiles)) : undefined;
  const result: CheckResult | PartsResult = wholeResult ?? withPlainEnv(() => checkParts(parts, args.inputs, profiles));
  /** The parsed manifest, which the fixes edit: only for an input checked whole. */
  const manifest = wholeResult?.ok ? wholeResult.manifest : undefined;
  if (!result.ok) {
    const text = problemText(joined, result.problem);
    process.stderr.write(`hitless check: ${text}\n`);
    if (format === 'json')
      process.stdout.write(
        `${JSON.stringify({ ok: false, problems: [{ file: locate(joined, result.problem.line), ...result.problem, message: text }] }, null, 2)}\n`,
      );
    return 2;
  }
  const { report } = result;
  // --strict (for CI): a run that checked no model-server workload fails too.
  const code = report.counts.error > 0 || (strict && report.workloads === 0) ? 1 : 0;
  const overrides = findOverrides(args.inputs, report.found);
  if (format === 'diff') {
    if (inputs.length !== 1) throw new UsageError('--format diff needs exactly one FILE');
    if (!manifest) throw new Error('--format diff needs the whole check');
    process.stdout.write(
      unifiedDiff(
        joined.text,
        fixManifest(manifest, report.findings).text,
        inputs[0].name === '-' ? 'stdin' : inputs[0].name,
      ),
    );
    return code;
  }
  if (format === 'github') {
    // One workflow annotation per finding, on its file and line, so the run shows them on the changed lines.
    const lines = report.findings.map((f) => {
      const place = locate(joined, f.line);
      const at = f.line === undefined ? undefined : place.lastIndexOf(':');
      const file = at === undefined ? place || undefined : place.slice(0, at);
      const line = at === undefined ? undefined : Number(place.slice(at + 1));
      const fix = f.fix ? ` Fix (${f.remedy ?? 'applied'}): ${f.fix.text}` : '';
      return formatAnnotation({
        level: annotationLevel(f.severity),
        file: file === '-' ? undefined : file,
        line: file === '-' ? undefined : line,
        title: `hitless ${f.code}${f.object ? ` (${f.object})` : ''}`,
        message: `${f.path ? `${f.path}: ` : ''}${f.message}${fix}`,
      });
    });
    lines.push(
      formatAnnotation({
        level: code === 0 ? 'notice' : 'error',
        title: 'hitless check',
        message:
          report.workloads === 0
            ? `No model-server workload was checked (${describeCounts(report.counts)}).`
            : `${describeCounts(report.counts)} (${report.workloads} model-server workload${report.workloads === 1 ? '' : 's'} checked).`,
      }),
    );
    process.stdout.write(`${lines.join('\n')}\n`);
    return code;
  }
  if (format === 'json') {
    const findingJson = ({ fix, ...f }: Finding) => {
      const place = locate(joined, f.line);
      const file = f.line === undefined ? place : place.slice(0, place.lastIndexOf(':'));
      return {
        ...f,
        file: file || undefined,
        line: f.line === undefined ? undefined : Number(place.slice(place.lastIndexOf(':') + 1)),
        fix: fix?.text,
      };
    };
    // The fixed manifest of one file, checked whole (a larger input is not fixed in one piece).
    const fixed = inputs.length === 1 && manifest ? fixManifest(manifest, report.findings).text : undefined;
    // The findings are written as they are formatted (the same text as one JSON.stringify), so that a large input's
    // output is never held whole in memory.
    const [before, after] =
      `${JSON.stringify({ ok: true, exitCode: code, counts: report.counts, checkedFor: report.checkedFor, overrides, findings: [], found: report.found, generator: report.generator, fixed }, null, 2)}\n`.split(
        '"findings": []',
      );
    await writeInPieces(
      report.findings.length === 0
        ? [`${before}"findings": []${after}`]
        : (function* pieces() {
            yield `${before}"findings": [`;
            for (const [i, f] of report.findings.entries())
              yield `${i > 0 ? ',' : ''}\n${JSON.stringify(findingJson(f), null, 2).replace(/^/gm, '    ')}`;
            yield `\n  ]${after}`;
          })(),
    );
    return code;
  }
  const names = inputs.map((i) => i.name).join(', ');
  const out = [
    report.workloads === 0
      ? `${names}: no model-server workload was checked, so this is not a pass (${describeCounts(report.counts)})${strict ? '; --strict fails the run' : ''}`
      : `${names}: ${describeCounts(report.counts)} (${report.workloads} model-server workload${report.workloads === 1 ? '' : 's'} checked)`,
    `  Checked for: ${describeCheckedFor(report.checkedFor)}; change it with --gateway ID`,
    ...overrides.map((o) => `  Your setting: ${overrideText(o)}`),
  ];
  await writeInPieces(
    (function* pieces() {
      yield `${out.join('\n')}\n`;
      for (const f of report.findings) yield `${findingText(joined, f)}\n`;
      yield `  The generator's manifest for these settings: npx hitless generate${report.generator.flags ? ` ${report.generator.flags}` : ''}\n`;
    })(),
  );
  return code;
}

/**
 * Write pieces of text to stdout about 256 KiB at a time. A pipe (a CI step's, `| less`) takes them asynchronously:
 * each write waits until the pipe has taken the last, so that a large output is never queued whole in memory (it
 * was about 100 MB of peak RSS for the findings of 10,000 documents).
 */
async function writeInPieces(pieces: Iterable<string>): Promise<void> {
  let pending = '';
  for (const piece of pieces) {
    pending += piece;
    if (pending.length >= 256 * 1024) {
      if (!process.stdout.write(pending)) await once(process.stdout, 'drain');
      pending = '';
    }
  }
  if (pending) process.stdout.write(pending);
}
