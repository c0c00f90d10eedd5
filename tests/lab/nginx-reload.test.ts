/**
 * What nginx does at a reload, which is how the lab (and NGINX Gateway Fabric) removes an endpoint: a request already
 * streaming from the removed pod goes on to its end on the old worker, and the next request goes to the new upstream;
 * with worker_shutdown_timeout, the old worker closes what it still holds once that passes. Real nginx and real
 * stand-ins on 127.0.0.1 (needs nginx, as `npm run test:lab` does). Each request streams for 5 s of wall time, against
 * a reload that takes milliseconds, so a loaded machine keeps the order of events.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import { DONE_EVENT } from '../../src/lab/classify.ts';
import { nginxVersion, startNginx } from '../../src/lab/nginx.ts';
import { startPod, waitHealthy } from '../../src/lab/pods.ts';
import { prepare } from '../../src/lab/prepare.ts';
import { LabResources } from '../../src/lab/processes.ts';
import { readProfiles } from '../../src/facts/read-files.ts';

/** 500 tokens at 100 ms a token: 50 model seconds, 5 s of wall time. */
const TOKENS = 500;

interface Answer {
  status: number;
  pod: string | null;
  body: string;
  complete: boolean;
}

/** One streamed completion; `onFirstChunk` runs when its first bytes arrive. Bounded by 20 s. */
let nextId = 1;
function complete(port: number, onFirstChunk: () => void = () => {}): Promise<Answer> {
  const headers = { 'x-lab-id': String(nextId++) };
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify({ model: 'lab', prompt: 'reload', max_tokens: TOKENS, stream: true });
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/v1/completions', headers, agent: false, timeout: 20_000 },
      (res) => {
        let body = '';
        let first = true;
        res.setEncoding('utf8');
        res.on('data', (part: string) => {
          body += part;
          if (first) onFirstChunk();
          first = false;
        });
        res.on('error', () => {});
        res.on('close', () =>
          resolve({
            status: res.statusCode ?? 0,
            pod: (res.headers['x-pod'] as string) ?? null,
            body,
            complete: res.complete,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 20 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Two stand-ins (vLLM's plan), nginx with only pod1 in its upstream; `body` gets them and nginx. */
async function withStack(
  gatewayDrainingSeconds: number | null,
  body: (s: { port: number; pod2Port: number; nginx: Awaited<ReturnType<typeof startNginx>> }) => Promise<void>,
): Promise<void> {
  const { setup } = prepare('recommended', readProfiles(), { gateway: 'istio' });
  const resources = new LabResources();
  const dir = resources.tempDir();
  try {
    const pods = await Promise.all(
      ['pod1', 'pod2'].map((name) =>
        startPod(resources, {
          name,
          shutdown: setup.shutdown,
          healthPaths: setup.healthPaths,
          drainFile: join(dir, `${name}.draining`),
          startupSeconds: 0,
          lagNoiseMs: 100,
        }),
      ),
    );
    for (const pod of pods) assert.ok(await waitHealthy(pod.port, setup.healthPaths[0], 10_000), `${pod.name} healthy`);
    const nginx = await startNginx(resources, dir, { pods: [pods[0]], checks: null, gatewayDrainingSeconds });
    await body({ port: nginx.port, pod2Port: pods[1].port, nginx });
  } finally {
    resources.releaseAll();
  }
}

const skip = nginxVersion() ? false : 'nginx is not installed';

test('a reload that removes the pod: the old worker finishes the stream it holds, new requests go to the new upstream', {
  skip,
  timeout: 60_000,
}, async () => {
  await withStack(null, async ({ port, pod2Port, nginx }) => {
    let reloaded!: Promise<void>;
    const first = await complete(port, () => {
      // pod2 in, pod1 out: two reloads while the first request streams from pod1.
      reloaded = nginx.admit('pod2', pod2Port).then(() => nginx.remove('pod1', 'maint'));
    });
    await reloaded;
    assert.equal(nginx.reloads, 2, 'two reloads, each seen by a worker of the new generation');
    const next = await complete(port);
    assert.equal(first.pod, 'pod1');
    assert.equal(first.status, 200);
    assert.ok(first.complete && first.body.endsWith(DONE_EVENT), 'the held stream ran to its end after the reload');
    assert.equal(next.pod, 'pod2', 'the request after the reload went to the new upstream');
    assert.ok(next.body.endsWith(DONE_EVENT));
    // The access log names the pod of each request by its address (nginx writes the line just after the response).
    const logged = () => [...nginx.requestLog().values()].map((r) => r.server);
    for (let i = 0; i < 100 && logged().length < 2; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(logged().sort(), ['pod1', 'pod2']);
  });
});

test('worker_shutdown_timeout bounds it: the old worker closes the stream it still holds', {
  skip,
  timeout: 60_000,
}, async () => {
  // 5 model seconds = 500 ms after the reload, well before the 5 s stream ends.
  await withStack(5, async ({ port, pod2Port, nginx }) => {
    let reloaded!: Promise<void>;
    const started = performance.now();
    const held = await complete(port, () => {
      reloaded = nginx.admit('pod2', pod2Port).then(() => nginx.remove('pod1', 'maint'));
    });
    await reloaded;
    assert.equal(held.pod, 'pod1');
    assert.equal(held.complete && held.body.endsWith(DONE_EVENT), false, 'the stream was cut, not finished');
    assert.ok(performance.now() - started < 4500, 'cut before the stream would have ended');
  });
});
