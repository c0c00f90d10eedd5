/**
 * Show that two builds of the installable CLI (scripts/build-cli.ts) print the same, byte for byte: `generate` for
 * every gateway × model server × output form × format, with the flags that change its shape (drain model 1,
 * unbounded drain, no PodDisruptionBudget, an old Kubernetes, a patch container, quoting-prone names), its usage
 * errors, and once each the other commands (inputs, rules, policy, check, --help, --version, lab, typos). Every
 * case runs as a process through pipes; stdout, stderr and the exit code are compared.
 *
 *   node scripts/build-cli.ts .builds/pkg-old     # in the old checkout, or: git stash && ... && git stash pop
 *   node scripts/build-cli.ts .builds/pkg-new
 *   node scripts/compare-package-output.ts .builds/pkg-old .builds/pkg-new
 *
 * Exits 1 and names each case that differs; 0 with the number of cases when all match.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readProfiles } from '../src/facts/read-files.ts';

const [oldDir, newDir] = process.argv.slice(2).map((d) => resolve(d));
if (!oldDir || !newDir) {
  process.stderr.write('usage: node scripts/compare-package-output.ts OLD_PACKAGE_DIR NEW_PACKAGE_DIR\n');
  process.exit(2);
}

const profiles = readProfiles();
const GATEWAYS = profiles.gateways.map((g) => g.id);
const SERVERS = profiles.modelServers.map((m) => m.id);
const OUTPUTS = ['bundle', 'patch', 'helm-values', 'lws'];

/** The argument lists to run, `<manifest>` standing for a manifest file written by the old build. */
function cases(): string[][] {
  const all: string[][] = [];
  for (const gateway of GATEWAYS)
    for (const server of SERVERS)
      for (const output of OUTPUTS)
        for (const format of ['yaml', 'json']) {
          const lws = output === 'lws' ? ['--nodes-per-replica', '2', '--gpus-per-replica', '2'] : [];
          all.push([
            'generate',
            '--gateway',
            gateway,
            '--model-server',
            server,
            '--output',
            output,
            '--format',
            format,
            ...lws,
          ]);
        }
  const flags = [
    [],
    ['--drain-model', '1'],
    ['--drain-model', '1', '--format', 'json'],
    ['--unbounded-drain'],
    ['--kubernetes-version', '1.29'],
    ['--pod-disruption-budget', 'false'],
    ['--output', 'lws', '--nodes-per-replica', '2', '--gpus-per-replica', '4'],
    ['--output', 'lws', '--nodes-per-replica', '3', '--gpus-per-replica', '4'],
    ['--output', 'lws'],
    ['--output', 'patch', '--container', 'main'],
    ['--name', 'yes', '--namespace', 'on'],
    ['--model-server', 'llamacpp', '--model', 'user/repo:Q4_K_M'],
    ['--image', 'vllm/vllm-openai:latest'],
    ['--image', 'vllm/vllm-openai:latest', '--model-server-version', '0.10.0'],
    ['--max-request-seconds', '7200', '--spare-gpus', '8', '--replicas', '12'],
    ['--failure-mode', 'FailOpen', '--tpot-ms', '0.1'],
    ['--health-check-interval-seconds', '2'],
    ['--replicas', '0'],
    ['--bogus', '1'],
    ['--format', 'xml'],
    ['--drain-model', '9'],
    ['a-file'],
  ];
  for (const f of flags) all.push(['generate', ...f]);
  all.push(
    ['inputs'],
    ['inputs', 'x'],
    ['rules'],
    ['policy'],
    ['policy', '--format', 'kyverno'],
    ['policy', '--deny'],
    ['check', '<manifest>'],
    ['check', '<manifest>', '--format', 'json'],
    ['check', '<manifest>', '--format', 'github'],
    ['verify'],
    ['--help'],
    [],
    ['--version'],
    ['lab'],
    ['nope'],
  );
  return all;
}

/** A build's entry, as its package.json names it (bin/hitless.mjs in older builds, bin/hitless.cjs since). */
function entryOf(dir: string): string {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin: { hitless: string } };
  return join(dir, pkg.bin.hitless);
}

/** Run one build's CLI with `args`; its exit code, stdout and stderr as one string. */
function runCli(dir: string, args: string[]): string {
  const r = spawnSync(process.execPath, [entryOf(dir), ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  return `exit ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
}

const work = mkdtempSync(join(tmpdir(), 'hitless-compare-'));
try {
  // A manifest with a finding, so that check prints something: the old build's, one surge more.
  const manifest = join(work, 'manifest.yaml');
  const generated = spawnSync(process.execPath, [entryOf(oldDir), 'generate', '--gateway', 'istio'], {
    encoding: 'utf8',
  });
  writeFileSync(manifest, generated.stdout.replace('maxSurge: 1', 'maxSurge: 2'));
  const list = cases();
  const differing: string[] = [];
  for (const c of list) {
    const args = c.map((a) => (a === '<manifest>' ? manifest : a));
    if (runCli(oldDir, args) !== runCli(newDir, args)) differing.push(c.join(' '));
  }
  if (differing.length > 0) {
    process.stdout.write(
      `${differing.length} of ${list.length} cases differ:\n${differing.map((d) => `  ${d}\n`).join('')}`,
    );
    process.exitCode = 1;
  } else {
    process.stdout.write(`all ${list.length} cases print the same (stdout, stderr, exit code)\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
