// hitless check --format sarif: a SARIF 2.1.0 log as the OASIS specification describes it (one run; tool.driver with
// the rules; results with ruleId, ruleIndex, level, message.text and a physical location), carrying the same
// findings, files and lines as the text format. Expected values by hand from the spec and from the text output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;
const FIXTURE = new URL('../fixtures/deployments/vllm-latest.yaml', import.meta.url).pathname;

function hitless(args: string[], cwd: string) {
  return spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', cwd, timeout: 60_000 });
}

test('the log has the spec\u2019s shape, and its results are the text format\u2019s findings on the same files and lines', () => {
  const dir = mkdtempSync(join(tmpdir(), 'check-sarif-'));
  try {
    // A file name with a space: the artifact URI encodes it (%20), as a URI reference must.
    writeFileSync(join(dir, 'my model.yaml'), readFileSync(FIXTURE, 'utf8'));
    const sarif = hitless(['check', '--format', 'sarif', 'my model.yaml'], dir);
    const text = hitless(['check', 'my model.yaml'], dir);
    assert.equal(sarif.status, 1, sarif.stderr);
    assert.equal(sarif.status, text.status, 'the same exit code');
    const log = JSON.parse(sarif.stdout);
    assert.equal(log.version, '2.1.0');
    assert.equal(
      log.$schema,
      'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json',
    );
    assert.equal(log.runs.length, 1);
    const [run] = log.runs;
    assert.equal(run.tool.driver.name, 'hitless');
    assert.match(run.tool.driver.version, /^\d+\.\d+\.\d+$/);
    assert.deepEqual(run.invocations, [{ executionSuccessful: true, exitCode: 1 }]);
    const rules = run.tool.driver.rules as { id: string; shortDescription: { text: string } }[];
    assert.equal(new Set(rules.map((r) => r.id)).size, rules.length, 'rule ids are unique');
    assert.ok(rules.some((r) => r.id === 'prestop-missing'));
    // The text format's findings: "  <severity> <code>  my model.yaml:<line> ...".
    const textFindings = [
      ...text.stdout.matchAll(/^ {2}(error|warning|info) +(\S+) {2}my model\.yaml(?::(\d+))?/gm),
    ].map((m) => `${m[2]} ${m[1] === 'info' ? 'note' : m[1]} ${m[3] ?? '-'}`);
    const results = run.results as {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } } }[];
    }[];
    assert.deepEqual(
      results.map((r) => `${r.ruleId} ${r.level} ${r.locations[0].physicalLocation.region?.startLine ?? '-'}`),
      textFindings,
    );
    assert.equal(textFindings.length, 10, 'five errors, three warnings, two notes, as the text format counts them');
    for (const r of results) {
      assert.equal(rules[r.ruleIndex].id, r.ruleId, 'ruleIndex points at the rule');
      assert.ok(['error', 'warning', 'note'].includes(r.level));
      assert.ok(r.message.text.length > 0);
      assert.equal(r.locations[0].physicalLocation.artifactLocation.uri, 'my%20model.yaml');
    }
    // prestop-missing at line 17, as the text format says (Deployment/latest-vllm's container).
    const prestop = results.find((r) => r.ruleId === 'prestop-missing')!;
    assert.equal(prestop.locations[0].physicalLocation.region?.startLine, 17);
    assert.match(
      prestop.message.text,
      /^Deployment\/latest-vllm: spec\.template\.spec\.containers\[0\]\.lifecycle: The vllm container has no preStop hook/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('stdin has no artifact: results without a location; an input that cannot be read exits 2 as the other formats do', () => {
  const viaStdin = spawnSync(process.execPath, [MAIN, 'check', '--format', 'sarif', '-'], {
    input: readFileSync(FIXTURE, 'utf8'),
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(viaStdin.status, 1);
  const results = JSON.parse(viaStdin.stdout).runs[0].results as { locations?: unknown }[];
  assert.ok(results.length > 0);
  assert.ok(results.every((r) => r.locations === undefined));
  const missing = hitless(['check', '--format', 'sarif', 'nonexistent-hitless.yaml'], tmpdir());
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /nonexistent-hitless\.yaml does not exist/);
});
