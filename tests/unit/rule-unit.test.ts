// The proof that a rule is one folder: in a copy of the project, a new folder rules/<code>/ (rule.ts, fires.yaml,
// does-not-fire.yaml) and the generator are all it takes for `hitless rules`, `hitless check`, the meta-test's audit
// and the site's rule list to know the rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A rule no real checker has: a Deployment of a model server with more than 8 replicas. */
const RULE = `/** too-many-replicas: a model-server Deployment with more than 8 replicas. */
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'too-many-replicas',
  order: 395,
  scope: 'workload',
  severity: { warning: 'above 8 replicas', error: 'above 16' },
  summary: 'A model-server Deployment with more than 8 replicas.',
  remediation: 'Lower spec.replicas to 8 or fewer.',
  remedy: 'manual',
  appliesTo: (ctx) => ctx.workload.kind === 'Deployment',
  check: ({ workload }) =>
    workload.replicas > 8
      ? [{ severity: workload.replicas > 16 ? 'error' : 'warning', path: ['spec', 'replicas'], message: \`\${workload.replicas} replicas are many.\` }]
      : [],
});
`;

/** A vLLM Deployment with `replicas` pods. */
const deployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: llm
spec:
  replicas: ${replicas}
  selector:
    matchLabels: { app: llm }
  template:
    metadata:
      labels: { app: llm }
    spec:
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.10.0
          args: ["--model", "m"]
`;

test('a rule added as one folder is seen by hitless rules, hitless check, the audit and the site', () => {
  const copy = mkdtempSync(join(tmpdir(), 'hitless-unit-'));
  try {
    for (const path of ['src', 'content', 'scripts/gen-rules.ts', 'tests/support', 'package.json'])
      cpSync(join(ROOT, path), join(copy, path), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
    const folder = join(copy, 'src/check/rules/too-many-replicas');
    mkdirSync(folder);
    writeFileSync(join(folder, 'rule.ts'), RULE);
    writeFileSync(join(folder, 'fires.yaml'), deployment(12));
    writeFileSync(join(folder, 'does-not-fire.yaml'), deployment(2));
    const node = (...args: string[]) => {
      try {
        return execFileSync(process.execPath, args, { cwd: copy, encoding: 'utf8' });
      } catch (error) {
        return (error as { stdout: string }).stdout; // `check` exits 1 on an error finding
      }
    };

    node('scripts/gen-rules.ts');
    const rules = JSON.parse(node('src/cli/main.ts', 'rules', '--format', 'json')) as { code: string }[];
    assert.deepEqual(
      rules.find((r) => r.code === 'too-many-replicas'),
      {
        code: 'too-many-replicas',
        severity: 'warning above 8 replicas; error above 16',
        summary: 'A model-server Deployment with more than 8 replicas.',
        remediation: 'Lower spec.replicas to 8 or fewer.',
        fix: 'manual',
      },
    );
    // Listed by its order: 395 comes after the last rule, sidecar-serves-pool (390).
    assert.deepEqual(
      rules.slice(-2).map((r) => r.code),
      ['sidecar-serves-pool', 'too-many-replicas'],
    );

    const codes = (file: string) =>
      (
        JSON.parse(node('src/cli/main.ts', 'check', join(folder, file), '--format', 'json')) as {
          findings: { code: string; severity: string; line: number }[];
        }
      ).findings.filter((f) => f.code === 'too-many-replicas');
    assert.deepEqual(
      codes('fires.yaml').map(({ severity, line }) => ({ severity, line })),
      [{ severity: 'warning', line: 6 }],
    );
    assert.deepEqual(codes('does-not-fire.yaml'), []);

    const probe = `
      const { auditRule, readRuleFiles } = await import('./tests/support/rule-audit.ts');
      const { RULES, ruleRows } = await import('./src/check/rules/index.ts');
      const rule = RULES.find((r) => r.code === 'too-many-replicas');
      console.log(JSON.stringify({
        audit: auditRule(rule, readRuleFiles('too-many-replicas')),
        site: ruleRows().filter((r) => r.code === 'too-many-replicas').map((r) => r.severity),
      }));`;
    assert.deepEqual(JSON.parse(node('--input-type=module', '-e', probe)), {
      audit: [],
      site: ['warning above 8 replicas; error above 16'],
    });
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
