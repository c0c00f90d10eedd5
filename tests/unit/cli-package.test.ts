// The installable CLI: `npm run pack:cli`'s tarball, installed into an empty folder with the system's Node 20
// (not the project's Node 24), runs every command with no build step and no dependencies, within 5 MB.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Debian's Node (20 on these machines); the package must not need the project's Node 24. */
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

test('the packed CLI installs into an empty folder and runs each command on Node 20', { timeout: 300_000 }, () => {
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
    assert.ok(sizeOf(join(app, 'node_modules')) <= 5 * 1024 * 1024, 'at most 5 MB installed');

    const node = spawnSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();
    assert.match(node, /^v2\d\./);
    const hitless = join(app, 'node_modules', '.bin', 'hitless');
    // The bundles' code caches (src/cli/bundle-loader.ts) go where Node's own would, here a folder of the test's.
    const codeCache = join(work, 'code-cache');
    const cli = (args: string[], input?: string) =>
      run(SYSTEM_NODE, [hitless, ...args], app, input, { NODE_COMPILE_CACHE: codeCache });

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
    assert.match(generated.stdout, /kind: InferencePool/);
    // The first run left generate's code cache; the second runs with it and prints the same.
    const userCache = readdirSync(codeCache).find((d) => d.startsWith('hitless-'));
    assert.ok(userCache, `no hitless-<uid> folder in ${codeCache}`);
    assert.equal(readdirSync(join(codeCache, userCache)).filter((f) => /^generate-.*\.v8cache$/.test(f)).length, 1);
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
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
