/**
 * The generator and the checker agree (issue 34 item 7), over random valid inputs built from the field table
 * (tests/support/arbitraries.ts): what `generate` emits checks clean with the same inputs.
 *
 * "Checks clean", by hand: the checker reads the manifest (no input problem) and every finding it reports at error
 * or warning severity is one the generator printed for the same inputs, at the same severity: the same code, or
 * `liveness-before-readiness` for the plan's `liveness-faster-than-readiness` (the checker states that warning as a
 * rule of its own, with a path and a fix). Info findings are notes, not verdicts, and are not compared. "The same
 * inputs" for the checker are the ones it takes as settings: the rest (image, model, names, ports, probe settings)
 * it reads from the manifest, and the output form is the generator's own choice. And `generate` exits 1 exactly
 * when it prints an error, `check` exactly when it finds one. The lws form (a whole LeaderWorkerSet, leader and
 * workers) is held to the same; the patch and Helm-values forms are fragments the checker does not read alone.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { checkManifest } from '../../src/check/index.ts';
import { CHECK_SETTING_FLAGS } from '../../src/check/workload/settings.ts';
import { validInputs } from '../support/arbitraries.ts';
import { generate, profiles } from '../support/generate.ts';
import { runBatch } from '../support/in-process.ts';
import { plan as planFor } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { emitOutput } from '../../src/emit/output.ts';
import { readOutputFacts } from '../../src/facts/read-output-files.ts';

/** The plan warning each checker rule restates under its own code. */
const RESTATES: Record<string, string> = { 'liveness-before-readiness': 'liveness-faster-than-readiness' };

/** `severity code` of each warning the generator printed (errors and warnings; info is not printed). */
function printed(warnings: readonly { severity: string; code: string }[]): Set<string> {
  return new Set(warnings.filter((w) => w.severity !== 'info').map((w) => `${w.severity} ${w.code}`));
}

/** The findings at error or warning severity the generator did not print, as `severity code: message`. */
function unprinted(findings: readonly { severity: string; code: string; message: string }[], said: Set<string>) {
  return findings
    .filter((f) => f.severity === 'error' || f.severity === 'warning')
    .filter((f) => !said.has(`${f.severity} ${f.code}`) && !said.has(`${f.severity} ${RESTATES[f.code]}`))
    .map((f) => `${f.severity} ${f.code}: ${f.message}`);
}

/** The inputs the checker takes as settings, as text. */
function checkSettings(raw: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(raw)
      .filter(([flag]) => CHECK_SETTING_FLAGS.includes(flag))
      .map(([flag, v]) => [flag, String(v)]),
  );
}

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
const CORE_RUNS = 400;
const CLI_RUNS = 40;

test(`the generator's manifest checks clean with the same inputs (${CORE_RUNS} random inputs, seed ${seed})`, () => {
  fc.assert(
    fc.property(validInputs(profiles), (raw) => {
      const { plan, manifest, errors } = generate(raw);
      assert.deepEqual(errors, []);
      const result = checkManifest(manifest, checkSettings(raw), profiles);
      assert.ok(result.ok, result.ok ? '' : result.problem.message);
      assert.deepEqual(unprinted(result.report.findings, printed(plan.warnings)), []);
      // An error the generator printed is one the checker reports: check fails where generate did.
      const errorsPrinted = plan.warnings.some((w) => w.severity === 'error');
      assert.equal(result.report.counts.error > 0, errorsPrinted);
    }),
    { numRuns: CORE_RUNS, seed },
  );
});

test(`the CLI: generate exits 1 exactly when it prints an error; check on its output agrees (${CLI_RUNS} random inputs in one process, seed ${seed})`, async () => {
  const cases = fc.sample(validInputs(profiles), { numRuns: CLI_RUNS, seed });
  const flags = (raw: Record<string, unknown>) => Object.entries(raw).map(([flag, v]) => `--${flag}=${String(v)}`);
  const generated = await runBatch(cases.map((raw) => ['generate', ...flags(raw)]));
  const dir = mkdtempSync(join(tmpdir(), 'property-agree-'));
  try {
    cases.forEach((_, i) => writeFileSync(join(dir, `${i}.yaml`), generated[i].stdout));
    const checked = await runBatch(
      cases.map((raw, i) => ['check', join(dir, `${i}.yaml`), '--format', 'json', ...flags(checkSettings(raw))]),
    );
    cases.forEach((raw, i) => {
      const what = `hitless generate ${flags(raw).join(' ')} (FC_SEED=${seed})`;
      const g = generated[i];
      // Each line of stderr is one printed warning: `severity [code]: message`.
      const lines = g.stderr.split('\n').filter(Boolean);
      const said = new Set<string>();
      for (const line of lines) {
        const m = /^(error|warning) \[([a-z-]+)\]: \S/.exec(line);
        assert.ok(m, `${what}: a stderr line that is not a warning: ${line}`);
        said.add(`${m[1]} ${m[2]}`);
      }
      const errorPrinted = [...said].some((s) => s.startsWith('error '));
      assert.equal(g.code, errorPrinted ? 1 : 0, `${what}: exit ${g.code}\n${g.stderr}`);
      const c = checked[i];
      assert.equal(c.code, g.code, `${what}: check exits ${c.code}\n${c.stderr}`);
      const report = JSON.parse(c.stdout) as { findings: { severity: string; code: string; message: string }[] };
      assert.deepEqual(unprinted(report.findings, said), [], what);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const LWS_RUNS = 150;

test(`the lws form checks clean with the same inputs (${LWS_RUNS} random inputs, seed ${seed})`, () => {
  const facts = readOutputFacts();
  // The form is for vLLM and SGLang over 2 or more nodes, each node's pod taking the same whole number of GPUs.
  const lwsInputs = fc
    .tuple(
      validInputs(profiles),
      fc.constantFrom('vllm', 'sglang'),
      fc.constantFrom(2, 3, 4),
      fc.constantFrom(1, 2, 4, 8),
    )
    .map(([raw, server, nodes, perNode]) => {
      const copy: Record<string, unknown> = { ...raw, 'model-server': server, output: 'lws' };
      copy['nodes-per-replica'] = nodes;
      copy['gpus-per-replica'] = nodes * perNode;
      // An image given for another server is not this server's: let the preset image stand.
      delete copy.image;
      delete copy['model-server-version'];
      return copy;
    });
  fc.assert(
    fc.property(lwsInputs, (raw) => {
      const resolved = resolveInputs(raw, profiles);
      assert.deepEqual(resolved.errors, []);
      const plan = planFor(resolved.inputs, profiles);
      const { text } = emitOutput(plan, resolved.inputs, profiles, facts);
      const result = checkManifest(text, checkSettings(raw), profiles);
      assert.ok(result.ok, result.ok ? '' : result.problem.message);
      assert.deepEqual(unprinted(result.report.findings, printed(plan.warnings)), []);
    }),
    { numRuns: LWS_RUNS, seed },
  );
});
