// The facts ledger: every fact in content/gateways and content/model-servers names a source, every source says what
// it was checked against (`at`) and when (`checked`), and every per-release model-server fact says which releases it
// holds for. Each rule is shown to fail on a mutated copy of real data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { profiles } from '../support/drain.ts';
import { modelServerLedgerProblems, modelServerSchema } from '../../src/facts/schemas/model-server.ts';
import { gatewayLedgerProblems, gatewaySchema } from '../../src/facts/schemas/gateway.ts';
import { parseData } from '../../src/facts/parse-data.ts';

const raw = (kind: 'gateways' | 'model-servers', id: string) =>
  parse(readFileSync(new URL(`../../content/${kind}/${id}.yaml`, import.meta.url), 'utf8'));

test('every profile on the site passes the ledger', () => {
  for (const g of profiles.gateways) assert.deepEqual(gatewayLedgerProblems(g), [], g.id);
  for (const m of profiles.modelServers) assert.deepEqual(modelServerLedgerProblems(m), [], m.id);
});

test('every model server states each per-release topic, and every such fact has a range or says why not', () => {
  for (const m of profiles.modelServers) {
    for (const topic of ['drain-flag', 'in-flight', 'new-requests', 'probes', 'entrypoint', 'shutdown-log']) {
      assert.ok(
        m.facts.some((f) => f.topic === topic),
        `${m.id} has no ${topic} fact`,
      );
    }
    for (const f of m.facts)
      assert.ok(f.since !== undefined || f.until !== undefined || f.rangeNote, `${m.id} ${f.topic}`);
  }
});

test('a fact without a source fails the ledger (mutated copy)', () => {
  const vllm = structuredClone(profiles.modelServers.find((m) => m.id === 'vllm')!);
  vllm.facts[1].sources = [];
  assert.deepEqual(modelServerLedgerProblems(vllm), ['facts[1]: the fact names no source']);
  const gke = structuredClone(profiles.gateways.find((g) => g.id === 'gke')!);
  gke.knobs[0].sources = [];
  gke.mechanismSources = ['nowhere'];
  assert.deepEqual(gatewayLedgerProblems(gke), [
    'mechanismSources: names source "nowhere", which the file\'s sources list does not declare',
    'knobs[0].sources: the fact names no source',
  ]);
});

test('a source without at or checked fails the ledger (mutated copy)', () => {
  const tgi = structuredClone(profiles.modelServers.find((m) => m.id === 'tgi')!);
  (tgi.sources[0] as { at?: string }).at = '';
  (tgi.sources[1] as { checked?: string }).checked = undefined;
  assert.deepEqual(modelServerLedgerProblems(tgi), [
    'sources[0].at is missing: say which tag, commit or docs version "tgi-router" was read at',
    'sources[1].checked is missing: give the date "tgi-launcher" was checked (YYYY-MM-DD)',
  ]);
});

test('a per-release fact without a range fails the ledger (mutated copy)', () => {
  const tgi = structuredClone(profiles.modelServers.find((m) => m.id === 'tgi')!);
  delete tgi.facts[1].since;
  assert.deepEqual(modelServerLedgerProblems(tgi), [
    'facts[1]: a per-release fact needs since and/or until, or a rangeNote saying why no release bound is known',
  ]);
});

test('the readers refuse the same data with the file and field named', () => {
  const noRange = raw('model-servers', 'tgi');
  delete noRange.facts[1].since;
  assert.throws(
    () => parseData(modelServerSchema, noRange, 'tgi.yaml'),
    /^ProfileDataError: tgi\.yaml: facts\[1\]\.since is missing: a per-release fact needs since and\/or until/,
  );
  const noAt = raw('model-servers', 'vllm');
  delete noAt.sources[2].at;
  assert.throws(
    () => parseData(modelServerSchema, noAt, 'vllm.yaml'),
    /vllm\.yaml: sources\[2\]\.at must be a non-empty string, found missing/,
  );
  const badDate = raw('gateways', 'istio');
  badDate.sources[0].checked = 'yesterday';
  assert.throws(() => parseData(gatewaySchema, badDate, 'istio.yaml'), /istio\.yaml: sources\[0\]\.checked must match/);
  const numberRelease = raw('model-servers', 'triton');
  numberRelease.facts[0].since = 25.1;
  assert.throws(
    () => parseData(modelServerSchema, numberRelease, 'triton.yaml'),
    /triton\.yaml: facts\[0\]\.since must be a quoted release such as '25\.05', found the number 25\.1/,
  );
  const backwards = raw('model-servers', 'vllm');
  backwards.facts[0].since = '0.19.0';
  assert.throws(
    () => parseData(modelServerSchema, backwards, 'vllm.yaml'),
    /vllm\.yaml: facts\[0\]\.until must be a later release than since \(0\.19\.0\), found 0\.18\.0/,
  );
  const noStatusSource = raw('gateways', 'istio');
  delete noStatusSource.statusSources;
  assert.throws(
    () => parseData(gatewaySchema, noStatusSource, 'istio.yaml'),
    /istio\.yaml: \(top level\) fails the facts ledger: statusSources: the fact names no source/,
  );
  // The custom profile has no GatewayClass: its status is Hitless's own and needs no source.
  assert.equal(parseData(gatewaySchema, raw('gateways', 'custom'), 'custom.yaml').statusSources.length, 0);
  const ungroundedKnob = raw('gateways', 'envoy-ai-gateway');
  ungroundedKnob.knobs[1].holdsFor = { of: 'Envoy Gateway' };
  assert.throws(
    () => parseData(gatewaySchema, ungroundedKnob, 'envoy-ai-gateway.yaml'),
    /envoy-ai-gateway\.yaml: knobs\[1\]\.holdsFor\.since is missing: give since and\/or until/,
  );
});

test('a model server lacking a topic is refused', () => {
  const vllm = raw('model-servers', 'vllm');
  vllm.facts = vllm.facts.filter((f: { topic: string }) => f.topic !== 'entrypoint');
  assert.throws(
    () => parseData(modelServerSchema, vllm, 'vllm.yaml'),
    /vllm\.yaml: facts has no fact with topic entrypoint/,
  );
});

test('lastChecked is the latest checked date of the sources', () => {
  const tgi = raw('model-servers', 'tgi');
  tgi.sources[3].checked = '2027-01-02';
  assert.equal(parseData(modelServerSchema, tgi, 'tgi.yaml').lastChecked, '2027-01-02');
});

test('entry points are data with a source each: vllm serve, text-generation-launcher, llama-server', () => {
  const points = (id: string) => profiles.modelServers.find((m) => m.id === id)!.entryPoints;
  assert.deepEqual(
    points('vllm').map((p) => [p.binary, p.subcommand]),
    [['vllm', 'serve']],
  );
  assert.deepEqual(
    points('tgi').map((p) => p.binary),
    ['text-generation-launcher'],
  );
  assert.deepEqual(
    points('llamacpp').map((p) => p.binary),
    ['llama-server'],
  );
  for (const m of profiles.modelServers) {
    for (const p of m.entryPoints)
      assert.ok(
        m.sources.some((s) => s.id === p.sources[0] && s.at.trim() !== ''),
        `${m.id} ${p.binary ?? p.module}`,
      );
  }
  // An entry point whose source is dropped fails the ledger.
  const vllm = structuredClone(profiles.modelServers.find((m) => m.id === 'vllm')!);
  vllm.entryPoints[0].sources = [];
  assert.deepEqual(modelServerLedgerProblems(vllm), ['entryPoints[0].sources: the fact names no source']);
});

test('an entry point needs exactly one of binary and module, and a source', () => {
  const data = raw('model-servers', 'vllm');
  assert.throws(
    () =>
      parseData(
        modelServerSchema,
        { ...data, entryPoints: [{ binary: 'vllm', module: 'vllm.x', source: data.entryPoints[0].source }] },
        'vllm.yaml',
      ),
    /entryPoints\[0\].*needs exactly one of binary and module/,
  );
  assert.throws(
    () => parseData(modelServerSchema, { ...data, entryPoints: [{ binary: 'vllm' }] }, 'vllm.yaml'),
    /entryPoints\[0\]\.source/,
  );
});
