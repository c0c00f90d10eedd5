import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STOP_SIGNALS, tiedCommand } from '../../src/lab/processes.ts';

test('a tied child runs under setpriv with SIGKILL as its parent-death signal, its own arguments unchanged', () => {
  assert.deepEqual(tiedCommand('/usr/sbin/haproxy', ['-db', '-f', '/tmp/x.cfg'], true), [
    '/usr/bin/setpriv',
    ['--pdeathsig', 'KILL', '--', '/usr/sbin/haproxy', '-db', '-f', '/tmp/x.cfg'],
  ]);
  assert.deepEqual(tiedCommand('/usr/sbin/haproxy', ['-db'], false), ['/usr/sbin/haproxy', ['-db']]);
});

test('the lab stops on SIGHUP, SIGINT and SIGTERM and exits 128 + the signal number', () => {
  assert.deepEqual(STOP_SIGNALS, { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 });
});
