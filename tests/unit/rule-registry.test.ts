// The committed registry (src/check/rules/registry.gen.ts and codes.gen.ts) is what scripts/gen-rules.ts writes for
// today's rule folders: a folder added or removed without regenerating fails here, naming the folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registrySources, ruleFolders } from '../../scripts/gen-rules.ts';

const RULES_DIR = fileURLToPath(new URL('../../src/check/rules/', import.meta.url));

/** The folders a generated registry imports. */
function registered(text: string): string[] {
  return [...text.matchAll(/from '\.\/([a-z0-9-]+)\/rule\.ts'/g)].map((m) => m[1]);
}

/** What is stale about a committed registry, as sentences naming the folders. */
function staleness(folders: string[], committed: string): string[] {
  const listed = registered(committed);
  return [
    ...folders
      .filter((f) => !listed.includes(f))
      .map((f) => `rules/${f}/ is not registered: run node scripts/gen-rules.ts`),
    ...listed
      .filter((f) => !folders.includes(f))
      .map((f) => `rules/${f}/ is registered but gone: run node scripts/gen-rules.ts`),
  ];
}

test('the committed registry is what the generator writes for the rule folders', () => {
  const folders = ruleFolders(RULES_DIR);
  // At least the rules of today, so that a generator that reads no folder (a wrong path) cannot pass; a new rule's
  // folder needs no change here (CONTRIBUTING.md: adding a rule touches nothing else).
  assert.ok(folders.length >= 43, `${folders.length} rule folders`);
  assert.deepEqual(staleness(folders, readFileSync(join(RULES_DIR, 'registry.gen.ts'), 'utf8')), []);
  const expected = registrySources(folders);
  for (const file of ['registry.gen.ts', 'codes.gen.ts'] as const)
    assert.equal(readFileSync(join(RULES_DIR, file), 'utf8'), expected[file], `${file} is stale`);
});

test('a folder without registration is named; a folder without rule.ts is no rule', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hitless-rules-'));
  try {
    for (const name of ['a-rule', 'b-rule', 'shared']) mkdirSync(join(dir, name));
    writeFileSync(join(dir, 'a-rule', 'rule.ts'), '');
    writeFileSync(join(dir, 'b-rule', 'rule.ts'), '');
    assert.deepEqual(ruleFolders(dir), ['a-rule', 'b-rule']);
    const old = registrySources(['a-rule', 'c-rule'])['registry.gen.ts'];
    assert.deepEqual(staleness(ruleFolders(dir), old), [
      'rules/b-rule/ is not registered: run node scripts/gen-rules.ts',
      'rules/c-rule/ is registered but gone: run node scripts/gen-rules.ts',
    ]);
    assert.match(registrySources(['a-rule'])['codes.gen.ts'], /export type CheckCode =\n {2}\| 'a-rule';\n/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
