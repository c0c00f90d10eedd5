// The CLI behaves as its users' other tools do (issue 32): every command answers --help and -h with exit 0; a
// mistyped command or flag gets a suggestion; JSON's ok means what the exit code means; --out-dir writes a form's
// files; a diff names its file so that git apply takes it, whatever path it was given. Expected texts by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closest } from '../../src/cli/args.ts';

const MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;
const FIXTURE = new URL('../fixtures/deployments/vllm-latest.yaml', import.meta.url).pathname;

function hitless(args: string[], cwd?: string) {
  return spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', cwd, timeout: 60_000 });
}

test('every command answers --help and -h on stdout with exit 0; so does hitless alone', () => {
  const first: Record<string, RegExp> = {
    generate: /^Usage: hitless generate /,
    inputs: /^Usage: hitless inputs\n/,
    check: /^Usage: hitless check FILE\.\.\. /,
    rules: /^Usage: hitless rules /,
    lab: /^hitless lab: /,
    verify: /^hitless verify: /,
    policy: /^Usage: hitless policy /,
  };
  for (const [command, start] of Object.entries(first))
    for (const flag of ['--help', '-h']) {
      // After other flags too, as `git commit -m x --help` is: the help wins.
      const r = hitless([command, '--gateway', 'istio', flag]);
      assert.equal(r.status, 0, `${command} ${flag}: ${r.stderr}`);
      assert.match(r.stdout, start, `${command} ${flag}`);
      assert.equal(r.stderr, '');
    }
  // After --, -h is a file name, not a request for help.
  assert.match(hitless(['check', '--', '-h']).stderr, /^hitless check: -h does not exist\n$/);
  const bare = hitless([]);
  assert.equal(bare.status, 0);
  assert.match(bare.stdout, /^hitless: roll out LLM model servers/);
});

test('"did you mean" for a mistyped command or flag, and none for a word far from all', () => {
  assert.equal(closest('genrate', ['generate', 'check']), 'generate');
  assert.equal(closest('chekc', ['generate', 'check']), 'check', 'an adjacent swap counts once');
  assert.equal(closest('gen', ['generate', 'check']), 'generate', 'a unique start');
  assert.equal(closest('deploy', ['generate', 'check']), undefined);
  const command = hitless(['genrate']);
  assert.equal(command.status, 2);
  assert.equal(
    command.stderr,
    'hitless: unknown command "genrate". Did you mean generate? Commands: generate, inputs, check, rules, lab, verify, policy (hitless --help)\n',
  );
  const flag = hitless(['check', '--strickt', FIXTURE]);
  assert.equal(flag.status, 2);
  assert.equal(
    flag.stderr,
    'hitless check: --strickt is not an option of this command (see --help). Did you mean --strict?\n',
  );
  assert.equal(
    hitless(['generate', '--max-output-token', '10']).stderr,
    'hitless generate: --max-output-token is not an option of this command (see --help). Did you mean --max-output-tokens?\n',
  );
});

test('check --format json: ok is true exactly when the exit code is 0; text says "fixable" for a fix it did not write', () => {
  const json = hitless(['check', '--format', 'json', FIXTURE]);
  assert.equal(json.status, 1);
  const out = JSON.parse(json.stdout);
  assert.deepEqual([out.ok, out.exitCode], [false, 1]);
  const unusable = hitless(['check', '--format', 'json', '/nonexistent-hitless.yaml']);
  assert.equal(unusable.status, 2);
  assert.deepEqual([JSON.parse(unusable.stdout).ok, JSON.parse(unusable.stdout).exitCode], [false, 2]);
  const text = hitless(['check', FIXTURE]);
  assert.match(
    text.stdout,
    /^ {10}fixable: terminationGracePeriodSeconds: 788 # 35s preStop \+ 738s drain \+ 15s teardown$/m,
  );
  assert.match(
    text.stdout,
    /^ {10}fix \(manual\): Manual: the image tag "vllm\/vllm-openai:latest" names no vLLM release/m,
  );
  assert.doesNotMatch(text.stdout, /applied/);
});

test('generate --out-dir writes each file of the form and lists them; the bundle is one manifest.yaml', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-conventions-'));
  try {
    const joined = hitless(['generate', '--output', 'patch']);
    const written = hitless(['generate', '--output', 'patch', '--out-dir', join(dir, 'new', 'patch')]);
    assert.equal(written.status, joined.status, written.stderr);
    const names = ['kustomization.yaml', 'drain-patch.yaml', 'drain-flag.yaml', 'drain-objects.yaml'];
    assert.deepEqual(readdirSync(join(dir, 'new', 'patch')).sort(), [...names].sort());
    assert.deepEqual(
      written.stdout.trim().split('\n'),
      names.map((n) => join(dir, 'new', 'patch', n)),
    );
    // Each file is the part of the joined output that follows its `# File:` line.
    for (const name of names)
      assert.ok(joined.stdout.includes(readFileSync(join(dir, 'new', 'patch', name), 'utf8').trim()), name);
    const bundle = hitless(['generate', '--out-dir', dir]);
    assert.equal(bundle.stdout, `${join(dir, 'manifest.yaml')}\n`);
    assert.equal(readFileSync(join(dir, 'manifest.yaml'), 'utf8'), hitless(['generate']).stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check --format diff names the file so that git apply takes it: normalized, outside the folder, no final line break', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-conventions-'));
  try {
    mkdirSync(join(dir, 'sub'));
    const text = readFileSync(FIXTURE, 'utf8');
    writeFileSync(join(dir, 'a.yaml'), text);
    // sub/../a.yaml is a.yaml.
    const here = hitless(['check', '--format', 'diff', 'sub/../a.yaml'], dir);
    assert.match(here.stdout, /^--- a\/a\.yaml\n\+\+\+ b\/a\.yaml\n/);
    assert.equal(here.stderr, '');
    // From sub/, ../a.yaml is outside the folder: named from the file's own folder, which the message gives.
    const outside = hitless(['check', '--format', 'diff', '../a.yaml'], join(dir, 'sub'));
    assert.match(outside.stdout, /^--- a\/a\.yaml\n/);
    assert.equal(outside.stderr, `hitless check: the diff's paths are relative to ${dir}: apply it there\n`);
    writeFileSync(join(dir, 'fix.diff'), outside.stdout);
    const applied = spawnSync('git', ['apply', 'fix.diff'], { cwd: dir, encoding: 'utf8' });
    assert.equal(applied.status, 0, applied.stderr);
    assert.notEqual(readFileSync(join(dir, 'a.yaml'), 'utf8'), text);
    // A file whose last line has no line break: the diff says so, and git apply takes it.
    writeFileSync(join(dir, 'b.yaml'), text.replace(/\n$/, ''));
    const noBreak = hitless(['check', '--format', 'diff', 'b.yaml'], dir);
    assert.match(noBreak.stdout, /\n\\ No newline at end of file\n$/);
    writeFileSync(join(dir, 'b.diff'), noBreak.stdout);
    const appliedB = spawnSync('git', ['apply', 'b.diff'], { cwd: dir, encoding: 'utf8' });
    assert.equal(appliedB.status, 0, appliedB.stderr);
    assert.doesNotMatch(readFileSync(join(dir, 'b.yaml'), 'utf8'), /\n$/, 'still without a final line break');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('check --fix writes the fixes into the file, keeps its mode, its symlink and its lack of a final line break, and reports what is left', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-conventions-'));
  try {
    const text = readFileSync(FIXTURE, 'utf8').replace(/\n$/, '');
    writeFileSync(join(dir, 'real.yaml'), text, { mode: 0o640 });
    symlinkSync('real.yaml', join(dir, 'link.yaml'));
    const fixed = hitless(['check', '--fix', 'link.yaml'], dir);
    // vllm-latest.yaml: five fixable findings written, errors first; drain-aborts-in-flight stays (its image names no
    // release: manual). The surge and grace errors rest on assumed inputs (spare GPUs, the longest request): warnings.
    // The progress deadline rests on an assumed model load: a note, listed last.
    assert.equal(
      fixed.stderr,
      'hitless check: fixed link.yaml: 5 fixes written (prestop-missing, readiness-missing, surge-without-spare-gpus, grace-too-short, progress-deadline-too-short); what is left follows\n',
    );
    assert.equal(fixed.status, 1, 'an error is left');
    assert.match(fixed.stdout, /error +drain-aborts-in-flight/);
    assert.doesNotMatch(fixed.stdout, /prestop-missing|grace-too-short|readiness-missing/);
    assert.ok(lstatSync(join(dir, 'link.yaml')).isSymbolicLink(), 'the link is still a link');
    const after = readFileSync(join(dir, 'real.yaml'), 'utf8');
    assert.match(after, /terminationGracePeriodSeconds: 788/);
    assert.doesNotMatch(after, /\n$/, 'still without a final line break');
    assert.equal(statSync(join(dir, 'real.yaml')).mode & 0o777, 0o640);
    assert.deepEqual(readdirSync(dir).sort(), ['link.yaml', 'real.yaml'], 'no temporary file left');
    // A second run has nothing to write.
    const again = hitless(['check', '--fix', 'real.yaml'], dir);
    assert.equal(again.stderr, '');
    assert.equal(readFileSync(join(dir, 'real.yaml'), 'utf8'), after);
    // One file, not stdin, not with --format diff.
    assert.equal(hitless(['check', '--fix', '-'], dir).status, 2);
    assert.equal(hitless(['check', '--fix', 'real.yaml', 'link.yaml'], dir).status, 2);
    assert.match(hitless(['check', '--fix', '--format', 'diff', 'real.yaml'], dir).stderr, /choose one/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
