/**
 * The bench's `hitless check` figures alone (the check section of scripts/bench.ts, without the 25-minute rest):
 * builds the installable package, checks the bench's input of 2,000 and 10,000 documents with it under GNU time,
 * and prints documents per CPU second (user + system), peak RSS and the SHA-256 of each run's output (to compare
 * findings between two versions).
 *
 *   node scripts/measure-check.ts [--package DIR] [--no-build] [--runs N] [--sizes 2000,10000] [--args "--gateway istio"]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCheckInput } from './bench-check-input.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : process.argv[at + 1];
}

const packageDir = resolve(option('package', join(ROOT, '.builds', 'measure-check-package')));
const runs = Number(option('runs', '3'));
const sizes = option('sizes', '2000,10000').split(',').map(Number);
const extra = option('args', '').split(' ').filter(Boolean);
if (!process.argv.includes('--no-build')) {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build-cli.ts'), packageDir], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build-cli failed: ${built.stderr}`);
}
const dir = join(ROOT, '.builds', 'measure-check');
mkdirSync(dir, { recursive: true });
const medians: Record<number, { cpuS: number; rssMB: number }> = {};
for (const docs of sizes) {
  const file = join(dir, `pairs-${docs}.yaml`);
  writeFileSync(file, benchCheckInput(docs));
  const measured: { cpuS: number; wallS: number; rssMB: number; sha: string }[] = [];
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(
      '/usr/bin/time',
      [
        '-f',
        '%e %U %S %M',
        process.execPath,
        join(packageDir, 'bin/hitless.cjs'),
        'check',
        file,
        '--format',
        'json',
        ...extra,
      ],
      { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 },
    );
    const [wallS, user, sys, rssKB] = r.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
    const sha = createHash('sha256').update(r.stdout).digest('hex').slice(0, 16);
    measured.push({ cpuS: user + sys, wallS, rssMB: rssKB / 1024, sha });
    process.stdout.write(
      `${docs} docs: exit ${r.status}, ${(user + sys).toFixed(2)} CPU-s (${Math.round(docs / (user + sys))}/s), wall ${wallS} s, RSS ${Math.round(rssKB / 1024)} MB, output ${sha}\n`,
    );
  }
  measured.sort((a, b) => a.cpuS - b.cpuS);
  medians[docs] = measured[Math.floor(measured.length / 2)];
}
for (const [docs, m] of Object.entries(medians))
  process.stdout.write(
    `median ${docs}: ${Math.round(Number(docs) / m.cpuS)} docs per CPU-s, RSS ${Math.round(m.rssMB)} MB\n`,
  );
if (medians[2000] && medians[10000])
  process.stdout.write(`RSS ratio 10,000 / 2,000: ×${(medians[10000].rssMB / medians[2000].rssMB).toFixed(2)}\n`);
