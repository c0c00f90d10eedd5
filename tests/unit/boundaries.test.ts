// The rooms of ../shared/ARCHITECTURE.md hold: each room imports only from the rooms below it, and no module reaches
// itself again through its imports, type-only ones included. The rules are .dependency-cruiser.cjs; this runs them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs')) as {
  forbidden: unknown[];
  options: Record<string, unknown>;
};

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: { name: string }[];
}

/** Each violation of the rooms' rules under `baseDir`, as "rule: from → to" (a circle lists its whole path). */
async function violations(baseDir: string, paths: string[], tsConfig = true): Promise<string[]> {
  const options = { ...config.options, baseDir, ruleSet: { forbidden: config.forbidden }, validate: true };
  if (!tsConfig) delete (options as { tsConfig?: unknown }).tsConfig;
  const result = await cruise(paths, options as Parameters<typeof cruise>[1]);
  const output = result.output as { summary: { violations: Violation[] } };
  return output.summary.violations.map((v) =>
    v.cycle
      ? `${v.rule.name}: ${[v.from, ...v.cycle.map((c) => c.name)].join(' → ')}`
      : `${v.rule.name}: ${v.from} → ${v.to}`,
  );
}

test('no import in src/ or pages/ runs up a room, and no module reaches itself again', async () => {
  assert.deepEqual(await violations(ROOT, ['src', 'pages']), []);
});

test('an arrow up, an arrow up between the checker’s rooms and a type-only circle are each named', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hitless-boundaries-'));
  try {
    const files: Record<string, string> = {
      // The model importing an emitter: an arrow up.
      'src/model/plan.ts': "import { bundle } from '../emit/bundle.ts';\nexport const plan = bundle;\n",
      'src/emit/bundle.ts': 'export const bundle = 1;\n',
      // The checker's reader importing a rule: up inside check.
      'src/check/read/read-manifest.ts': "import { rule } from '../rules/rule.ts';\nexport const read = rule;\n",
      'src/check/rules/rule.ts': 'export const rule = 1;\n',
      // verify importing the CLI's parser: the arrow the move removed.
      'src/verify/options.ts': "import { parseArgs } from '../cli/args.ts';\nexport const options = parseArgs;\n",
      'src/cli/args.ts': 'export const parseArgs = 1;\n',
      // Two facts modules that import each other's types only.
      'src/facts/a.ts': "import type { B } from './b.ts';\nexport interface A { b?: B }\n",
      'src/facts/b.ts': "import type { A } from './a.ts';\nexport interface B { a?: A }\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    assert.deepEqual((await violations(dir, ['src'], false)).sort(), [
      'no-circular: src/facts/a.ts → src/facts/b.ts → src/facts/a.ts',
      'room-check-read: src/check/read/read-manifest.ts → src/check/rules/rule.ts',
      'room-model: src/model/plan.ts → src/emit/bundle.ts',
      'room-verify: src/verify/options.ts → src/cli/args.ts',
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
