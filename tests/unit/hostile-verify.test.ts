/**
 * Hostile input to `hitless verify`: headers with non-ASCII or control bytes and framing headers, a --report path
 * that cannot take the page (before and after the run), bad --merge shards, reports of 200,000 requests, and local
 * hostile servers on 127.0.0.1 (nothing listening, an untrusted certificate, bodies that are not gzip, a gzip bomb).
 * Each process run asserts the exit code, its one-line message and no stack trace.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, Agent, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { UsageError } from '../../src/cli/args.ts';
import { parseVerifyOptions } from '../../src/cli/verify-options.ts';
import { reportHtml } from '../../src/verify/html.ts';
import { reportProblem } from '../../src/verify/report-check.ts';
import { reportJsonPieces } from '../../src/verify/report-json.ts';
import { reportEndSeconds, summaryText, type RequestRow, type VerifyReport } from '../../src/verify/report.ts';
import { sendRequest } from '../../src/verify/request.ts';

const MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;
const base = ['--url', 'http://127.0.0.1:9', '--model', 'm'];

/** Run the CLI as a process without blocking this one (its servers must answer). */
function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

/** `hitless verify` against `url` for one second with model m, and the `extra` flags. */
function verifyFor(url: string, ...extra: string[]) {
  return run(['verify', '--url', url, '--model', 'm', '--duration', '1', ...extra]);
}

const noStack = (text: string) => assert.doesNotMatch(text, /\n\s+at |RangeError|TypeError/, 'no stack trace');

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as { port: number }).port;
}

const SSE_OK = 'data: {"choices":[{"index":0,"text":"a","finish_reason":"stop"}]}\n\ndata: [DONE]\n\n';

/** A server that streams one ok completion per request, recording each request's URL. */
function okServer(seen: string[], onRequest: (req: IncomingMessage) => void = () => {}) {
  return createServer((req, res) => {
    seen.push(String(req.url));
    onRequest(req);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(SSE_OK);
    });
  });
}

const usage = (argv: string[]) => {
  try {
    parseVerifyOptions(argv, {});
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  return null;
};

test('property: a header value with a byte outside visible ASCII is refused before the run, naming the header, never the value', () => {
  const bad = fc.constantFrom('€', '\u0001', '\u007f', 'é', '\u00a0', '\u2028', '😀', '\u001b');
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '=', '/') }),
      bad,
      fc.string(),
      (left, b, right) => {
        const value = `s3cret${left}${b}x${right}`;
        const message = usage([...base, '--header', `X-Key: ${value}`]);
        assert.ok(message !== null, 'refused');
        assert.match(message, /^--header X-Key has /);
        assert.ok(!message.includes('s3cret'), 'the value is not echoed');
      },
    ),
    { numRuns: 200 },
  );
  assert.equal(usage([...base, '--header', 'X-Key: visible ASCII\twith a tab']), null);
});

test('framing and hop-by-hop headers are refused in --header (any case) and --id-header; Host is allowed', () => {
  for (const name of ['Content-Length', 'transfer-encoding', 'CONNECTION', 'Upgrade', 'TE', 'keep-alive']) {
    assert.match(
      usage([...base, '--header', `${name}: x`]) ?? '',
      new RegExp(`^--header ${name} is a framing or connection header`),
    );
    assert.match(
      usage([...base, '--id-header', name]) ?? '',
      new RegExp(`^--id-header ${name} is a framing or connection header`),
    );
  }
  assert.equal(usage([...base, '--header', 'Host: gateway.example']), null);
});

test('--report into a missing folder exits 2 before the first request', async () => {
  const seen: string[] = [];
  const server = okServer(seen);
  const port = await listen(server);
  try {
    const r = await verifyFor(`http://127.0.0.1:${port}`, '--report', '/nonexistent-hitless/r.html');
    assert.equal(r.status, 2);
    assert.deepEqual(r.stderr.split('\n').filter(Boolean), [
      'hitless verify: --report /nonexistent-hitless/r.html: its folder /nonexistent-hitless does not exist; nothing was sent',
    ]);
    assert.equal(seen.length, 0, 'no request was sent');
  } finally {
    server.close();
  }
});

test('a report that cannot be written at the end: the summary is printed, the failure said, the exit code kept', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-verify-'));
  const folder = join(dir, 'gone');
  mkdirSync(folder);
  const seen: string[] = [];
  // The folder disappears during the run, after the path was checked.
  const server = okServer(seen, () => rmSync(folder, { recursive: true, force: true }));
  const port = await listen(server);
  try {
    const r = await verifyFor(`http://127.0.0.1:${port}`, '--rate', '3', '--quiet', '--report', join(folder, 'r.html'));
    assert.equal(r.status, 0, `nothing was lost (stderr: ${r.stderr})`);
    assert.match(r.stdout, /^hitless verify: \d+ requests to /);
    assert.match(r.stdout, /lost 0: nothing was refused/);
    assert.match(
      r.stderr,
      /^hitless verify: the report could not be written to .*r\.html \(ENOENT\); the results above are the run's$/m,
    );
    noStack(r.stderr);
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const settings = {
  url: 'http://gw/v1/completions',
  api: 'completions' as const,
  model: 'm',
  ratePerSecond: 5,
  concurrency: 50,
  durationSeconds: 60,
  maxTokens: 200,
  timeoutSeconds: 300,
};

/** A report of `n` requests, request i (1-based) from i/1000 s to i/1000 + 0.5 s; every 10th refused (HTTP 503). */
function bigReport(n: number): VerifyReport {
  const perRequest: RequestRow[] = [];
  for (let i = 1; i <= n; i++)
    perRequest.push({
      id: i,
      start: i / 1000,
      end: i / 1000 + 0.5,
      outcome: i % 10 === 0 ? 'refused' : 'ok',
      status: i % 10 === 0 ? 503 : 200,
      ttftMs: i % 10 === 0 ? null : 50,
      detail: i % 10 === 0 ? 'HTTP 503' : null,
    });
  const refused = Math.floor(n / 10);
  return {
    tool: 'hitless verify',
    version: 1,
    startedAt: '2026-12-01T12:00:00.000Z',
    settings,
    requests: n,
    outcomes: { ok: n - refused, refused, cut: 0, aborted: 0, unreadable: 0, timeout: 0 },
    lost: refused,
    skipped: 0,
    cancelled: 0,
    ttftMs: { p50: 50, p99: 50 },
    longestOkSeconds: 0.5,
    clientMaxLagMs: 0,
    shards: 1,
    events: [{ atSeconds: 0, what: 'load starts' }],
    perRequest,
  };
}

test('a report of 200,000 requests: summary, page and JSON are made (spreading its rows overflowed the stack)', () => {
  const report = bigReport(200_000);
  // The last request ends at 200 + 0.5 s.
  assert.equal(reportEndSeconds(report), 200.5);
  const text = summaryText(report);
  assert.match(text, /^hitless verify: 200000 requests to http:\/\/gw\/v1\/completions \(m\) over 200\.5 s$/m);
  assert.match(text, /^ {2}refused: 20000 HTTP 503$/m);
  assert.match(
    reportHtml(report),
    /<h1>hitless verify: <span class="lost">20000 lost<\/span> of 200000 requests<\/h1>/,
  );
  const parsed = JSON.parse([...reportJsonPieces(report)].join(''));
  assert.equal(parsed.perRequest.length, 200_000);
  assert.deepEqual(parsed.perRequest[9], report.perRequest[9]);
  // The pieces are JSON.stringify's own text, byte for byte.
  const small = bigReport(3);
  assert.equal([...reportJsonPieces(small)].join(''), `${JSON.stringify(small, null, 2)}\n`);
  assert.equal([...reportJsonPieces(bigReport(0))].join(''), `${JSON.stringify(bigReport(0), null, 2)}\n`);
});

test('--merge names the shard and the field: an outcome not one of the six, a row count that does not add up', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-verify-'));
  try {
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(bigReport(10)));
    const weird = bigReport(3) as unknown as { perRequest: { outcome: string }[] };
    weird.perRequest[1].outcome = 'weird';
    writeFileSync(join(dir, 'weird.json'), JSON.stringify(weird));
    const short = { ...bigReport(3), requests: 4 };
    writeFileSync(join(dir, 'short.json'), JSON.stringify(short));
    const a = await run(['verify', '--merge', good, join(dir, 'weird.json')]);
    assert.equal(a.status, 2);
    assert.deepEqual(a.stderr.split('\n').filter(Boolean), [
      `hitless verify: --merge: ${join(dir, 'weird.json')} is not a hitless verify report: perRequest[1].outcome is "weird", not one of ok, refused, cut, aborted, unreadable, timeout, cancelled`,
    ]);
    assert.equal(a.stdout, '');
    const b = await run(['verify', '--merge', join(dir, 'short.json')]);
    assert.equal(b.status, 2);
    assert.match(b.stderr, /short\.json is not a hitless verify report: requests is 4, but perRequest has 3 rows\n$/);
    const ok = await run(['verify', '--merge', good, good]);
    assert.equal(ok.status, 1, 'two shards with one refused request each (id 10): lost');
    assert.match(ok.stdout, /^hitless verify: 20 requests to .* \(2 shards merged\)$/m);
    assert.match(ok.stdout, /^ {2}lost 2: 2 refused$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('property: any one row field of the wrong type is named by its path', () => {
  const fields = ['id', 'start', 'end', 'outcome', 'status', 'ttftMs', 'detail'] as const;
  fc.assert(
    fc.property(
      fc.nat(4),
      fc.constantFrom(...fields),
      fc.constantFrom<unknown>('x', -1, 1.5, true, [], {}, undefined),
      (i, field, value) => {
        const report = bigReport(5) as unknown as { perRequest: Record<string, unknown>[] };
        const before = report.perRequest[i][field];
        report.perRequest[i][field] = value;
        const problem = reportProblem(report);
        // Some values are valid for some fields: a number for start, a string for detail, a fraction for ttftMs.
        const stillValid =
          (value === 1.5 && ['start', 'end', 'ttftMs'].includes(field)) || (value === 'x' && field === 'detail');
        if (stillValid)
          assert.equal(problem, null, `${field} = ${JSON.stringify(value)} (was ${JSON.stringify(before)})`);
        else assert.match(problem ?? '', new RegExp(`^perRequest\\[${i}\\]\\.${field} is `));
      },
    ),
    { numRuns: 150 },
  );
});

test('text output names why requests were refused: nothing listening on the port', async () => {
  const probe = createServer();
  const port = await listen(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const r = await verifyFor(`http://127.0.0.1:${port}`, '--rate', '3', '--quiet');
  assert.equal(r.status, 1, 'refused requests are lost');
  assert.match(r.stdout, /^ {2}refused: \d+ connection refused \(ECONNREFUSED\)$/m);
  noStack(r.stderr);
});

test('text output names why requests were refused: a certificate the client does not trust', {
  skip: spawnSync('openssl', ['version']).status !== 0,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-verify-'));
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-days',
      '1',
      '-keyout',
      join(dir, 'k.pem'),
      '-out',
      join(dir, 'c.pem'),
    ],
    { encoding: 'utf8' },
  );
  assert.equal(made.status, 0, made.stderr);
  const server = createTlsServer(
    { key: readFileSync(join(dir, 'k.pem')), cert: readFileSync(join(dir, 'c.pem')) },
    (_req, res) => res.end(),
  );
  const port = await listen(server);
  try {
    const r = await verifyFor(`https://127.0.0.1:${port}`, '--rate', '2', '--quiet');
    assert.equal(r.status, 1);
    assert.match(r.stdout, /^ {2}refused: \d+ certificate not accepted \(DEPTH_ZERO_SELF_SIGNED_CERT\)$/m);
    noStack(r.stderr);
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the URL\u2019s query is sent with every request and kept in the report without its values', async () => {
  const seen: string[] = [];
  const server = okServer(seen);
  const port = await listen(server);
  try {
    const r = await verifyFor(
      `http://127.0.0.1:${port}/base?api-version=2024-10-21&key=s3cret`,
      '--rate',
      '2',
      '--quiet',
      '--format',
      'json',
    );
    assert.equal(r.status, 0, r.stderr);
    assert.ok(
      seen.length > 0 && seen.every((u) => u === '/base/v1/completions?api-version=2024-10-21&key=s3cret'),
      seen.join(' '),
    );
    assert.equal(JSON.parse(r.stdout).settings.url, `http://127.0.0.1:${port}/base/v1/completions?api-version=…&key=…`);
    assert.ok(!r.stdout.includes('s3cret'));
  } finally {
    server.close();
  }
});

/** One request to a server whose responses `respond` writes; its result. */
async function oneRequest(respond: (res: import('node:http').ServerResponse) => void) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => respond(res));
  });
  const port = await listen(server);
  const agent = new Agent({ keepAlive: false });
  try {
    const target = {
      url: new URL(`http://127.0.0.1:${port}/v1/completions`),
      body: '{}',
      headers: {},
      timeoutMs: 20_000,
      agent,
    };
    return await sendRequest(target, 1, performance.now()).done;
  } finally {
    agent.destroy();
    server.close();
    server.closeAllConnections();
  }
}

test('compressed bodies: gzip is decoded; one that is not gzip is cut (not aborted); a gzip bomb is stopped at 1 MiB', async () => {
  const sse = { 'content-type': 'text/event-stream' };
  const ok = await oneRequest((res) => {
    res.writeHead(200, { ...sse, 'content-encoding': 'gzip' });
    res.end(gzipSync(SSE_OK));
  });
  assert.deepEqual([ok.outcome, ok.detail], ['ok', null]);
  const broken = await oneRequest((res) => {
    res.writeHead(200, { ...sse, 'content-encoding': 'gzip' });
    res.end('data: this is not gzip\n\n');
  });
  assert.equal(broken.outcome, 'cut');
  assert.match(broken.detail ?? '', /^the gzip body could not be decoded \(Z_DATA_ERROR\)$/);
  const unknown = await oneRequest((res) => {
    res.writeHead(200, { ...sse, 'content-encoding': 'zstd' });
    res.end('x');
  });
  assert.deepEqual([unknown.outcome, unknown.detail], ['cut', 'content-encoding "zstd" cannot be decoded']);
  // 64 MiB of zeros in about 64 KiB of gzip, sent up to 512 times (32 GiB; a client that reads it all takes minutes): no line ends, so one event passes the bound.
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
  let writes = 0;
  const result = await oneRequest((res) => {
    res.writeHead(200, { ...sse, 'content-encoding': 'gzip' });
    const more = (error?: Error | null) => {
      if (error || res.destroyed || writes === 512) return void res.end();
      writes++;
      res.write(bomb, more);
    };
    more();
  });
  assert.deepEqual([result.outcome, result.detail], ['aborted', 'an event longer than 1 MiB']);
  assert.ok(writes < 512, `the client stopped reading (${writes} of 512 writes went out)`);
});

test('an internal error prints one line naming the command and exits 70; so does an error outside the command', () => {
  const script = (body: string) =>
    spawnSync(process.execPath, ['--input-type=module', '-e', body], { encoding: 'utf8', timeout: 30_000 });
  // A bug inside the command: JSON.stringify broken for this process.
  const thrown = script(`JSON.stringify = () => { throw new RangeError('broken on purpose'); };
const { main } = await import(${JSON.stringify(MAIN)});
// main itself returns 70: a rejection would be 99 here.
process.exitCode = await main(['rules', '--format', 'json']).catch(() => 99);`);
  assert.equal(thrown.status, 70);
  assert.deepEqual(thrown.stderr.split('\n').filter(Boolean), [
    'hitless rules: internal error (RangeError: broken on purpose); this is a bug in hitless, please report it with the command you ran',
  ]);
  // A stray error: thrown from a timer while verify runs.
  const stray = script(`const { main } = await import(${JSON.stringify(MAIN)});
setTimeout(() => { throw new TypeError('stray on purpose'); }, 200);
process.exitCode = await main(['verify', '--url', 'http://127.0.0.1:9', '--model', 'm', '--duration', '5', '--quiet']);`);
  assert.equal(stray.status, 70);
  assert.deepEqual(stray.stderr.split('\n').filter(Boolean), [
    'hitless verify: internal error (TypeError: stray on purpose); this is a bug in hitless, please report it with the command you ran',
  ]);
});
