/**
 * The bench's "refuse" figures (issue 34): refusing a 50 MB single-document input takes at most twice the time of
 * checking a 1 MB valid one, and every refused input (that document, /dev/zero on stdin, --prompt-file /dev/zero,
 * a 300 MB --merge shard) peaks under 300 MB of RSS. Each is a child `hitless` process timed by /usr/bin/time
 * (wall seconds and peak RSS), the median of RUNS runs. `node scripts/bench-refuse.ts` runs this section alone;
 * scripts/bench.ts runs it unless BENCH_SKIP has `refuse`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchCheckInput } from './bench-check-input.ts';

const MAIN = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const RUNS = Number(process.env.BENCH_REFUSE_RUNS ?? 3);
const MB = 1024 * 1024;

/** A figure for the bench's table: what, the value, the budget and whether it is met. */
export type RefuseRow = (figure: string, value: string, budget?: string, ok?: boolean) => void;

/** Wall seconds and peak RSS (MB) of one `hitless` run under /usr/bin/time, with its exit status. */
function timed(script: string): { seconds: number; rssMb: number; status: number } {
  const r = spawnSync(
    'bash',
    ['-c', `/usr/bin/time -f '%e %M' bash -c '${script}' 2>&1 >/dev/null | tail -1; exit \${PIPESTATUS[0]}`],
    {
      encoding: 'utf8',
      env: { ...process.env, NODE: process.execPath, MAIN },
    },
  );
  const [seconds, kib] = r.stdout.trim().split(/\s+/).map(Number);
  return { seconds, rssMb: kib / 1024, status: r.status ?? -1 };
}

/** The median run of `script` (by time) and the highest peak RSS over the runs. */
function measure(script: string): { seconds: number; rssMb: number; status: number } {
  const runs = Array.from({ length: RUNS }, () => timed(script));
  const sorted = [...runs].sort((a, b) => a.seconds - b.seconds);
  return { ...sorted[Math.floor(RUNS / 2)], rssMb: Math.max(...runs.map((r) => r.rssMb)) };
}

/** Measure and report the figures through `row`. */
export function measureRefusal(row: RefuseRow): void {
  if (!existsSync('/usr/bin/time')) {
    row('refuse: 50 MB document vs 1 MB valid input', 'not measured: /usr/bin/time is missing');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-refuse-'));
  try {
    // 1 MB of Deployment + InferencePool pairs (about 1 KB each), and one 50 MB document.
    let docs = 2;
    while (benchCheckInput(docs).length < MB) docs *= 2;
    writeFileSync(
      join(dir, 'valid.yaml'),
      benchCheckInput(docs)
        .slice(0, MB)
        .replace(/\n[^\n]*$/, '\n'),
    );
    writeFileSync(join(dir, 'one.yaml'), `k: ${'x'.repeat(50 * 1000 * 1000)}\n`);
    writeFileSync(join(dir, 'shard.json'), '');
    truncateSync(join(dir, 'shard.json'), 300 * 1000 * 1000);
    const valid = measure(`"$NODE" "$MAIN" check ${dir}/valid.yaml`);
    const refused = {
      '50 MB document': measure(`"$NODE" "$MAIN" check ${dir}/one.yaml`),
      'check - < /dev/zero': measure('"$NODE" "$MAIN" check - < /dev/zero'),
      '--prompt-file /dev/zero': measure(
        '"$NODE" "$MAIN" verify --url http://127.0.0.1:9 --model m --prompt-file /dev/zero',
      ),
      '--merge of a 300 MB shard': measure(`"$NODE" "$MAIN" verify --merge ${dir}/shard.json`),
      '--merge /dev/zero': measure('"$NODE" "$MAIN" verify --merge /dev/zero'),
    };
    const ratio = refused['50 MB document'].seconds / valid.seconds;
    row(
      'refuse: a 50 MB document, in the time of checking 1 MB valid',
      `${refused['50 MB document'].seconds.toFixed(2)} s vs ${valid.seconds.toFixed(2)} s (${ratio.toFixed(2)}x)`,
      '≤ 2x',
      ratio <= 2,
    );
    for (const [what, r] of Object.entries(refused)) {
      row(
        `refuse: peak RSS, ${what} (exit ${r.status})`,
        `${r.rssMb.toFixed(0)} MB in ${r.seconds.toFixed(2)} s`,
        '< 300 MB, exit 2',
        r.rssMb < 300 && r.status === 2,
      );
    }
    row('refuse: peak RSS, checking 1 MB valid (for scale)', `${valid.rssMb.toFixed(0)} MB (exit ${valid.status})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  measureRefusal((figure, value, budget = '—', ok) =>
    process.stdout.write(
      `  ${ok === undefined ? ' ' : ok ? '✓' : '✗'} ${figure}: ${value}${budget !== '—' ? `   (budget ${budget})` : ''}\n`,
    ),
  );
}
