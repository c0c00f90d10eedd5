// preStop action by Kubernetes version: the sleep action is beta and on by default from 1.30 (KEP-3960).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAllDocuments } from 'yaml';
import { codesOf, manifestOf, planOf } from '../support/drain.ts';

test('Kubernetes 1.29 uses an exec sleep, 1.30 the sleep action', () => {
  assert.equal(planOf({ 'kubernetes-version': '1.29' }).preStopAction, 'exec');
  assert.ok(codesOf(planOf({ 'kubernetes-version': '1.29' })).includes('exec-sleep'));
  // Below 1.29 the action does not exist; in 1.29 it is alpha and off. Neither is "off by default".
  assert.match(
    planOf({ 'kubernetes-version': '1.28' }).warnings.find((w) => w.code === 'exec-sleep')!.message,
    /^Kubernetes 1\.28 does not enable the native sleep action \(it is alpha and off in 1\.29, beta and on from 1\.30\)/,
  );
  assert.equal(planOf({ 'kubernetes-version': '1.30' }).preStopAction, 'sleep');
  assert.equal(planOf({ 'kubernetes-version': 'v1.34.2' }).preStopAction, 'sleep');
});

test('the 1.29 manifest runs /bin/sleep with the preStop seconds as a string', () => {
  const [deployment] = parseAllDocuments(manifestOf({ 'kubernetes-version': '1.29' })).map((d) => d.toJS());
  const container = deployment.spec.template.spec.containers[0];
  assert.deepEqual(container.lifecycle.preStop, { exec: { command: ['/bin/sleep', '35'] } });
  assert.match(
    manifestOf({ 'kubernetes-version': '1.29' }),
    /- "35" # 30s removal p99 \+ 5s margin \(exec: Kubernetes enables the sleep action from 1\.30\)\n/,
  );
});

test('the 1.34 manifest uses the native sleep action', () => {
  const [deployment] = parseAllDocuments(manifestOf()).map((d) => d.toJS());
  assert.deepEqual(deployment.spec.template.spec.containers[0].lifecycle.preStop, { sleep: { seconds: 35 } });
});

test('a zero removal and zero margin leave no preStop hook, with a warning', () => {
  const p = planOf({ 'removal-seconds': 0, 'removal-margin-seconds': 0 });
  assert.equal(p.preStopSeconds, 0);
  assert.equal(p.preStopAction, 'none');
  assert.ok(codesOf(p).includes('no-prestop'));
  const [deployment] = parseAllDocuments(manifestOf({ 'removal-seconds': 0, 'removal-margin-seconds': 0 })).map((d) =>
    d.toJS(),
  );
  assert.equal(deployment.spec.template.spec.containers[0].lifecycle, undefined);
  // grace = 0 + 738 + 15
  assert.equal(deployment.spec.template.spec.terminationGracePeriodSeconds, 753);
});
