// The installable CLI: `npm run pack:cli`'s tarball, installed into an empty folder, runs every command on the
// project's Node 24 with no build step and no dependencies, within 3 MB, keeps its compile cache in the user's home
// and leaves nothing in TMPDIR; the system's older Node (20 on these machines) gets a message saying what it needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The project's Node 24 (the package needs >= 22.12). */
const NODE = join(ROOT, 'node_modules', '.bin', 'node');
/** Debian's Node (20 on these machines): too old for the package, which says so. */
const SYSTEM_NODE = '/usr/bin/node';

function run(command: string, args: string[], cwd: string, input?: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    input,
    timeout: 180_000,
    env: { ...process.env, npm_config_update_notifier: 'false', ...env },
  });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

function sizeOf(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

test('the packed CLI installs into an empty folder and runs each command', { timeout: 300_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'hitless-pack-'));
  try {
    const built = run(process.execPath, ['scripts/build-cli.ts', join(work, 'package')], ROOT);
    assert.equal(built.status, 0, built.stderr);
    const packed = run('npm', ['pack', join(work, 'package'), '--pack-destination', work, '--silent'], ROOT);
    assert.equal(packed.status, 0, packed.stderr);
    const tarball = readdirSync(work).find((f) => /^hitless-\d+\.\d+\.\d+\.tgz$/.test(f));
    assert.ok(tarball, `no hitless-<version>.tgz in ${readdirSync(work).join(', ')}`);

    const app = join(work, 'app');
    run('mkdir', ['-p', app], work);
    writeFileSync(join(app, 'package.json'), '{ "name": "app", "private": true }\n');
    const installed = run('npm', ['install', join(work, tarball), '--no-audit', '--no-fund', '--prefer-offline'], app);
    assert.equal(installed.status, 0, installed.stderr);
    assert.deepEqual(
      readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.')),
      ['hitless'],
      'no dependencies are installed',
    );
    const installedBytes = sizeOf(join(app, 'node_modules'));
    assert.ok(installedBytes <= 3_000_000, `at most 3 MB installed, not ${installedBytes} bytes`);

    const hitless = join(app, 'node_modules', '.bin', 'hitless');
    // Node's compile cache goes in the user's ~/.cache/hitless (src/cli/compile-cache.ts), here a home of the test's;
    // TMPDIR is a folder of the test's too, to show that nothing is left there.
    const home = join(work, 'home');
    const tmp = join(work, 'tmp');
    mkdirSync(home);
    mkdirSync(tmp);
    // Unset (undefined: spawnSync leaves the variable out) rather than empty: Node reads an empty
    // NODE_DISABLE_COMPILE_CACHE as set.
    const env = {
      HOME: home,
      TMPDIR: tmp,
      XDG_CACHE_HOME: undefined,
      NODE_COMPILE_CACHE: undefined,
      NODE_DISABLE_COMPILE_CACHE: undefined,
    };
    const cli = (args: string[], input?: string) => run(NODE, [hitless, ...args], app, input, env);

    // Every bundle stays strict code, as the ES modules it was built from are: the directive comes first.
    const bin = join(app, 'node_modules', 'hitless', 'bin');
    const scripts = readdirSync(bin).filter((f) => f.endsWith('.cjs'));
    assert.ok(scripts.includes('hitless.cjs') && scripts.includes('generate.cjs'), scripts.join(', '));
    for (const file of scripts)
      assert.match(readFileSync(join(bin, file), 'utf8'), /^(#![^\n]*\n)?'use strict';\n/, file);

    const version = cli(['--version']);
    assert.equal(version.status, 0, version.stderr);
    assert.match(version.stdout, /^hitless \d+\.\d+\.\d+ \(drain model v\d+\)\n$/);

    const generated = cli(['generate', '--gateway', 'istio']);
    assert.equal(generated.status, 0, generated.stderr);
    assert.match(generated.stdout, /kind: Deployment/);
    // The pool comes from the chart install the header states.
    assert.match(
      generated.stdout,
      /^# {3}helm install vllm-qwen3-32b oci:\/\/registry\.k8s\.io\/gateway-api-inference-extension\/charts\/inferencepool /m,
    );
    // The first run left Node's compile cache (one folder for this Node); the second runs with it and prints the same.
    const cacheDir = join(home, '.cache', 'hitless');
    assert.equal(statSync(cacheDir).mode & 0o777, 0o700);
    assert.equal(readdirSync(cacheDir).filter((d) => d.startsWith(`${process.version}-`)).length, 1);
    assert.deepEqual(cli(['generate', '--gateway', 'istio']), generated);
    // The output forms read their facts (content/outputs/) from data embedded at build time.
    const values = cli(['generate', '--output', 'helm-values']);
    assert.equal(values.status, 0, values.stderr);
    assert.match(values.stdout, /inferencepool chart v1\.5\.0/);

    const checked = cli(['check', '-'], generated.stdout);
    assert.equal(checked.status, 0, `the generator's own output checks clean: ${checked.stdout}${checked.stderr}`);

    const unusable = cli(['check', '--replicas', 'many', '-'], generated.stdout);
    assert.equal(unusable.status, 2, 'bad input exits 2');

    const policy = cli(['policy', '--format', 'vap']);
    assert.equal(policy.status, 0, policy.stderr);
    assert.match(policy.stdout, /kind: ValidatingAdmissionPolicy\n/);

    const rules = cli(['rules']);
    assert.equal(rules.status, 0, rules.stderr);
    assert.match(rules.stdout, /prestop-missing/);

    const verifyUsage = cli(['verify']);
    assert.equal(verifyUsage.status, 2, 'verify without its required flags is a usage error');
    assert.match(verifyUsage.stderr, /^hitless verify: --model is required/);

    const lab = cli(['lab']);
    assert.equal(lab.status, 2);
    assert.match(lab.stderr, /run it in a checkout/);

    // Issue 34's named cases, through the installed package: each exits with its code and one line, no stack trace.
    const oneLine = (r: { status: number | null; stderr: string }, status: number, line: RegExp, what: string) => {
      assert.equal(r.status, status, `${what}: ${r.stderr}`);
      assert.match(r.stderr, line, what);
      assert.doesNotMatch(r.stderr, /\n\s+at /, `${what}: no stack trace`);
    };
    const huge =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec:\n  template:\n    spec:\n'
      + '      terminationGracePeriodSeconds: 1e30\n      containers: [{name: c, image: vllm/vllm-openai:v0.19.1}]\n';
    const rejected = cli(['check', '/dev/stdin'], huge);
    assert.equal(rejected.status, 1, 'a value the API server rejects is an error, read through /dev/stdin');
    assert.match(rejected.stdout, /error\s+value-rejected\s+\/dev\/stdin:7/);
    assert.equal(cli(['check', '--', '-'], huge).status, 1, '-- ends the options');
    oneLine(
      cli(['generate', '--image', 'vllm/vllm-openai:v0.10.0']),
      1,
      /^error \[drain-flag-too-old\]/,
      'generate prints an error and exits 1',
    );
    oneLine(
      cli(['policy', '--namespace-selector', 'a=b,a=c']),
      2,
      /^hitless policy: --namespace-selector gives the label a twice; a namespace has one value for a label\n$/,
      'a label given twice',
    );
    const target = ['verify', '--url', 'http://127.0.0.1:9', '--model', 'm'];
    oneLine(
      cli([...target, '--header', 'X-A: \u20acuro']),
      2,
      /^hitless verify: --header X-A has a character HTTP does not allow/,
      'a non-ASCII header',
    );
    oneLine(
      cli([...target, '--header', 'Transfer-Encoding: chunked']),
      2,
      /^hitless verify: --header Transfer-Encoding is a framing or connection header/,
      'a framing header',
    );
    oneLine(
      cli([...target, '--report', join(work, 'missing', 'r.html')]),
      2,
      /^hitless verify: --report .*: its folder .* does not exist; nothing was sent\n$/,
      'a report into a missing folder',
    );
    oneLine(
      cli([...target, '--prompt-file', '/dev/zero']),
      2,
      /^hitless verify: --prompt-file "\/dev\/zero" is over the limit of 1 MiB \(reading stopped there\)\n$/,
      'an endless prompt file',
    );

    assert.deepEqual(readdirSync(tmp), [], 'nothing left in TMPDIR');

    // An older Node is told what the package needs, before it reads a bundle it may not parse.
    const systemNode = existsSync(SYSTEM_NODE)
      ? spawnSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim()
      : '';
    const [major, minor] = systemNode.slice(1).split('.').map(Number);
    if (systemNode && (major < 22 || (major === 22 && minor < 12))) {
      const old = run(SYSTEM_NODE, [hitless, 'generate'], app, undefined, env);
      assert.deepEqual(old, {
        status: 2,
        stdout: '',
        stderr: `hitless needs Node >= 22.12 (this is ${systemNode}); install a newer Node (https://nodejs.org) and run it again.\n`,
      });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
