// One install story (#32): the README, the site's pages and `hitless --help` give the same install command, the
// release tarball of this version; the README's CLI examples run outside a checkout (no `npx hitless`, which asks
// the npm registry for a package that is not there); its `--version` line is what the CLI prints; and no file a
// user reads or gets (docs, pages, the CLI's and the policies' messages, package metadata) points at a made-up
// address, since there is no public repository or site yet.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { versionLine } from '../../src/cli/version.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const INSTALL = `npm install -g ./hitless-${VERSION}.tgz`;

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Every file under a folder (relative to the root), skipping nothing: these folders hold only sources. */
function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(ROOT, path)).isDirectory() ? filesUnder(path) : [path];
  });
}

const README = read('README.md');
const DOCS = filesUnder('content/docs').filter((f) => f.endsWith('.mdx') || f.endsWith('.md'));
const HELP = spawnSync(process.execPath, [join(ROOT, 'src/cli/main.ts'), '--help'], { encoding: 'utf8' });

/** Each global npm install of a hitless tarball a text gives (`npm install -g …` or `npm i -g …`). */
function installCommands(text: string): string[] {
  return [...text.matchAll(/npm (?:install|i) (?:-g|--global) [^\s`'",;)]*hitless[^\s`'",;)]*/g)].map((m) => m[0]);
}

test('the README, the site and hitless --help give the same install command: this version\u2019s tarball', () => {
  assert.equal(HELP.status, 0, HELP.stderr);
  const sources: [string, string][] = [
    ['README.md', README],
    ['hitless --help', HELP.stdout],
    ...DOCS.map((f): [string, string] => [f, read(f)]),
  ];
  for (const [name, text] of sources) {
    for (const command of installCommands(text)) assert.equal(command, INSTALL, `${name} installs with ${command}`);
  }
  // Each of them gives it: the README, the help, the overview, the checker's CI section and the verify guide.
  for (const name of [
    'README.md',
    'hitless --help',
    'content/docs/index.mdx',
    'content/docs/checker.mdx',
    'content/docs/guides/verify-a-rollout.mdx',
  ]) {
    const text = sources.find(([n]) => n === name)?.[1] ?? '';
    assert.ok(installCommands(text).includes(INSTALL), `${name} gives ${INSTALL}`);
  }
  assert.match(HELP.stdout, /Node 22\.12 or later/);
});

test('the README: Node 22.12 or later, the CLI examples run from an install, the version line is true', () => {
  assert.match(README, /Node 22\.12 or later/);
  assert.doesNotMatch(README, /Node 20\b/);
  // The install section comes before the first CLI example, and no example runs `npx hitless` (a 404 outside a
  // checkout); the README names `npx hitless` only where it says what it does.
  const install = README.indexOf('## Install the CLI');
  const examples = README.indexOf('## The CLI\n');
  assert.ok(install > 0 && install < examples, 'Install the CLI comes before The CLI');
  for (const block of README.matchAll(/```(?:sh|yaml|bash)\n([\s\S]*?)```/g))
    assert.doesNotMatch(block[1], /npx hitless/, block[1]);
  const versionComment = /hitless --version\s+# (.+)\n/.exec(README)?.[1];
  assert.equal(versionComment, versionLine());
  // The two commands: serve the site, and every test through .ci/run, which installs what the tests need.
  const two = /## The two commands[\s\S]*?```sh\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
  assert.deepEqual(
    two
      .trim()
      .split('\n')
      .map((l) => l.replace(/\s+#.*/, '')),
    ['npm ci && npm start', '.ci/run'],
  );
  assert.match(read('.ci/run'), /apt-get install/);
  assert.match(read('.ci/run'), /npm test/);
});

test('no file a user reads or gets points at a made-up address', () => {
  const userFacing = [
    'README.md',
    'CONTRIBUTING.md',
    'package.json',
    'astro.config.mjs',
    'action.yml',
    '.pre-commit-hooks.yaml',
    ...filesUnder('content'),
    ...filesUnder('src'),
    ...filesUnder('pages'),
    ...filesUnder('bin'),
    ...filesUnder('public').filter((f) => !/\.(png|ico|woff2?)$/.test(f)),
  ];
  const madeUp = /hitless\.invalid|hitless-dev|github\.com\/[^/\s]+\/hitless|<(?:this|the Hitless) repository>/i;
  const found = userFacing.flatMap((f) =>
    read(f)
      .split('\n')
      .map((line, i) => [`${relative(ROOT, join(ROOT, f))}:${i + 1}`, line] as const)
      .filter(([, line]) => madeUp.test(line))
      .map(([at, line]) => `${at}: ${line.trim()}`),
  );
  assert.deepEqual(found, []);
  // Nothing to publish points at a repository: package.json has none until a public one exists.
  assert.equal((JSON.parse(read('package.json')) as { repository?: unknown }).repository, undefined);
});
