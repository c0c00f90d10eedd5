/**
 * The CLI surface, sampled (each case spawns a process): `hitless generate --<flag>=<bad value>` exits 2, names
 * the flag on stderr and writes nothing to stdout; for random valid inputs its YAML and JSON are exactly the
 * core's. The sample is small (12 bad, 6 good): every bad value takes the same path from the core's error to exit 2,
 * and the core tests cover the space of values (3000 cases) in process.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { fieldWithInvalidValue, validInputs } from '../support/arbitraries.ts';
import { generate, profiles } from '../support/generate.ts';

const CLI = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));
const BAD_SAMPLES = 12;
const GOOD_SAMPLES = 6;
const CONCURRENCY = 6;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function hitless(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Run `jobs` with at most CONCURRENCY processes at a time. */
async function pool<T, R>(items: T[], job: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: CONCURRENCY }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await job(items[i]);
    }
  });
  await Promise.all(workers);
  return results;
}

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

test(`hitless generate --<flag>=<bad value>: exit 2, the flag named on stderr, nothing on stdout (${BAD_SAMPLES} spawns, seed ${seed})`, async () => {
  // Argument strings only (a process cannot receive NUL); the core test covers JSON-typed values.
  const cases = fc.sample(
    fieldWithInvalidValue(profiles)
      .filter(({ value }) => typeof value === 'string' || typeof value === 'number')
      .map(({ spec, value }) => ({ flag: spec.flag, value: String(value) }))
      .filter(({ value }) => !value.includes('\0') && value.trim() !== ''),
    { numRuns: BAD_SAMPLES, seed },
  );
  const runs = await pool(cases, ({ flag, value }) => hitless(['generate', `--${flag}=${value}`]));
  cases.forEach(({ flag, value }, i) => {
    const { code, stdout, stderr } = runs[i];
    const what = `hitless generate --${flag}=${JSON.stringify(value)} (FC_SEED=${seed})`;
    assert.equal(code, 2, `${what}: exit ${code}\n${stderr}`);
    assert.ok(stderr.includes(`--${flag} must be`), `${what}: stderr does not name --${flag}: ${stderr}`);
    assert.equal(stdout, '', `${what}: wrote to stdout`);
  });
});

test(`hitless generate with valid inputs prints exactly the core's manifest and plan, exit 1 only with an error (${GOOD_SAMPLES} spawns, seed ${seed})`, async () => {
  const cases = fc.sample(validInputs(profiles), { numRuns: GOOD_SAMPLES, seed });
  const args = (raw: Record<string, unknown>) => Object.entries(raw).map(([flag, v]) => `--${flag}=${String(v)}`);
  const runs = await pool(
    cases.map((raw, i) => ({ raw, json: i % 2 === 1 })),
    ({ raw, json }) => hitless(['generate', ...args(raw), ...(json ? ['--format', 'json'] : [])]),
  );
  cases.forEach((raw, i) => {
    const { code, stdout, stderr } = runs[i];
    const core = generate(raw);
    const what = `hitless generate ${args(raw)
      .map((a) => JSON.stringify(a))
      .join(' ')} (FC_SEED=${seed})`;
    // 1 when the core's plan has an error-severity warning (printed on stderr), else 0.
    const expected = core.plan.warnings.some((w) => w.severity === 'error') ? 1 : 0;
    assert.equal(code, expected, `${what}: exit ${code}\n${stderr}`);
    if (i % 2 === 1) {
      const out = JSON.parse(stdout);
      assert.equal(out.manifest, core.manifest, what);
      assert.deepEqual(out.plan, JSON.parse(JSON.stringify(core.plan)), what);
    } else {
      assert.equal(stdout, core.manifest, what);
    }
  });
});

test('an unknown flag and a missing value exit 2 with a message', async () => {
  const [unknown, missing] = await Promise.all([hitless(['generate', '--tpot=5']), hitless(['generate', '--tpot-ms'])]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /--tpot is not an option/);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--tpot-ms needs a value/);
});
