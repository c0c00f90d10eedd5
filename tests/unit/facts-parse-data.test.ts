// One formatter words every problem a data file's schema finds: the file, the field's path, what it must be and
// what was found, one line per problem.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseData } from '../../src/facts/parse-data.ts';
import { deploySchema } from '../../src/facts/schemas/model-server-deploy.ts';

const DEPLOY = {
  defaultModel: 'org/model',
  tensorParallel: { note: 'n', sources: ['s'] },
  shm: { sizeLimitGi: 1, explanation: 'e', sources: ['s'] },
  resources: { cpuPerGpu: 4, memoryGiPerGpu: 32, explanation: 'e' },
};

test('a number out of range names its range and the value found', () => {
  assert.throws(() => parseData(deploySchema, { ...DEPLOY, shm: { ...DEPLOY.shm, sizeLimitGi: 2048 } }, 'x.yaml'), {
    message: 'x.yaml: shm.sizeLimitGi must be a whole number from 1 to 1024, found number 2048',
  });
  assert.throws(() => parseData(deploySchema, { ...DEPLOY, shm: { ...DEPLOY.shm, sizeLimitGi: 1.5 } }, 'x.yaml'), {
    message: 'x.yaml: shm.sizeLimitGi must be a whole number from 1 to 1024, found number 1.5',
  });
});

test('an unknown field lists the known ones; several problems give one line each', () => {
  assert.throws(
    () =>
      parseData(
        deploySchema,
        { ...DEPLOY, resources: { ...DEPLOY.resources, gpus: 1 }, env: [{ name: 'A', value: '', why: 'w' }] },
        'x.yaml',
      ),
    {
      name: 'ProfileDataError',
      message:
        'x.yaml: env[0].value must be a non-empty string, found string ""\n'
        + 'x.yaml: resources.gpus is not a known field (known: cpuPerGpu, memoryGiPerGpu, explanation)',
    },
  );
});

test('a list where a mapping belongs, and a missing mapping, say what was found', () => {
  assert.throws(() => parseData(deploySchema, { ...DEPLOY, shm: [] }, 'x.yaml'), {
    message: 'x.yaml: shm must be a mapping, found a list',
  });
  assert.throws(() => parseData(deploySchema, undefined, 'x.yaml'), {
    message: 'x.yaml: (top level) must be a mapping, found missing',
  });
});
