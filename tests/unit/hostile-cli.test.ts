/**
 * Generated hostile inputs to the CLI (issue 34 item 8), each run through `main(argv)` in one process
 * (tests/support/cli-batch.ts): 150 to `generate` (a field and a value it must refuse), 150 files to `check` (binary
 * and invalid UTF-8, deep nesting, alias bombs, Helm templates, BOM and CRLF, YAML garbage), 100 `verify` command
 * lines and 100 `verify --merge` reports. Each asserts the exit code, a one-line message (for exit 2) and no stack
 * trace; none may end in 70, an internal error. The named probes follow: 5,000-deep nesting, a 10,000-document file
 * and 50 parallel `check` processes.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import fc from 'fast-check';
import { fieldWithInvalidValue } from '../support/arbitraries.ts';
import { profiles } from '../support/generate.ts';
import { type CliResult, runBatch } from '../support/in-process.ts';

const MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;
const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
const STACK = /\n\s+at |^\s+at .*:\d+:\d+\)?$/m;
const VLLM = (grace: string) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: m}\nspec:\n  selector: {matchLabels: {app: m}}\n  template:\n    metadata: {labels: {app: m}}\n    spec:\n      terminationGracePeriodSeconds: ${grace}\n      containers:\n        - name: vllm\n          image: vllm/vllm-openai:v0.18.1\n          args: ["--model", "m"]\n`;

/** The run ended with one of `codes`; exit 2 has exactly one line on stderr naming the command; never a stack. */
function sane(r: CliResult, command: string, codes: number[], what: string): void {
  assert.ok(codes.includes(r.code), `${what}: exit ${r.code}\n${r.stderr.slice(0, 500)}`);
  assert.doesNotMatch(r.stderr, STACK, `${what}: a stack trace`);
  assert.doesNotMatch(r.stdout, STACK, `${what}: a stack trace`);
  if (r.code === 2) {
    const lines = r.stderr.split('\n').filter(Boolean);
    assert.equal(lines.length, 1, `${what}: one line on stderr, got ${JSON.stringify(r.stderr.slice(0, 500))}`);
    assert.ok(lines[0].startsWith(`hitless ${command}: `), `${what}: ${lines[0]}`);
  }
}

/** Hostile manifest bytes: what a user might paste, feed or be tricked into checking. */
const hostileFile: fc.Arbitrary<Buffer> = fc.oneof(
  fc.uint8Array({ minLength: 1, maxLength: 200 }).map((b) => Buffer.from(b)),
  fc
    .tuple(fc.constantFrom('kind: Deployment\n', VLLM('30')), fc.constantFrom(0xff, 0xfe, 0xc0, 0x80, 0xed, 0xf8))
    .map(([text, byte]) => Buffer.concat([Buffer.from(text), Buffer.from([byte, 0x41, 0x0a])])),
  fc
    .tuple(fc.integer({ min: 90, max: 400 }), fc.constantFrom('[', '{"a":'))
    .map(([depth, open]) => Buffer.from(`a: ${open.repeat(depth)}1${(open === '[' ? ']' : '}').repeat(depth)}\n`)),
  fc.tuple(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 2, max: 12 })).map(([levels, width]) => {
    const lines = [`l0: &l0 [${Array(width).fill('"x"').join(',')}]`];
    for (let i = 1; i < levels; i++)
      lines.push(
        `l${i}: &l${i} [${Array(width)
          .fill(`*l${i - 1}`)
          .join(',')}]`,
      );
    return Buffer.from(`${lines.join('\n')}\n`);
  }),
  fc
    .constantFrom(
      '{{- include "x" . | nindent 4 }}',
      'replicas: {{ .Values.replicas }}',
      '{{ if .Values.on }}\nkind: Deployment\n{{ end }}',
      'image: "{{ .Values.image }}"',
    )
    .map((helm) => Buffer.from(`${VLLM('30')}${helm}\n`)),
  fc
    .tuple(fc.boolean(), fc.constantFrom('\r\n', '\r', '\n'), fc.constantFrom('30', '0', '-1', '1e9', '"x"', '[]'))
    .map(([bom, eol, grace]) => Buffer.from(`${bom ? '\uFEFF' : ''}${VLLM(grace).replaceAll('\n', eol)}`)),
  fc
    .string({
      unit: fc.constantFrom(
        'a',
        ':',
        ' ',
        '\n',
        '-',
        '[',
        ']',
        '{',
        '}',
        '&',
        '*',
        '!',
        '|',
        '>',
        '#',
        '"',
        "'",
        '%',
        '@',
        '`',
        '\t',
        '?',
        ',',
      ),
      maxLength: 120,
    })
    .map((s) => Buffer.from(`kind: Deployment\n${s}`)),
);

test(`500 generated hostile inputs to generate, check, verify and verify --merge, in one process (seed ${seed})`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-cli-'));
  try {
    const generate = fc
      .sample(
        fieldWithInvalidValue(profiles).filter(({ value }) => typeof value === 'string' || typeof value === 'number'),
        { numRuns: 150, seed },
      )
      .map(({ spec, value }) => ({ flag: spec.flag, argv: ['generate', `--${spec.flag}=${String(value)}`] }));
    const files = fc.sample(hostileFile, { numRuns: 150, seed });
    files.forEach((bytes, i) => writeFileSync(join(dir, `c${i}.yaml`), bytes));
    const secret = 'S3cretValue';
    const verify = fc.sample(
      fc
        .oneof(
          fc.constantFrom(
            `http://u:${secret}@127.0.0.1:9`,
            `https://${secret}@h`,
            'ftp://h',
            'http://',
            '::',
            'http://h/v1/completions',
            'javascript:alert(1)',
            `http://h/?k=${secret}\n`,
          ),
          fc.string({ maxLength: 30 }).filter((s) => s.trim() !== '' && !s.startsWith('-')),
        )
        .chain((url) =>
          fc.tuple(
            fc.constant(url),
            fc.constantFrom(
              [],
              ['--rate', '-1'],
              ['--duration', 'NaN'],
              ['--header', `X-K: ${secret}\u0001`],
              ['--header', 'Content-Length: 1'],
              ['--concurrency', '1e9'],
              ['--api', 'soap'],
              ['--header', 'X-K: 1', '--header', 'x-k: 2'],
            ),
          ),
        ),
      { numRuns: 100, seed },
    );
    const good = {
      tool: 'hitless verify',
      version: 1,
      startedAt: '2026-12-01T12:00:00.000Z',
      settings: {
        url: 'http://gw/v1/completions',
        api: 'completions',
        model: 'm',
        ratePerSecond: 5,
        concurrency: 50,
        durationSeconds: 60,
        maxTokens: 200,
        timeoutSeconds: 300,
      },
      requests: 1,
      outcomes: { ok: 1, refused: 0, cut: 0, aborted: 0, timeout: 0 },
      lost: 0,
      skipped: 0,
      cancelled: 0,
      ttftMs: { p50: 50, p99: 50 },
      longestOkSeconds: 0.5,
      clientMaxLagMs: 0,
      shards: 1,
      events: [],
      perRequest: [{ id: 1, start: 0.1, end: 0.6, outcome: 'ok', status: 200, ttftMs: 50, detail: null }],
    };
    const reports = fc.sample(
      fc.oneof(
        fc
          .tuple(fc.constantFrom(...Object.keys(good)), fc.constantFrom<unknown>(null, -1, 'x', [], {}, 1e308, true))
          .map(([k, v]) => JSON.stringify({ ...good, [k]: v })),
        fc.nat(400).map((n) => JSON.stringify(good).slice(0, n)),
        fc.string({ maxLength: 60 }),
        fc.constantFrom(
          '[]',
          'null',
          '{}',
          '"a"',
          `${'['.repeat(5000)}${']'.repeat(5000)}`,
          `{"perRequest": ${'['.repeat(3000)}`,
        ),
      ),
      { numRuns: 100, seed },
    );
    reports.forEach((text, i) => writeFileSync(join(dir, `r${i}.json`), text));
    const cases = [
      ...generate.map((g) => g.argv),
      ...files.map((_, i) => ['check', join(dir, `c${i}.yaml`), '--format', i % 2 ? 'json' : 'text']),
      ...verify.map(([url, extra]) => ['verify', '--url', url, '--model', 'm', ...extra]),
      ...reports.map((_, i) => ['verify', '--merge', join(dir, `r${i}.json`)]),
    ];
    assert.equal(cases.length, 500);
    const results = await runBatch(cases, 600_000);
    generate.forEach(({ flag, argv }, i) => {
      sane(results[i], 'generate', [2], `${argv.join(' ')} (FC_SEED=${seed})`);
      assert.match(results[i].stderr, new RegExp(`--${flag} must be`));
      assert.equal(results[i].stdout, '');
    });
    files.forEach((bytes, i) => {
      // A check ends with findings (0 or 1) or refuses the input (2): whatever the bytes, never 70.
      sane(
        results[150 + i],
        'check',
        [0, 1, 2],
        `check of ${JSON.stringify(bytes.toString('latin1').slice(0, 120))} (FC_SEED=${seed})`,
      );
    });
    verify.forEach(([url, extra], i) => {
      const r = results[300 + i];
      // Nothing listens on these: every command line is refused before a request (none names a reachable URL).
      sane(r, 'verify', [2], `verify --url ${JSON.stringify(url)} ${extra.join(' ')} (FC_SEED=${seed})`);
      assert.ok(!r.stderr.includes(secret) && !r.stdout.includes(secret), `a secret was printed: ${r.stderr}`);
    });
    reports.forEach((text, i) => {
      sane(results[400 + i], 'verify', [0, 1, 2], `--merge of ${JSON.stringify(text.slice(0, 120))} (FC_SEED=${seed})`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const COMPILE_CACHE = mkdtempSync(join(tmpdir(), 'hostile-cli-cache-'));
after(() => rmSync(COMPILE_CACHE, { recursive: true, force: true }));

/** Run the CLI as its own process (where the process boundary is the point: parallel runs, big files). */
function run(args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    // Node's compile cache, shared: the 50 parallel runs then skip compiling the checker (about half their CPU time).
    const env = { ...process.env, NODE_COMPILE_CACHE: COMPILE_CACHE };
    const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

test('5,000-deep nesting, flow and block, is refused at 100 levels with its place', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-cli-'));
  try {
    writeFileSync(join(dir, 'flow.yaml'), `kind: Deployment\na: ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
    // Block nesting 5,000 deep on one line (`- - - … 1`): indented line by line it would be 12 MB, refused for its size.
    writeFileSync(join(dir, 'block.yaml'), `kind: Deployment\na:\n  ${'- '.repeat(5000)}1\n`);
    const [flow, block] = await runBatch([
      ['check', join(dir, 'flow.yaml')],
      ['check', join(dir, 'block.yaml')],
    ]);
    sane(flow, 'check', [2], 'flow');
    assert.match(flow.stderr, /flow\.yaml:2:.*more than 100 levels/);
    sane(block, 'check', [2], 'block');
    assert.match(block.stderr, /block\.yaml:3:\d+: .*more than 100 levels are refused/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a file of 10,000 documents is checked in parts: every workload is read, one summary', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-cli-'));
  try {
    // 10,000 Deployments named d0 … d9999, each a vLLM server with the 30 s default grace period.
    const docs = Array.from({ length: 10_000 }, (_, i) => VLLM('30').replace('name: m}', `name: d${i}}`));
    writeFileSync(join(dir, 'many.yaml'), docs.join('---\n'));
    const r = await run(['check', join(dir, 'many.yaml'), '--format', 'json']);
    sane(r, 'check', [1], '10,000 documents');
    const report = JSON.parse(r.stdout) as { findings: { code: string; object: string }[] };
    const graced = new Set(report.findings.filter((f) => f.code === 'grace-too-short').map((f) => f.object));
    assert.equal(graced.size, 10_000, 'one grace-too-short for each Deployment');
    assert.ok(graced.has('Deployment/d0') && graced.has('Deployment/d9999'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('50 parallel check processes on the same files: each gives the same answer', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-cli-'));
  try {
    writeFileSync(join(dir, 'a.yaml'), VLLM('30'));
    writeFileSync(join(dir, 'b.yaml'), `\uFEFF${VLLM('30').replaceAll('\n', '\r\n')}`);
    sane(await run(['check', join(dir, 'a.yaml')]), 'check', [1], 'the first run, which fills the compile cache');
    const runs = await Promise.all(
      Array.from({ length: 50 }, (_, i) => run(['check', join(dir, i % 2 ? 'b.yaml' : 'a.yaml'), '--format', 'json'])),
    );
    const codes = (r: CliResult) =>
      (JSON.parse(r.stdout) as { findings: { code: string }[] }).findings.map((f) => f.code);
    const expected = codes(runs[0]);
    assert.ok(expected.includes('grace-too-short'), expected.join(' '));
    runs.forEach((r, i) => {
      sane(r, 'check', [1], `run ${i}`);
      // A byte-order mark and CRLF line ends are read like any manifest: the same findings as the plain file.
      assert.deepEqual(codes(r), expected, `run ${i}`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
