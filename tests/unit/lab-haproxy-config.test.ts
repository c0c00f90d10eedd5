import { test } from 'node:test';
import assert from 'node:assert/strict';
import { haproxyConfig } from '../../src/lab/haproxy-config.ts';

const servers = [
  { name: 'pod1', port: 9001 },
  { name: 'pod2', port: 9002 },
  { name: 'pod4', port: 1, disabled: true },
];
const checks = { path: '/v1/models', intervalSeconds: 5, fall: 2, rise: 2, timeoutSeconds: 5 };
const lines = (text: string) => text.split('\n').map((l) => l.trim());

test('the config writes every drop-relevant knob, drops visible by default', () => {
  const text = haproxyConfig({ frontendPort: 8080, adminSocket: '/tmp/lab/admin.sock', servers, checks });
  const l = lines(text);
  assert.ok(l.includes('option http-no-delay'));
  assert.ok(l.includes('retries 0'));
  assert.ok(l.includes('no option redispatch'));
  assert.ok(l.includes('http-reuse never'));
  assert.ok(l.includes('stats socket /tmp/lab/admin.sock mode 600 level admin'));
  assert.ok(l.includes('bind 127.0.0.1:8080'));
  assert.ok(l.includes('balance roundrobin'));
});

test('health checks are scaled to wall ms: 5 model s = 500 ms', () => {
  const l = lines(haproxyConfig({ frontendPort: 8080, adminSocket: '/tmp/a.sock', servers, checks }));
  assert.ok(l.includes('option httpchk GET /v1/models'));
  assert.ok(l.includes('default-server inter 500 fastinter 500 downinter 500 fall 2 rise 2'));
  assert.ok(l.includes('timeout check 500ms'));
  assert.ok(l.includes('server pod1 127.0.0.1:9001 check'));
  assert.ok(l.includes('server pod4 127.0.0.1:1 check disabled'));
});

test('without checks, servers have no check and there is no httpchk', () => {
  const text = haproxyConfig({ frontendPort: 8080, adminSocket: '/tmp/a.sock', servers, checks: null });
  assert.ok(!text.includes('httpchk'));
  assert.ok(!text.includes('timeout check'));
  assert.ok(lines(text).includes('server pod1 127.0.0.1:9001'));
});

test('retries and redispatch are explicit knobs', () => {
  const l = lines(
    haproxyConfig({ frontendPort: 8080, adminSocket: '/tmp/a.sock', servers, checks, retries: 3, redispatch: true }),
  );
  assert.ok(l.includes('retries 3'));
  assert.ok(l.includes('option redispatch'));
  assert.ok(!l.includes('no option redispatch'));
});

test('everything listens on and connects to 127.0.0.1 only', () => {
  const text = haproxyConfig({ frontendPort: 8080, adminSocket: '/tmp/a.sock', servers, checks });
  for (const line of lines(text).filter((l) => l.startsWith('bind ') || l.startsWith('server '))) {
    assert.match(line, /127\.0\.0\.1:\d+/);
  }
});
