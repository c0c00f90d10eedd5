/**
 * `hitless verify` as a process: Ctrl-C stops sending, a second Ctrl-C stops the streams in flight, and the
 * report is still printed and written; headers reach the server and appear in no output.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;
const SECRET = 'Bearer do-not-print-7f3a';

test('two Ctrl-Cs: sending stops, then the held streams are cancelled; the report is still written and has no header', async () => {
  const open = new Set<ServerResponse>();
  const auth: string[] = [];
  const server = createServer((req, res) => {
    auth.push(String(req.headers.authorization));
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[{"index":0,"text":"held"}]}\n\n');
      open.add(res);
      res.on('close', () => open.delete(res));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const dir = mkdtempSync(join(tmpdir(), 'verify-cli-'));
  try {
    const child = spawn(
      process.execPath,
      [
        MAIN,
        'verify',
        '--url',
        `http://127.0.0.1:${(server.address() as { port: number }).port}`,
        '--model',
        'm',
        '--rate',
        '20',
        '--duration',
        '120',
        '--header',
        `Authorization: ${SECRET}`,
        '--format',
        'json',
        '--report',
        join(dir, 'r.html'),
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    for (let i = 0; i < 1000 && open.size < 3; i++) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGINT');
    for (let i = 0; i < 1000 && !stderr.includes('stopped sending'); i++) await new Promise((r) => setTimeout(r, 10));
    const heldAfterFirst = open.size;
    assert.ok(heldAfterFirst >= 3, 'the first Ctrl-C leaves the streams running');
    child.kill('SIGINT');
    const code = await closed;
    clearTimeout(kill);
    assert.equal(code, 0, `nothing the server did was lost (stderr: ${stderr})`);
    const report = JSON.parse(stdout);
    assert.ok(report.cancelled >= heldAfterFirst, `cancelled ${report.cancelled}`);
    assert.equal(report.lost, 0);
    assert.equal(report.requests, report.cancelled + report.outcomes.ok);
    const whats = report.events.map((e: { what: string }) => e.what);
    assert.ok(whats.includes('Ctrl-C: sending stopped'));
    assert.ok(whats.includes('second Ctrl-C: requests in flight stopped'));
    assert.ok(auth.length > 0 && auth.every((a) => a === SECRET), 'the header reached the server');
    const html = readFileSync(join(dir, 'r.html'), 'utf8');
    for (const text of [stdout, stderr, html])
      assert.ok(!text.includes('do-not-print'), 'the header value is in no output');
  } finally {
    server.closeAllConnections();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
