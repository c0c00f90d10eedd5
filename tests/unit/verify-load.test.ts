import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, Agent, type ServerResponse } from 'node:http';
import { startLoad } from '../../src/verify/load.ts';

/** A server that starts a stream for every request and holds it open until told to end them. */
async function holdingServer() {
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[{"index":0,"text":"first"}]}\n\n');
      open.add(res);
      res.on('close', () => open.delete(res));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, open, port: (server.address() as { port: number }).port };
}

const target = (port: number, agent: Agent) => ({
  url: new URL(`http://127.0.0.1:${port}/v1/completions`),
  body: '{}',
  headers: { authorization: 'Bearer t' },
  idHeader: 'x-request-id',
  timeoutMs: 30_000,
  agent,
});

const until = async (check: () => boolean) => {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check(), 'condition reached within 10 s');
};

test('at the concurrency bound arrivals are skipped, never queued; cancelled requests are no outcome', async () => {
  const { server, open, port } = await holdingServer();
  const agent = new Agent({ keepAlive: false });
  try {
    const load = startLoad({ target: target(port, agent), ratePerSecond: 100, concurrency: 5 });
    await until(() => open.size === 5 && load.stats.skipped >= 3);
    load.stopSending();
    assert.equal(load.stats.sent, 5, 'only as many sent as the bound allows');
    assert.equal(load.stats.inFlight, 5);
    load.cancelInFlight();
    const results = await load.finished;
    assert.equal(results.length, 5);
    assert.ok(results.every((r) => r.cancelled));
    assert.deepEqual(load.stats.counts, { ok: 0, refused: 0, cut: 0, aborted: 0, unreadable: 0, timeout: 0 });
    assert.equal(load.stats.cancelled, 5);
    assert.equal(load.stats.ttftMs.length, 0, 'cancelled requests leave no TTFT behind');
  } finally {
    agent.destroy();
    server.close();
  }
});

test('a stream the server ends without a finish is cut; ended properly it is ok; each request carries its number', async () => {
  const ids: string[] = [];
  const seen: string[] = [];
  const server = createServer((req, res) => {
    ids.push(String(req.headers['x-request-id']));
    seen.push(String(req.headers.authorization));
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"choices":[{"index":0,"text":"a"}]}\n\n');
      // Odd request numbers end properly, even ones lose their connection mid-stream.
      if (Number(req.headers['x-request-id']) % 2 === 1) res.end('data: [DONE]\n\n');
      else setTimeout(() => res.socket?.destroy(), 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const agent = new Agent({ keepAlive: false });
  try {
    const load = startLoad({
      target: target((server.address() as { port: number }).port, agent),
      ratePerSecond: 50,
      concurrency: 10,
    });
    await until(() => load.stats.sent >= 4);
    load.stopSending();
    const results = await load.finished;
    for (const r of results) {
      assert.equal(r.outcome, r.id % 2 === 1 ? 'ok' : 'cut', `request ${r.id}`);
      assert.ok(r.ttftMs !== null && r.ttftMs >= 0);
    }
    assert.deepEqual(
      ids.map(Number).sort((a, b) => a - b),
      results.map((r) => r.id),
    );
    assert.ok(seen.every((h) => h === 'Bearer t'));
  } finally {
    agent.destroy();
    server.close();
  }
});

test('no server at all: every request is refused', async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const agent = new Agent({ keepAlive: false });
  try {
    const load = startLoad({ target: target(port, agent), ratePerSecond: 50, concurrency: 10 });
    await until(() => load.stats.counts.refused >= 3);
    load.stopSending();
    const results = await load.finished;
    assert.ok(results.every((r) => r.outcome === 'refused' && r.status === null && r.detail === 'ECONNREFUSED'));
  } finally {
    agent.destroy();
  }
});
