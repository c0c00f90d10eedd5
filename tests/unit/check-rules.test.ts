// The meta-test: every rule of the registry is a complete unit (metadata, fires / does-not-fire fixtures, and the
// golden fixed.yaml when the checker writes its fix), and its fixtures behave. The audit itself is shown to fail on
// entries that lack what it asks for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { RULES } from '../../src/check/rules/index.ts';
import type { Rule } from '../../src/check/rules/rule.ts';
import { auditRule, readRuleFiles } from '../support/rule-audit.ts';

const CHECK_DIR = new URL('../../src/check/', import.meta.url);

for (const rule of RULES) {
  test(`rule ${rule.code}: metadata, fixtures and fix`, () => {
    assert.deepEqual(auditRule(rule, readRuleFiles(rule.code)), []);
  });
}

test('the registry holds each rule folder once, under its folder name', () => {
  const codes = RULES.map((r) => r.code);
  assert.equal(new Set(codes).size, codes.length, 'a code is registered twice');
  const folders = readdirSync(new URL('rules/', CHECK_DIR), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(new URL(`rules/${d.name}/rule.ts`, CHECK_DIR)))
    .map((d) => d.name);
  assert.deepEqual([...folders].sort(), [...codes].sort(), 'rules/<code>/ folders and the registry differ');
});

test('the audit fails an entry with no metadata and no fixtures, naming each gap', () => {
  const fake = {
    code: 'fake-rule',
    severity: '',
    summary: 'two\nlines',
    remediation: '',
    remedy: 'applied',
  } as unknown as Rule;
  assert.deepEqual(auditRule(fake, {}), [
    'severity is missing (it starts with error, warning or info)',
    'summary is not one line ending in a period',
    'remediation is missing',
    'remedy is applied, but the rule has no fix',
    'fires.yaml is missing',
    'does-not-fire.yaml is missing',
    'fixed.yaml is missing (the rule says the checker applies its fix)',
  ]);
});

test('the audit fails fixtures that do not behave: swapped fixtures, a wrong golden, a wrong module', () => {
  const real = RULES.find((r) => r.code === 'grace-too-short')!;
  const files = readRuleFiles('grace-too-short');
  // Swapped: fires.yaml does not fire, does-not-fire.yaml does.
  const swapped = auditRule(real, { fires: files.doesNotFire, doesNotFire: files.fires, fixed: files.fixed });
  assert.match(swapped[0], /^does-not-fire\.yaml reports grace-too-short: SIGKILL comes 100s after deletion/);
  assert.equal(swapped[1], 'fires.yaml does not report grace-too-short');
  // A golden that is not what the fix writes (the comment left out).
  const golden = files.fixed!.replace(' # 35s preStop + 75s drain + 15s teardown', '');
  assert.deepEqual(auditRule(real, { ...files, fixed: golden }), [
    'fixing fires.yaml does not give fixed.yaml: line 22: the fix writes "      terminationGracePeriodSeconds: 125 # 35s preStop + 75s drain + 15s teardown", the golden has "      terminationGracePeriodSeconds: 125"',
  ]);
  // A golden that does not fix (the input itself): the fix differs, the re-check still fires, and fixing it changes it.
  const unfixed = auditRule(real, { ...files, fixed: files.fires });
  assert.equal(unfixed.length, 3, unfixed.join('\n'));
  assert.match(unfixed[0], /^fixing fires\.yaml does not give fixed\.yaml: line 22: /);
  assert.match(unfixed[1], /^fixed\.yaml still reports grace-too-short: SIGKILL comes 100s after deletion/);
  assert.equal(unfixed[2], 'fixing fixed.yaml changes it again: the fix does not converge');
  // Metadata that claims the wrong remedy and a severity that does not cover what the rule reports.
  assert.deepEqual(
    auditRule({ ...real, severity: 'error', remedy: 'manual' }, { fires: files.fires, doesNotFire: files.doesNotFire }),
    [
      'fires.yaml gets grace-too-short with remedy applied, but the rule says manual',
      "fires.yaml gets grace-too-short as warning, which the rule's severity does not declare",
    ],
  );
});
