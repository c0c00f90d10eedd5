// Shell fixtures run, before and after the fix, under bash and dash, with stub programs on PATH that record their
// arguments: the script exits as it did before, and the server receives the drain flag when the fix says applied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { check, fixed } from '../support/check.ts';

const DIR = new URL('../fixtures/deployments/', import.meta.url);
const SHELLS = ['bash', 'dash'].filter((s) => spawnSync('sh', ['-c', `command -v ${s}`]).status === 0);
const STUBS = [
  'python',
  'python3',
  'vllm',
  'pip',
  'ray',
  'tritonserver',
  'text-generation-launcher',
  'llama-server',
  'su',
  'curl',
  'nvidia-smi',
];

/** The `sh -c` scripts of every container of every pod template: [container name, shell options, script, $0 and args]. */
function scripts(text: string): { name: string; options: string[]; script: string; rest: string[] }[] {
  const found: { name: string; options: string[]; script: string; rest: string[] }[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (typeof record.name === 'string' && typeof record.image === 'string') {
      const argv = [
        ...((record.command as string[] | undefined) ?? []),
        ...((record.args as string[] | undefined) ?? []),
      ].map(String);
      if (argv.length > 0 && /(^|\/)(sh|bash|dash)$/.test(argv[0])) {
        const c = argv.findIndex((a, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(a));
        if (c !== -1 && argv[c + 1] !== undefined)
          found.push({
            name: record.name,
            options: argv.slice(1, c + 1),
            script: argv[c + 1],
            rest: argv.slice(c + 2),
          });
      }
    }
    for (const [key, value] of Object.entries(record)) if (key !== 'lifecycle') visit(value);
  };
  for (const doc of parseAllDocuments(text, { version: '1.1' })) visit(doc.toJS());
  return found;
}

/** Run a script with stubs on PATH; the exit status and what each stub was called with. */
function run(
  shell: string,
  options: string[],
  script: string,
  rest: string[],
  stubDir: string,
  log: string,
): { status: number | null; calls: string[] } {
  writeFileSync(log, '');
  const r = spawnSync(shell, [...options, script, ...rest], {
    env: { PATH: `${stubDir}:/usr/bin:/bin`, STUB_LOG: log, HOSTNAME: 'pod-1', LWS_GROUP_SIZE: '2' },
    encoding: 'utf8',
    timeout: 10_000,
  });
  return { status: r.status, calls: readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

test('shell fixtures exit as before under bash and dash, and the server gets the flag the fix applied', {
  skip: SHELLS.length === 0 && 'no bash or dash',
}, () => {
  const stubDir = mkdtempSync(join(tmpdir(), 'hitless-stubs-'));
  const log = join(stubDir, 'calls.log');
  try {
    for (const name of STUBS) {
      const path = join(stubDir, name);
      writeFileSync(path, '#!/bin/sh\nprintf \'%s\\n\' "$(basename "$0") $*" >> "$STUB_LOG"\nexit 0\n');
      chmodSync(path, 0o755);
    }
    let ran = 0;
    let flagged = 0;
    for (const file of readdirSync(DIR)
      .filter((n) => n.endsWith('.yaml'))
      .sort()) {
      const text = readFileSync(new URL(file, DIR), 'utf8');
      const before = scripts(text);
      if (before.length === 0) continue;
      const after = scripts(fixed(text));
      assert.equal(after.length, before.length, file);
      const report = check(text);
      const flagFindings = report.findings.filter((f) =>
        /^(drain-aborts-in-flight|drain-flag-too-short|drain-flag-exceeds-grace)$/.test(f.code),
      );
      for (const shell of SHELLS) {
        before.forEach((b, i) => {
          const a = after[i];
          const old = run(shell, b.options, b.script, b.rest, stubDir, log);
          const now = run(shell, a.options, a.script, a.rest, stubDir, log);
          assert.equal(now.status, old.status, `${file} ${b.name} under ${shell}: exit status`);
          for (const f of flagFindings.filter((x) => x.remedy === 'applied' && x.path.includes(`containers[`))) {
            const flag = /^(--[a-z-]+=\d+)/.exec(f.fix!.text)?.[1];
            if (!flag || a.script === b.script) continue;
            flagged++;
            assert.ok(
              now.calls.some((c) => c.split(' ').includes(flag)),
              `${file} ${b.name} under ${shell}: the server got ${flag}; calls: ${now.calls.join(' | ')}`,
            );
          }
          ran++;
        });
      }
    }
    assert.ok(ran >= 10, `ran ${ran} scripts`);
    // arith-dp-size, bash-exc-pip-install, sh-c-ray-lws-leader, vllm-serve-no-exec, vllm-background-wait, triton-port-9000: twice each.
    assert.ok(flagged >= 6 * SHELLS.length, `the flag was checked ${flagged} times`);
  } finally {
    rmSync(stubDir, { recursive: true, force: true });
  }
});
