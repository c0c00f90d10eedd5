// Model-server profiles say how their probe periods and thresholds are known (probes.timing), since the pages
// must label every number with a source or as an estimate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { profiles } from '../support/drain.ts';
import { modelServerSchema } from '../../src/facts/schemas/model-server.ts';
import { parseData } from '../../src/facts/parse-data.ts';

const VLLM = new URL('../../content/model-servers/vllm.yaml', import.meta.url);

test('vLLM\u2019s probe timing is documented by llm-d; the other servers\u2019 are estimates', () => {
  const bases = Object.fromEntries(profiles.modelServers.map((m) => [m.id, m.probes.timing.basis]));
  const expected = {
    vllm: 'documented',
    sglang: 'estimate',
    tgi: 'estimate',
    triton: 'estimate',
    llamacpp: 'estimate',
  };
  assert.deepEqual(Object.keys(bases).sort(), Object.keys(expected).sort(), 'add a row for each model server');
  assert.deepEqual(bases, expected);
  assert.deepEqual(profiles.modelServers.find((m) => m.id === 'vllm')!.probes.timing.sources, ['llm-d-readiness']);
  for (const m of profiles.modelServers.filter((s) => s.probes.timing.basis === 'estimate')) {
    assert.match(m.probes.timing.explanation, /To check them, /, `${m.id} says how to measure`);
  }
});

test('a model server without probe timing, or with an undeclared source, is refused', () => {
  const data = parse(readFileSync(VLLM, 'utf8'));
  delete data.probes.timing;
  assert.throws(
    () => parseData(modelServerSchema, data, 'vllm.yaml'),
    /vllm\.yaml: probes\.timing must be a mapping, found missing/,
  );
  const bad = parse(readFileSync(VLLM, 'utf8'));
  bad.probes.timing.sources = ['nowhere'];
  assert.throws(
    () => parseData(modelServerSchema, bad, 'vllm.yaml'),
    /probes\.timing\.sources\[0\] names source "nowhere"/,
  );
});
