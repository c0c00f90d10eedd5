// The lab's scenarios on nginx: what changes from HAProxy (no active health checks; the draining timeout becomes
// worker_shutdown_timeout), the predictions that follow, and which scenarios run on both proxies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { standInGatewayLabel } from '../../src/lab/labels.ts';
import { checkSet, LabInputError, prepare, publishSet } from '../../src/lab/prepare.ts';
import { readProfiles } from '../../src/facts/read-files.ts';

const profiles = readProfiles();
// Removal pinned at 30 s: preStop 35, drain 45, grace 95 (the lab's 30 s longest request).
const gke = { gateway: 'gke', inputs: { 'removal-seconds': '30' } };

test('no preStop behind nginx: without health checks the pod is refused until the endpoint update, 30 s', () => {
  const haproxy = prepare('no-prestop', profiles, gke);
  const nginx = prepare('no-prestop', profiles, { ...gke, proxy: 'nginx' });
  assert.equal(nginx.id, 'no-prestop@gke/vllm/nginx');
  assert.equal(nginx.setup.proxy, 'nginx');
  assert.equal(nginx.setup.checks, null);
  // HAProxy's checks (5 s interval, fall 2, 5 s timeout) notice the closed port 5 to 15 s after SIGTERM at 0.
  assert.deepEqual(haproxy.prediction.routeStop, { min: 5, max: 15 });
  // nginx: only the push at 30 s. 6 requests a second over 3 pods = 2 a second to pod1, for 30 s: 60 refused.
  assert.deepEqual(nginx.prediction.routeStop, { min: 30, max: 30 });
  assert.deepEqual(nginx.prediction.refused, { min: 60, max: 60 });
  assert.equal(nginx.prediction.expect, 'loss');
});

test('the plan behind nginx loses nothing, and its draining timeout is worker_shutdown_timeout', () => {
  const nginx = prepare('recommended', profiles, { ...gke, proxy: 'nginx' });
  assert.equal(nginx.prediction.expect, 'none');
  assert.equal(nginx.setup.gatewayDrainingSeconds, 80);
  assert.ok(nginx.setup.changes.some((c) => c.includes('80 s draining timeout is nginx')));
  // Istio follows the picker: no checks to drop, so nothing changes but the proxy.
  const istio = prepare('recommended', profiles, { gateway: 'istio', proxy: 'nginx' });
  assert.deepEqual(istio.setup.changes, []);
});

test('a health-check-only gateway cannot run on nginx, which has no active health checks', () => {
  assert.throws(() => prepare('recommended', profiles, { gateway: 'custom', proxy: 'nginx' }), LabInputError);
  assert.throws(() => prepare('hc-no-prestop', profiles, { proxy: 'nginx' }), /no active health checks/);
});

test('publish runs each scenario on HAProxy, then on nginx right after it, but for health-check-only gateways', () => {
  const ids = publishSet(profiles).map((p) => p.id);
  assert.deepEqual(ids.slice(0, 4), [
    'recommended@gke/vllm',
    'recommended@gke/vllm/nginx',
    'recommended@istio/vllm',
    'recommended@istio/vllm/nginx',
  ]);
  assert.ok(ids.includes('recommended@custom/vllm'));
  assert.ok(!ids.some((id) => id.includes('custom') && id.endsWith('/nginx')));
  const haproxyIds = ids.filter((id) => !id.endsWith('/nginx'));
  const nginxIds = ids.filter((id) => id.endsWith('/nginx'));
  assert.equal(nginxIds.length, haproxyIds.filter((id) => !id.includes('@custom/')).length);
  assert.ok(checkSet(profiles).some((p) => p.id === 'no-prestop@gke/vllm/nginx'));
});

test('labels name nginx, and no health checks for it', () => {
  assert.equal(standInGatewayLabel('epp-only', 'Istio', 'nginx'), "nginx with Istio's removal delay");
  assert.equal(standInGatewayLabel('endpoint-view', 'GKE Gateway', 'nginx'), "nginx with GKE Gateway's removal delay");
});

test('the CLI names --proxy in its usage errors, before it starts anything', () => {
  const lab = (...args: string[]) =>
    spawnSync(process.execPath, ['src/cli/main.ts', 'lab', ...args], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      encoding: 'utf8',
      timeout: 30_000,
    });
  const wrong = lab('--proxy', 'envoy');
  assert.equal(wrong.status, 2);
  assert.match(wrong.stderr, /--proxy must be one of haproxy, nginx \(got "envoy"\)/);
  const hc = lab('--scenario', 'hc-no-prestop', '--proxy', 'nginx');
  assert.equal(hc.status, 2);
  assert.match(hc.stderr, /--proxy nginx cannot stand in for custom, which only health-checks/);
  const fixed = lab('--publish', '--proxy', 'nginx');
  assert.equal(fixed.status, 2);
  assert.match(fixed.stderr, /--publish runs a fixed set/);
});
