import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NGINX, nginxVersion } from '../../src/lab/nginx.ts';
import { nginxConfig, nginxPath } from '../../src/lab/nginx-config.ts';

const endpoints = [
  { name: 'pod1', port: 9001 },
  { name: 'pod3', port: 9003 },
];
const base = { dir: '/tmp/lab', frontendPort: 8080, endpoints, shutdownTimeoutSeconds: null };
const lines = (text: string) => text.split('\n').map((l) => l.trim());

test('one upstream of the ready endpoints, proxied over HTTP/1.1 as NGF writes it, on loopback', () => {
  const l = lines(nginxConfig(base));
  const upstream = l.slice(l.indexOf('upstream pool {'), l.indexOf('}', l.indexOf('upstream pool {')) + 1);
  assert.deepEqual(
    upstream.filter((x) => !x.startsWith('#')),
    [
      'upstream pool {',
      'zone pool 512k;',
      'server 127.0.0.1:9001 max_fails=0;  # pod1',
      'server 127.0.0.1:9003 max_fails=0;  # pod3',
      '}',
    ],
  );
  for (const line of [
    'listen 127.0.0.1:8080;',
    'proxy_http_version 1.1;',
    'proxy_pass http://pool;',
    'proxy_next_upstream off;',
    'proxy_buffering off;',
  ])
    assert.ok(l.includes(line), line);
  // No listener anywhere but 127.0.0.1.
  assert.deepEqual(
    l.filter((x) => x.startsWith('listen')),
    ['listen 127.0.0.1:8080;'],
  );
});

test('every path the config names is inside the run dir, quoted', () => {
  const l = lines(nginxConfig(base));
  assert.ok(l.includes('pid "/tmp/lab/nginx.pid";'));
  assert.ok(l.includes('access_log "/tmp/lab/access.log" lab;'));
  assert.ok(l.includes('proxy_temp_path "/tmp/lab/proxy";'));
  assert.ok(l.includes('client_body_temp_path "/tmp/lab/client_body";'));
  assert.ok(l.includes('error_log stderr notice;'));
});

test('a gateway draining timeout becomes worker_shutdown_timeout in wall ms: 80 model s = 8000 ms', () => {
  assert.ok(!nginxConfig(base).includes('worker_shutdown_timeout'));
  assert.ok(lines(nginxConfig({ ...base, shutdownTimeoutSeconds: 80 })).includes('worker_shutdown_timeout 8000ms;'));
});

test('paths are escaped, or refused where escaping cannot make them safe', () => {
  assert.equal(nginxPath('/tmp/a b'), '"/tmp/a b"');
  assert.equal(nginxPath('/tmp/a"b'), '"/tmp/a\\"b"');
  assert.equal(nginxPath('/tmp/a\\b'), '"/tmp/a\\\\b"');
  assert.equal(nginxPath('/tmp/a;b{}'), '"/tmp/a;b{}"');
  assert.throws(() => nginxPath('/tmp/$host'), /cannot write/);
  assert.throws(() => nginxPath('/tmp/a\nb'), /cannot write/);
  assert.ok(lines(nginxConfig({ ...base, dir: '/tmp/my lab' })).includes('pid "/tmp/my lab/nginx.pid";'));
  // A pod name cannot end the comment it is written in.
  const odd = nginxConfig({ ...base, endpoints: [{ name: 'pod1;\n}', port: 9001 }] });
  assert.ok(lines(odd).includes('server 127.0.0.1:9001 max_fails=0;  # pod1'));
});

test('an upstream with no endpoint is refused', () => {
  assert.throws(() => nginxConfig({ ...base, endpoints: [] }), /at least one endpoint/);
});

test('nginx itself accepts the config (nginx -t)', { skip: nginxVersion() ? false : 'nginx is not installed' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'hitless-nginx-config-'));
  try {
    const file = join(dir, 'nginx.conf');
    writeFileSync(file, nginxConfig({ ...base, dir, shutdownTimeoutSeconds: 80 }));
    const out = spawnSync(NGINX, ['-t', '-e', 'stderr', '-p', dir, '-c', file], { encoding: 'utf8', timeout: 10_000 });
    assert.equal(out.status, 0, out.stderr);
    assert.match(out.stderr, /test is successful/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
