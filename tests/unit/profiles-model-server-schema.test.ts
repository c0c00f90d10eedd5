// The model-server fields that hedge what is not verified: the drain flag's expected first release
// (minVersionNote), who gets a fixed drain time and what about it is unverified (fixedScope, caveat), and which
// releases print the shutdown log lines (shutdownLogNote). Each is read from data and checked at load time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { profiles } from '../support/drain.ts';
import { modelServerSchema } from '../../src/facts/schemas/model-server.ts';
import { parseData } from '../../src/facts/parse-data.ts';

const read = (id: string) =>
  parse(readFileSync(new URL(`../../content/model-servers/${id}.yaml`, import.meta.url), 'utf8'));
const server = (id: string) => profiles.modelServers.find((m) => m.id === id)!;

test('vLLM has --shutdown-timeout from v0.18.0 (documented for v0.18.0); its log lines need PR #43707', () => {
  // Fact check #2: docs.vllm.ai/en/v0.18.0 lists --shutdown-timeout, so the hedge is gone.
  const vllm = server('vllm');
  assert.equal(vllm.drain.minVersion, '0.18.0');
  assert.ok(!('minVersionNote' in vllm.drain));
  assert.match(vllm.shutdownLogNote!, /PR #43707 \(May 2026\), after v0\.18\.1/);
  assert.doesNotMatch(vllm.versionNotes, /ships in/);
});

test('TGI has --graceful-termination-timeout, default 90, from 3.2.2; the preset image is a release that has it', () => {
  // Fact check #36: launcher/src/main.rs, commit e5503eba (#3126), first tag v3.2.2.
  const tgi = server('tgi');
  assert.deepEqual(
    [tgi.drain.kind, tgi.drain.flag, tgi.drain.defaultSeconds, tgi.drain.minVersion, tgi.release.pinned],
    ['flag', '--graceful-termination-timeout', 90, '3.2.2', '3.3.5'],
  );
  assert.ok(!('fixedScope' in tgi.drain) && tgi.drain.zeroAborts !== true);
});

test('llama.cpp\u2019s missing drain is read in the server\u2019s code, not tested', () => {
  assert.equal(server('llamacpp').drain.caveat, "read in the server's code on master; not tested");
});

test('servers without the new fields read without them (no undefined keys)', () => {
  const sglang = server('sglang');
  for (const key of ['minVersionNote', 'fixedScope', 'caveat'] as const) assert.ok(!(key in sglang.drain), key);
  assert.ok(!('shutdownLogNote' in sglang));
});

test('a preset image must name a release that has the drain flag', () => {
  const latest = read('tgi');
  latest.image = 'ghcr.io/huggingface/text-generation-inference:latest';
  assert.throws(
    () => parseData(modelServerSchema, latest, 'tgi.yaml'),
    /tgi\.yaml: image names no release .* --graceful-termination-timeout exists only from 3\.2\.2/,
  );
  const old = read('tgi');
  old.image = 'ghcr.io/huggingface/text-generation-inference:3.1.1';
  assert.throws(
    () => parseData(modelServerSchema, old, 'tgi.yaml'),
    /tgi\.yaml: image runs 3\.1\.1, which predates --graceful-termination-timeout \(from 3\.2\.2\)/,
  );
});

test('a fixed drain needs fixedScope; minVersionNote needs minVersion; shutdownLogNote needs log lines', () => {
  const tgi = read('tgi');
  Object.assign(tgi.drain, { kind: 'fixed', fixedSeconds: 90 });
  assert.throws(
    () => parseData(modelServerSchema, tgi, 'tgi.yaml'),
    /tgi\.yaml: drain\.fixedScope is required when kind is fixed/,
  );
  const vllm = read('vllm');
  vllm.drain.minVersionNote = 'a note';
  delete vllm.drain.minVersion;
  assert.throws(
    () => parseData(modelServerSchema, vllm, 'vllm.yaml'),
    /vllm\.yaml: drain\.minVersionNote needs minVersion/,
  );
  const quiet = read('vllm');
  delete quiet.shutdownLog;
  assert.throws(
    () => parseData(modelServerSchema, quiet, 'vllm.yaml'),
    /vllm\.yaml: shutdownLogNote needs shutdownLog lines/,
  );
  const typed = read('llamacpp');
  typed.drain.caveat = 7;
  assert.throws(
    () => parseData(modelServerSchema, typed, 'llamacpp.yaml'),
    /llamacpp\.yaml: drain\.caveat must be a non-empty string, found number 7/,
  );
});
