/**
 * `hitless verify` against local hostile servers on 127.0.0.1 (issue 34 item 8): a slowloris that trickles its
 * headers, 1 MB of response headers, a connection reset mid-stream, a redirect loop; and credentials in --url,
 * refused before the run and never printed. Each server is closed by its test; each request is bounded by verify's
 * own per-request timeout, so nothing here waits on the wall clock beyond it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Agent } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import fc from 'fast-check';
import { UsageError } from '../../src/cli/args.ts';
import { parseVerifyOptions } from '../../src/cli/verify-options.ts';
import { refusalSummary } from '../../src/verify/refusal.ts';
import { sendRequest } from '../../src/verify/request.ts';

const MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;

/** A raw TCP server: `onConnection` writes what it likes; every socket is destroyed when the server closes. */
async function rawServer(
  onConnection: (socket: Socket) => void,
): Promise<{ port: number; hits: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let hits = 0;
  const server: Server = createServer((socket) => {
    hits++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    // Wait for the request's head before answering, as a server would.
    socket.once('data', () => onConnection(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as { port: number }).port,
    hits: () => hits,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One request to the server, as verify sends it, with a per-request timeout of `timeoutMs`. */
async function oneRequest(port: number, timeoutMs = 20_000) {
  const agent = new Agent({ keepAlive: false });
  try {
    const target = {
      url: new URL(`http://127.0.0.1:${port}/v1/completions`),
      body: '{}',
      headers: {},
      timeoutMs,
      agent,
    };
    return await sendRequest(target, 1, performance.now()).done;
  } finally {
    agent.destroy();
  }
}

test('slowloris: headers trickled a byte at a time never finish; the per-request timeout ends it as a timeout', async () => {
  const timers = new Set<NodeJS.Timeout>();
  const server = await rawServer((socket) => {
    const head = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nx-slow: ';
    let i = 0;
    const drip = setInterval(() => {
      if (socket.destroyed) return clearInterval(drip);
      socket.write(i < head.length ? head[i] : 'a');
      i++;
    }, 50);
    timers.add(drip);
  });
  try {
    // 1.5 s: the server would trickle for ever; what matters is that the request ends, and how it is classified.
    const result = await oneRequest(server.port, 1500);
    assert.equal(result.outcome, 'timeout');
    assert.equal(result.detail, 'no end after 1.5 s');
    assert.equal(result.status, null, 'the headers never completed');
  } finally {
    for (const t of timers) clearInterval(t);
    await server.close();
  }
});

test('1 MB of response headers: refused with the parser\u2019s reason, in words in the summary', async () => {
  const server = await rawServer((socket) => {
    socket.write(`HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nx-big: ${'a'.repeat(1024 * 1024)}\r\n\r\n`);
    socket.end();
  });
  try {
    const result = await oneRequest(server.port);
    assert.equal(result.outcome, 'refused');
    assert.equal(result.detail, 'HPE_HEADER_OVERFLOW');
    assert.equal(refusalSummary([result]), '1 response headers too large to read (HPE_HEADER_OVERFLOW)');
  } finally {
    await server.close();
  }
});

test('a connection reset mid-stream: the request is cut, not ok', async () => {
  const event = 'data: {"choices":[{"index":0,"text":"a"}]}\n\n';
  const server = await rawServer((socket) => {
    socket.write(
      'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n'
        + `${event.length.toString(16)}\r\n${event}\r\n`,
    );
    // A TCP reset after the first event: the stream never ends.
    setTimeout(() => socket.resetAndDestroy(), 50);
  });
  try {
    const result = await oneRequest(server.port);
    assert.equal(result.outcome, 'cut');
    assert.ok(result.detail === 'the stream broke off' || result.detail === 'ECONNRESET', String(result.detail));
  } finally {
    await server.close();
  }
});

test('a redirect loop: one request, not followed, refused as a redirect', async () => {
  const server = await rawServer((socket) => {
    socket.end('HTTP/1.1 302 Found\r\nlocation: /v1/completions\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  });
  try {
    const result = await oneRequest(server.port);
    assert.equal(result.outcome, 'refused');
    assert.equal(result.detail, 'HTTP 302');
    assert.equal(server.hits(), 1, 'the redirect was not followed');
    assert.equal(
      refusalSummary([result, { ...result, detail: 'HTTP 307' }, { ...result, detail: 'HTTP 503' }]),
      '1 HTTP 302: a redirect, not followed (give --url the endpoint itself), '
        + '1 HTTP 307: a redirect, not followed (give --url the endpoint itself), 1 HTTP 503',
    );
  } finally {
    await server.close();
  }
});

test('the CLI against a redirect loop: exit 1, the reason in the summary, no stack trace', async () => {
  const server = await rawServer((socket) => {
    socket.end('HTTP/1.1 302 Found\r\nlocation: /v1/completions\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  });
  try {
    const args = [
      'verify',
      '--url',
      `http://127.0.0.1:${server.port}`,
      '--model',
      'm',
      '--duration',
      '1',
      '--rate',
      '2',
      '--quiet',
    ];
    const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    assert.equal(status, 1, stderr);
    assert.match(stdout, /^ {2}refused: \d+ HTTP 302: a redirect, not followed \(give --url the endpoint itself\)$/m);
    assert.doesNotMatch(stderr, /\n\s+at |Error:/);
  } finally {
    await server.close();
  }
});

test('property: credentials in --url are refused before the run and never printed (300 URLs)', () => {
  const part = fc.string({
    unit: fc.constantFrom('a', 'Z', '9', '-', '.', '_', '~', '%41', '!', '$'),
    minLength: 1,
    maxLength: 12,
  });
  fc.assert(
    fc.property(
      part,
      fc.option(part, { nil: undefined }),
      fc.constantFrom('http', 'https'),
      (user, password, scheme) => {
        const secret = `S3cret${password ?? user}`;
        const userinfo = password === undefined ? `${secret}@` : `${user}:${secret}@`;
        let message = '';
        try {
          parseVerifyOptions(['--url', `${scheme}://${userinfo}127.0.0.1:9`, '--model', 'm'], {});
        } catch (error) {
          assert.ok(error instanceof UsageError, String(error));
          message = error.message;
        }
        assert.equal(message, '--url must not carry a user or password; pass credentials with --header');
        assert.ok(!message.includes(secret));
      },
    ),
    { numRuns: 300 },
  );
});
