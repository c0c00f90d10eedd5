/**
 * `hitless verify --restart` against a stand-in kubectl on PATH (a script that logs its arguments and
 * plays a one-pod rollout) and a local streaming endpoint: only the expected commands run, always with
 * the namespace and context given, and the pods' changes land in the JSON report as events.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { podChanges, readPods, deploymentSelector } from '../../src/verify/pods.ts';

const MAIN = new URL('../../src/cli/main.ts', import.meta.url).pathname;

/** The stand-in: logs argv as a JSON line; pod listings advance one step per call after the restart. */
const STAND_IN = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const dir = process.env.STANDIN_DIR;
const args = process.argv.slice(2);
fs.appendFileSync(path.join(dir, 'calls.log'), JSON.stringify(args) + '\\n');
const rest = args.filter((a) => !a.startsWith('--context=') && !a.startsWith('--namespace='));
const restarted = path.join(dir, 'restarted');
const steps = path.join(dir, 'steps');
const pod = (name, ready, extra = {}) => ({ metadata: { name, ...extra.meta }, status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }], containerStatuses: extra.containers ?? [{ name: 'model', state: { running: {} } }] } });
if (rest[0] === 'get' && rest[1] === 'deployment/web') {
  process.stdout.write(JSON.stringify({ kind: 'Deployment', spec: { selector: { matchLabels: { app: 'web', tier: 'model' } } } }));
} else if (rest[0] === 'get' && rest[1] === 'pods') {
  let step = -1;
  if (fs.existsSync(restarted)) { step = fs.existsSync(steps) ? Number(fs.readFileSync(steps, 'utf8')) : 0; fs.writeFileSync(steps, String(step + 1)); }
  const deleting = { meta: { deletionTimestamp: '2026-12-01T12:00:30Z', deletionGracePeriodSeconds: 30 } };
  const items = step < 0 ? [pod('web-a', true)]
    : step === 0 ? [pod('web-a', true), pod('web-b', false)]
    : step === 1 ? [pod('web-a', false, deleting), pod('web-b', true)]
    : step === 2 ? [pod('web-a', false, { ...deleting, containers: [{ name: 'model', state: { terminated: { reason: 'Completed', exitCode: 0 } } }] }), pod('web-b', true)]
    : [pod('web-b', true)];
  process.stdout.write(JSON.stringify({ kind: 'List', items }));
} else if (rest[0] === 'rollout' && rest[1] === 'restart') {
  fs.writeFileSync(restarted, '');
  process.stdout.write('deployment.apps/web restarted\\n');
} else if (rest[0] === 'rollout' && rest[1] === 'status') {
  const until = Date.now() + 20000;
  const wait = () => {
    const step = fs.existsSync(steps) ? Number(fs.readFileSync(steps, 'utf8')) : 0;
    if (step >= 4 || Date.now() > until) { process.stdout.write('deployment "web" successfully rolled out\\n'); return; }
    setTimeout(wait, 50);
  };
  wait();
} else {
  process.stderr.write('stand-in kubectl: unexpected command ' + JSON.stringify(args) + '\\n');
  process.exit(3);
}
`;

let server: Server;
let port = 0;
let binDir = '';

before(async () => {
  binDir = mkdtempSync(join(tmpdir(), 'verify-kubectl-'));
  writeFileSync(join(binDir, 'kubectl'), STAND_IN);
  chmodSync(join(binDir, 'kubectl'), 0o755);
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let n = 0;
      const timer = setInterval(() => {
        if (++n < 5) return void res.write('data: {"choices":[{"index":0,"text":"x"}]}\n\n');
        clearInterval(timer);
        res.end('data: {"choices":[{"index":0,"text":"","finish_reason":"length"}]}\n\ndata: [DONE]\n\n');
      }, 20);
      res.on('close', () => clearInterval(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  port = (server.address() as { port: number }).port;
});

after(() => {
  server.close();
  rmSync(binDir, { recursive: true, force: true });
});

/** Run the CLI with the stand-in first on PATH; one Ctrl-C is sent as soon as `sigintWhen` holds (polled). */
function runCli(
  args: string[],
  stateDir: string,
  sigintWhen?: () => boolean,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, 'verify', ...args], {
      env: { ...process.env, PATH: `${binDir}:${process.env.PATH}`, STANDIN_DIR: stateDir, HITLESS_KUBECTL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const poll =
      sigintWhen
      && setInterval(() => {
        if (!sigintWhen()) return;
        clearInterval(poll);
        child.kill('SIGINT');
      }, 50);
    child.on('close', (code) => {
      clearTimeout(kill);
      if (poll) clearInterval(poll);
      resolve({ code, stdout, stderr });
    });
  });
}

const calls = (dir: string): string[][] =>
  existsSync(join(dir, 'calls.log'))
    ? readFileSync(join(dir, 'calls.log'), 'utf8')
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as string[])
    : [];

test('--restart runs only the expected kubectl commands, scoped, and reports the pods as events', async () => {
  const state = mkdtempSync(join(tmpdir(), 'verify-state-'));
  try {
    const r = await runCli(
      [
        '--url',
        `http://127.0.0.1:${port}`,
        '--model',
        'm',
        '--rate',
        '10',
        '--restart',
        'deployment/web',
        '-n',
        'shop',
        '--context',
        'ctx-1',
        '--warmup',
        '1',
        '--format',
        'json',
        '--quiet',
      ],
      state,
    );
    assert.equal(r.code, 0, r.stderr);
    // The plan is said before anything is restarted.
    assert.match(r.stderr, /will restart one Deployment and change nothing else/);
    assert.match(r.stderr, /run: kubectl --context=ctx-1 --namespace=shop rollout restart deployment\/web/);
    const log = calls(state);
    for (const c of log)
      assert.deepEqual(c.slice(0, 2), ['--context=ctx-1', '--namespace=shop'], `scoped: ${c.join(' ')}`);
    const verbs = log.map((c) => c.slice(2).join(' '));
    const allowed = new Set([
      'get deployment/web -o json',
      'get pods -l app=web,tier=model -o json',
      'rollout restart deployment/web',
      'rollout status deployment/web --timeout=900s',
    ]);
    for (const v of verbs) assert.ok(allowed.has(v), `unexpected kubectl command: ${v}`);
    assert.equal(verbs.filter((v) => v === 'rollout restart deployment/web').length, 1);
    assert.equal(verbs.filter((v) => v === 'get deployment/web -o json').length, 1);
    assert.equal(verbs[0], 'get deployment/web -o json', 'the Deployment is read before anything else');
    const report = JSON.parse(r.stdout);
    const whats: string[] = report.events.map((e: { what: string }) => e.what);
    for (const expected of [
      '1 pod(s) before the restart: web-a',
      'kubectl --context=ctx-1 --namespace=shop rollout restart deployment/web',
      'pod web-b created',
      'pod web-a not ready',
      'pod web-a deletion started (grace 30 s)',
      'pod web-b ready',
      'pod web-a container model terminated: Completed, exit code 0',
      'pod web-a gone',
      'rollout complete',
    ])
      assert.ok(whats.includes(expected), `event "${expected}" in ${JSON.stringify(whats)}`);
    assert.ok(whats.indexOf('pod web-a gone') > whats.indexOf('pod web-a deletion started (grace 30 s)'));
    assert.equal(report.lost, 0);
    assert.ok(report.requests > 10);
    assert.equal(report.outcomes.ok, report.requests);
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
});

test('--restart refuses without deployment/NAME or without -n, before running kubectl', async () => {
  const state = mkdtempSync(join(tmpdir(), 'verify-state-'));
  try {
    const base = ['--url', `http://127.0.0.1:${port}`, '--model', 'm'];
    const bare = await runCli([...base, '--restart', 'web', '-n', 'shop'], state);
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /--restart must name one Deployment as deployment\/NAME/);
    const noNamespace = await runCli([...base, '--restart', 'deployment/web'], state);
    assert.equal(noNamespace.code, 2);
    assert.match(noNamespace.stderr, /--restart needs -n NAMESPACE/);
    const missing = await runCli([...base, '--restart', 'deployment/nope', '-n', 'shop'], state);
    assert.equal(missing.code, 2, 'a Deployment kubectl cannot read is a usage error');
    assert.match(missing.stderr, /--restart: kubectl --namespace=shop get deployment\/nope -o json failed/);
    assert.deepEqual(calls(state), [['--namespace=shop', 'get', 'deployment/nope', '-o', 'json']]);
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
});

test('Ctrl-C during the warm-up stops before the restart: the Deployment is not touched', async () => {
  const state = mkdtempSync(join(tmpdir(), 'verify-state-'));
  try {
    const r = await runCli(
      [
        '--url',
        `http://127.0.0.1:${port}`,
        '--model',
        'm',
        '--rate',
        '5',
        '--restart',
        'deployment/web',
        '-n',
        'shop',
        '--warmup',
        '30',
        '--format',
        'json',
        '--quiet',
      ],
      state,
      // Once the pods are being watched, the load is running and Ctrl-C is verify's to handle.
      () => calls(state).some((c) => c.includes('pods')),
    );
    assert.equal(r.code, 1, 'a run without its rollout is not a pass');
    const verbs = calls(state).map((c) => c.slice(1).join(' '));
    assert.ok(!verbs.some((v) => v.startsWith('rollout')), `no rollout command: ${JSON.stringify(verbs)}`);
    const report = JSON.parse(r.stdout);
    assert.ok(
      report.events.some(
        (e: { what: string }) => e.what === 'interrupted before the restart: the Deployment was not touched',
      ),
    );
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
});

test('pod listings become events: created, ready, deletion, termination, gone', () => {
  const before = readPods({
    items: [
      { metadata: { name: 'a' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      { metadata: { name: 'b' }, status: { conditions: [{ type: 'Ready', status: 'False' }] } },
    ],
  });
  const after = readPods({
    items: [
      { metadata: { name: 'b' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } },
      {
        metadata: { name: 'c', deletionTimestamp: 'x', deletionGracePeriodSeconds: 5 },
        status: { containerStatuses: [{ name: 'srv', state: { terminated: { reason: 'Error', exitCode: 137 } } }] },
      },
    ],
  });
  assert.deepEqual(podChanges(before, after), [
    'pod b ready',
    'pod c created',
    'pod c deletion started (grace 5 s)',
    'pod c container srv terminated: Error, exit code 137',
    'pod a gone',
  ]);
  assert.deepEqual(podChanges(after, after), []);
  assert.equal(
    deploymentSelector({
      spec: {
        selector: {
          matchLabels: { b: '2', a: '1' },
          matchExpressions: [
            { key: 'tier', operator: 'In', values: ['x', 'y'] },
            { key: 'canary', operator: 'DoesNotExist' },
          ],
        },
      },
    }),
    'a=1,b=2,tier in (x,y),!canary',
  );
  assert.throws(() => deploymentSelector({ spec: {} }), /no pod selector/);
});
