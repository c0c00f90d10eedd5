// Shell fixtures run, before and after the fix, under bash and dash, with stub programs on PATH that record their
// arguments: the script exits as it did before, and the server receives the drain flag when the fix says applied.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellScripts } from '../support/shell-scripts.ts';
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
      const before = shellScripts(text).containers;
      if (before.length === 0) continue;
      const after = shellScripts(fixed(text)).containers;
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
