// The new data blocks are validated with messages that name the file and field: a model server's `deploy` block,
// and a gateway's `routeTimeout` and `podSidecar` blocks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseData } from '../../src/facts/parse-data.ts';
import { deploySchema } from '../../src/facts/schemas/model-server-deploy.ts';
import { podSidecar, routeTimeout } from '../../src/facts/schemas/gateway-settings.ts';

const readDeployFacts = (data: unknown, at: { file: string }) => parseData(deploySchema, data, at.file);
const readRouteTimeout = (data: unknown, at: { file: string }) => parseData(routeTimeout, data, at.file);
const readPodSidecar = (data: unknown, at: { file: string }) => parseData(podSidecar, data, at.file);

const cursor = { file: 'content/model-servers/x.yaml', path: 'deploy' };
const DEPLOY = {
  defaultModel: 'org/model',
  tensorParallel: { flag: '--tensor-parallel-size', note: 'n', sources: ['s'] },
  shm: { sizeLimitGi: 1, explanation: 'e', sources: ['s'] },
  resources: { cpuPerGpu: 4, memoryGiPerGpu: 32, explanation: 'e' },
};

test('a complete deploy block reads back as written', () => {
  const facts = readDeployFacts({ ...DEPLOY, env: [{ name: 'A_B', value: 'false', why: 'w' }] }, cursor);
  assert.equal(facts.tensorParallel.flag, '--tensor-parallel-size');
  assert.deepEqual(facts.env, [{ name: 'A_B', value: 'false', why: 'w' }]);
  assert.equal(facts.modelVolume, undefined);
});

test('a deploy block with a bad value names the field', () => {
  assert.throws(() => readDeployFacts({ ...DEPLOY, defaultModel: 'has space' }, cursor), /defaultModel/);
  assert.throws(() => readDeployFacts({ ...DEPLOY, shm: { ...DEPLOY.shm, sizeLimitGi: 0 } }, cursor), /sizeLimitGi/);
  assert.throws(
    () =>
      readDeployFacts(
        {
          ...DEPLOY,
          env: [
            { name: 'A', value: '1', why: 'w' },
            { name: 'A', value: '2', why: 'w' },
          ],
        },
        cursor,
      ),
    /sets A twice/,
  );
  assert.throws(() => readDeployFacts({ ...DEPLOY, env: [{ name: 'lower', value: '1', why: 'w' }] }, cursor), /name/);
  assert.throws(() => readDeployFacts({ ...DEPLOY, extra: 1 }, cursor), /extra/);
});

test('a route timeout the gateway does not honor must say what bounds a response instead, and only then', () => {
  const at = { file: 'content/gateways/x.yaml', path: 'routeTimeout' };
  assert.throws(
    () => readRouteTimeout({ honored: false, summary: 's', sources: ['s'] }, at),
    /instead.*required when honored is false/,
  );
  assert.throws(
    () =>
      readRouteTimeout(
        { honored: true, summary: 's', sources: ['s'], instead: { setting: 'x', defaultSeconds: 60, scope: 'total' } },
        at,
      ),
    /only for a gateway that does not honor/,
  );
  assert.throws(
    () =>
      readRouteTimeout(
        {
          honored: false,
          summary: 's',
          sources: ['s'],
          instead: { setting: 'x', defaultSeconds: 60, scope: 'sometimes' },
        },
        at,
      ),
    /total or between-reads/,
  );
  assert.equal(
    readRouteTimeout({ honored: true, defaultSeconds: 15, summary: 's', sources: ['s'] }, at).defaultSeconds,
    15,
  );
});

test('a pod sidecar block needs annotation names and a Kubernetes minor version', () => {
  const at = { file: 'content/gateways/x.yaml', path: 'podSidecar' };
  const good = {
    summary: 's',
    nativeAnnotation: 'a.io/b',
    nativeFromKubernetes: '1.29',
    drainAnnotation: 'c.io/d',
    sources: ['s'],
  };
  assert.equal(readPodSidecar(good, at).nativeFromKubernetes, '1.29');
  assert.throws(() => readPodSidecar({ ...good, nativeFromKubernetes: '29' }, at), /nativeFromKubernetes/);
  assert.throws(() => readPodSidecar({ ...good, nativeAnnotation: 'no slash' }, at), /nativeAnnotation/);
});
