/**
 * Record what `hitless check` prints (stdout, stderr, exit code) for a set of inputs, to show that a change to the
 * checker leaves its output byte for byte as it was: every fixture in every format; all fixtures as one input large
 * enough to be checked in parts (also with an invalid document last); the bench's input of 2,000 and 10,000
 * documents under each gateway; a large input on stdin in pieces of odd sizes (alone and after files), and as files with
 * CRLF line ends, a byte order mark and no last line break. Run it on the old and the new source and compare:
 *
 *   node scripts/compare-check-output.ts --root OLD_CHECKOUT --out .builds/check-old
 *   node scripts/compare-check-output.ts --root . --out .builds/check-new --against .builds/check-old
 *
 * `--root` is a checkout with node_modules (its src/ is the checker run); `--quick` leaves out the 10,000 documents.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { readRuleFixtures } from '../tests/support/rule-fixtures.ts';
import { benchCheckInput } from './bench-check-input.ts';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

const root = resolve(option('root') ?? '.');
const out = resolve(option('out') ?? '.builds/check-output');
const against = option('against') && resolve(option('against')!);
const quick = process.argv.includes('--quick');

const { runCheck } = (await import(pathToFileURL(join(root, 'src/cli/check.ts')).href)) as {
  runCheck: (argv: string[]) => Promise<number>;
};
const { readProfiles } = (await import(pathToFileURL(join(root, 'src/facts/read-files.ts')).href)) as {
  readProfiles: () => { gateways: { id: string }[] };
};

/** Run the check with stdout and stderr captured (and `stdin` as its standard input, in pieces of odd sizes). */
async function capture(argv: string[], stdin?: string): Promise<string> {
  const realStdin = Object.getOwnPropertyDescriptor(process, 'stdin')!;
  if (stdin !== undefined) {
    const pieces: Buffer[] = [];
    const bytes = Buffer.from(stdin);
    for (let at = 0, size = 1; at < bytes.length; at += size, size = (size * 7 + 3) % 70_001)
      pieces.push(bytes.subarray(at, at + size));
    Object.defineProperty(process, 'stdin', {
      configurable: true,
      enumerable: realStdin.enumerable,
      value: Readable.from(pieces),
    });
  }
  const chunks: string[] = [];
  const [stdout, stderr] = [process.stdout.write, process.stderr.write];
  process.stdout.write = ((c: string | Uint8Array) => chunks.push(`${c}`) > 0) as typeof process.stdout.write;
  process.stderr.write = ((c: string | Uint8Array) => chunks.push(`[stderr] ${c}`) > 0) as typeof process.stderr.write;
  let code: number | string;
  try {
    code = await runCheck(argv);
  } catch (error) {
    code = `threw ${(error as Error).message}`;
  } finally {
    process.stdout.write = stdout;
    process.stderr.write = stderr;
    if (stdin !== undefined) Object.defineProperty(process, 'stdin', realStdin);
  }
  return `exit ${code}\n${chunks.join('')}`;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((n) => n.endsWith('.yaml'))
    .sort()
    .map((n) => join(dir, n));
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const inputs = join(out, 'inputs');
mkdirSync(inputs);
process.chdir(root);
const cases: { name: string; argv: string[] }[] = [];
/**
 * The rule fixtures as the audit reads them (composed on their base, fixed.diff applied; an older checkout's whole
 * files as they are), written under inputs/ with their own paths, so that the outputs name the same files.
 */
function ruleFixtureFiles(): string[] {
  const readBase = (name: string) => readFileSync(join(root, 'tests/fixtures/shapes', `${name}.yaml`), 'utf8');
  const files: string[] = [];
  for (const code of readdirSync(join(root, 'src/check/rules')).sort()) {
    const dir = join(root, 'src/check/rules', code);
    if (!existsSync(join(dir, 'fires.yaml'))) continue;
    const texts = readRuleFixtures(pathToFileURL(`${dir}/`), readBase);
    const fixed =
      texts.fixed ?? (existsSync(join(dir, 'fixed.yaml')) ? readFileSync(join(dir, 'fixed.yaml'), 'utf8') : undefined);
    mkdirSync(join(inputs, 'src/check/rules', code), { recursive: true });
    for (const [name, text] of [
      ['does-not-fire.yaml', texts.doesNotFire],
      ['fires.yaml', texts.fires],
      ['fixed.yaml', fixed],
    ]) {
      if (text === undefined) continue;
      writeFileSync(join(inputs, 'src/check/rules', code, name!), text);
      files.push(join(inputs, 'src/check/rules', code, name!));
    }
  }
  return files;
}
const fixtures = [...yamlFiles('tests/fixtures'), ...ruleFixtureFiles()];
const caseName = (f: string) => (f.startsWith(inputs) ? relative(inputs, f) : f);
for (const f of fixtures)
  for (const format of ['text', 'json', 'github', 'diff'])
    cases.push({ name: `${caseName(f)}.${format}`, argv: [f, '--format', format] });

const results = new Map<string, string>();
for (const c of cases) results.set(c.name, await capture(c.argv));
// All fixtures that check alone, as one input over 256 KiB (so checked in parts), and as many files.
const usable = fixtures.filter((f) => !results.get(`${caseName(f)}.json`)!.startsWith('exit 2'));
const body = (f: string) => {
  const t = readFileSync(f, 'utf8');
  return t.endsWith('\n') ? t : `${t}\n`;
};
let all = usable.map(body).join('---\n');
while (Buffer.byteLength(all) <= 300 * 1024) all = `${all}---\n${all}`;
const invalid = fixtures.find(
  (f) =>
    results.get(`${caseName(f)}.json`)!.startsWith('exit 2')
    && /Not valid YAML/.test(results.get(`${caseName(f)}.json`)!),
);
writeFileSync(join(inputs, 'all-fixtures.yaml'), all);
if (invalid) writeFileSync(join(inputs, 'all-fixtures-invalid-last.yaml'), `${all}---\n${body(invalid)}`);
const more: { name: string; argv: string[] }[] = [];
for (const format of ['text', 'json', 'github']) {
  more.push({ name: `all-fixtures.${format}`, argv: [join(inputs, 'all-fixtures.yaml'), '--format', format] });
  more.push({ name: `all-fixtures-files.${format}`, argv: [...usable, ...usable, ...usable, '--format', format] });
  if (invalid)
    more.push({
      name: `all-fixtures-invalid-last.${format}`,
      argv: [join(inputs, 'all-fixtures-invalid-last.yaml'), '--format', format],
    });
}
// Stdin in pieces (a three-byte UTF-8 character is cut by some), and files with CRLF, a byte order mark and no last
// line break, so that the chunked reading meets every kind of boundary.
const euro = `${all}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: euro}\ndata: {price: "5 \u20ac"}\n`;
const stdinCases: { name: string; argv: string[]; stdin: string }[] = [];
for (const format of ['text', 'json', 'github']) {
  stdinCases.push({ name: `all-fixtures-stdin.${format}`, argv: ['-', '--format', format], stdin: euro });
  stdinCases.push({
    name: `files-then-stdin.${format}`,
    argv: [...usable.slice(0, 5), '-', '--format', format],
    stdin: euro,
  });
}
const crlf = join(inputs, 'all-fixtures-crlf.yaml');
writeFileSync(crlf, all.replaceAll('\n', '\r\n'));
const bom = join(inputs, 'bom.yaml');
writeFileSync(bom, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(all.trimEnd())]));
for (const format of ['text', 'json', 'github']) {
  more.push({ name: `all-fixtures-crlf.${format}`, argv: [crlf, '--format', format] });
  more.push({ name: `bom-no-last-break.${format}`, argv: [bom, usable[0], bom, '--format', format] });
}
for (const docs of quick ? [2_000] : [2_000, 10_000]) {
  const file = join(inputs, `pairs-${docs}.yaml`);
  writeFileSync(file, benchCheckInput(docs));
  more.push({ name: `pairs-${docs}.text`, argv: [file] });
  more.push({ name: `pairs-${docs}.github`, argv: [file, '--format', 'github'] });
  for (const gateway of readProfiles().gateways.map((g) => g.id))
    more.push({ name: `pairs-${docs}.${gateway}.json`, argv: [file, '--format', 'json', '--gateway', gateway] });
}
for (const c of more) results.set(c.name, await capture(c.argv));
for (const c of stdinCases) results.set(c.name, await capture(c.argv, c.stdin));

let differ = 0;
for (const [name, text] of results) {
  // Input paths under --out differ between runs; write them as the same placeholder.
  const stable = text.replaceAll(inputs, '<inputs>').replaceAll(relative(root, inputs), '<inputs>');
  const file = join(out, `${name.replaceAll('/', '__')}.out`);
  writeFileSync(file, stable);
  if (against) {
    const old = join(against, `${name.replaceAll('/', '__')}.out`);
    if (!existsSync(old) || readFileSync(old, 'utf8') !== stable) {
      differ++;
      process.stdout.write(`DIFFERS: ${name}\n`);
    }
  }
}
process.stdout.write(
  `${results.size} outputs written to ${out}${against ? `; ${differ} differ from ${against}` : ''}\n`,
);
if (differ > 0) process.exitCode = 1;
