// `hitless check --format patch` (issue #30, items 5 and 7): the fixes as a kustomization of JSON 6902 patches over the
// reader's file. The operations are worked out by hand from RFC 6902; the corpus cases are built with a real
// `kubectl kustomize` (v1.33, kustomize 5.6: tests/support/kubectl.ts) and must give what `--fix` gives, with one
// handler per hook and probe, and check again with nothing left to fix.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkManifest, fixManifest } from '../../src/check/index.ts';
import { diffOps, kustomizePatch } from '../../src/check/fix/kustomize-patch.ts';
import { readManifest } from '../../src/check/read/read-manifest.ts';
import { handlerProblems, parseDocs } from '../support/corpus-invariants.ts';
import { kustomize } from '../support/kubectl.ts';
import { profiles } from '../support/check.ts';

const ROOT = mkdtempSync(join(tmpdir(), 'hitless-patch-'));
after(() => rmSync(ROOT, { recursive: true, force: true }));
const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));

test('the operations: a changed value is tested then replaced, a new key added, an old one tested then removed', () => {
  const before = { spec: { grace: 30, hook: { exec: { command: ['sleep', '5'] } }, args: ['--a', '--b'] } };
  const after = {
    spec: { grace: 125, hook: { sleep: { seconds: 35 } }, args: ['--a', '--b', '--c=1'], deadline: 725 },
  };
  assert.deepEqual(diffOps(before, after), [
    { op: 'test', path: '/spec/grace', value: 30 },
    { op: 'replace', path: '/spec/grace', value: 125 },
    // The old handler goes before the new one comes: the hook never holds two.
    { op: 'test', path: '/spec/hook/exec', value: { command: ['sleep', '5'] } },
    { op: 'remove', path: '/spec/hook/exec' },
    { op: 'add', path: '/spec/hook/sleep', value: { seconds: 35 } },
    // An item appended to a list: the last item is tested, the new one added at the end.
    { op: 'test', path: '/spec/args/1', value: '--b' },
    { op: 'add', path: '/spec/args/-', value: '--c=1' },
    { op: 'add', path: '/spec/deadline', value: 725 },
  ]);
  // A list item changed in place (a flag inside a `sh -c` script): one replace at its index.
  assert.deepEqual(diffOps({ args: ['-c', 'vllm serve m'] }, { args: ['-c', 'exec vllm serve m'] }), [
    { op: 'test', path: '/args/1', value: 'vllm serve m' },
    { op: 'replace', path: '/args/1', value: 'exec vllm serve m' },
  ]);
  // Keys with / and ~ are escaped (RFC 6901).
  assert.deepEqual(diffOps({ a: { 'x/y~z': 1 } }, { a: { 'x/y~z': 2 } }), [
    { op: 'test', path: '/a/x~1y~0z', value: 1 },
    { op: 'replace', path: '/a/x~1y~0z', value: 2 },
  ]);
});

/** The objects of a YAML stream by kind, namespace and name. */
function byId(text: string): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const doc of parseDocs(text)) {
    const o = doc as { kind?: string; metadata?: { name?: string; namespace?: string } } | null;
    if (o?.kind) out.set(`${o.kind}/${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`, doc);
  }
  return out;
}

/** Build a file's patch with kubectl kustomize: what it gives, or why there is none. */
function buildPatch(name: string, text: string): { built?: string; fixed?: string; skip?: string } {
  const result = checkManifest(text, {}, profiles);
  if (!result.ok) return { skip: 'refused by the checker' };
  const fixedText = fixManifest(result.manifest, result.report.findings).text;
  if (fixedText === text) return { skip: 'nothing to fix' };
  const fixed = readManifest(fixedText);
  if (!fixed.ok) assert.fail(`${name}: the fixed manifest does not read`);
  const dir = mkdtempSync(join(ROOT, 'case-'));
  writeFileSync(join(dir, 'app.yaml'), text);
  // The reader's file alone must build: kustomize refuses some inputs (no name, duplicate objects) on its own.
  writeFileSync(join(dir, 'kustomization.yaml'), 'resources: [app.yaml]\n');
  if (!kustomize(dir).ok) return { skip: 'kustomize refuses the file as it is' };
  const files = kustomizePatch(result.manifest, fixed.manifest, ['app.yaml']);
  assert.ok(files, `${name}: a fix that changes the text gives a patch`);
  for (const f of files) writeFileSync(join(dir, f.name), f.text);
  const built = kustomize(dir);
  if (!built.ok) assert.fail(`${name}: kubectl kustomize failed:\n${built.error}`);
  return { built: built.yaml, fixed: fixedText };
}

test('every corpus workload the checker fixes: the patch builds with kubectl kustomize into what --fix writes', () => {
  const dir = fileURLToPath(new URL('../fixtures/corpus/', import.meta.url));
  let built = 0;
  const skipped: string[] = [];
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
    const r = buildPatch(name, readFileSync(join(dir, name), 'utf8'));
    if (r.skip) {
      skipped.push(`${name}: ${r.skip}`);
      continue;
    }
    built++;
    const got = byId(r.built!);
    const want = byId(r.fixed!);
    for (const [id, value] of want) assert.deepEqual(got.get(id), value, `${name}: ${id} as built differs from --fix`);
    assert.deepEqual(handlerProblems(parseDocs(r.built!)), [], name);
    // Checked again, the built manifest has nothing left that a fix would change.
    const again = checkManifest(r.built!, {}, profiles);
    assert.ok(again.ok, name);
    assert.equal(
      fixManifest(again.manifest, again.report.findings).text,
      r.built!,
      `${name}: fixes left after the patch`,
    );
  }
  // 39 of the 64 had something to fix when this was written (the rest: nothing to fix, or refused as they are), 34
  // once LLMInferenceService fixes became manual (KServe merges a well-known config the input does not hold); the
  // count keeps the test from passing on an empty run.
  assert.ok(built >= 34, `${built} built; skipped:\n${skipped.join('\n')}`);
});

test('hitless check --format patch --out-dir writes the kustomization beside the file; outside its folder it refuses', () => {
  const dir = mkdtempSync(join(ROOT, 'cli-'));
  const text = readFileSync(new URL('../fixtures/gie-v1.5.0-gpu-deployment.yaml', import.meta.url), 'utf8');
  writeFileSync(join(dir, 'app.yaml'), text);
  const r = spawnSync(process.execPath, [BIN, 'check', 'app.yaml', '--format', 'patch', '--out-dir', '.'], {
    cwd: dir,
    encoding: 'utf8',
  });
  assert.equal(r.status, 1, r.stderr); // the file has an error finding
  assert.deepEqual(r.stdout.trim().split('\n').sort(), ['kustomization.yaml', 'patch-deployment-vllm-qwen3-32b.yaml']);
  const built = kustomize(dir);
  assert.ok(built.ok);
  assert.match(built.yaml, /- --shutdown-timeout=738\n/);
  const outside = spawnSync(process.execPath, [BIN, 'check', 'app.yaml', '--format', 'patch', '--out-dir', '../x'], {
    cwd: dir,
    encoding: 'utf8',
  });
  assert.equal(outside.status, 2);
  assert.match(outside.stderr, /kustomize reads no file outside the kustomization's folder/);
});

test('a file kustomize cannot read (a mapping as a key, an unrendered {{TEMPLATE}}): the patch says so, with the line', () => {
  const dir = mkdtempSync(join(ROOT, 'template-'));
  const text = readFileSync(new URL('../fixtures/gie-v1.5.0-gpu-deployment.yaml', import.meta.url), 'utf8');
  // A Secret in the shape of GKE's samples, its token left for a templating step: line 4 of the appended document.
  const secret = 'apiVersion: v1\nkind: Secret\nmetadata: {name: hf}\nstringData:\n  token: {{HF_TOKEN}}\n';
  writeFileSync(join(dir, 'app.yaml'), `${text}---\n${secret}`);
  // kustomize itself refuses the file as written.
  writeFileSync(join(dir, 'kustomization.yaml'), 'resources: [app.yaml]\n');
  assert.equal(kustomize(dir).ok, false);
  const r = spawnSync(process.execPath, [BIN, 'check', 'app.yaml', '--format', 'patch', '--out-dir', '.'], {
    cwd: dir,
    encoding: 'utf8',
  });
  assert.equal(r.status, 1);
  const line = text.split('\n').length - 1 + 1 + 5; // the fixture's lines, the '---', then line 5 of the Secret
  assert.match(
    r.stderr,
    new RegExp(`kustomize cannot read app\\.yaml as written: line ${line} has a mapping as a key`),
  );
  assert.match(
    readFileSync(join(dir, 'kustomization.yaml'), 'utf8'),
    new RegExp(
      `^# Made by hitless check --format patch from app\\.yaml\\.\\n# kustomize cannot read app\\.yaml as written: line ${line} `,
    ),
  );
});
