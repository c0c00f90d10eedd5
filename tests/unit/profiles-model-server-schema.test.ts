// The model-server fields that hedge what is not verified: the drain flag's expected first release
// (minVersionNote), who gets a fixed drain time and what about it is unverified (fixedScope, caveat), and which
// releases print the shutdown log lines (shutdownLogNote). Each is read from data and checked at load time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { readModelServerProfile } from '../../src/drain/read-model-server.ts';
import { profiles } from '../support/drain.ts';

const read = (id: string) => parse(readFileSync(new URL(`../../content/model-servers/${id}.yaml`, import.meta.url), 'utf8'));
const server = (id: string) => profiles.modelServers.find((m) => m.id === id)!;

test('vLLM\u2019s first release with --shutdown-timeout is expected, not verified; its log lines need PR #43707', () => {
  const vllm = server('vllm');
  assert.equal(vllm.drain.minVersion, '0.18');
  assert.equal(vllm.drain.minVersionNote, "per llm-d #927; not verified against vLLM's releases");
  assert.match(vllm.shutdownLogNote!, /PR #43707 \(merged 26 May 2026\); the first release that has them is not verified/);
  assert.doesNotMatch(vllm.versionNotes, /ships in/);
});

test('TGI\u2019s fixed 90 s goes to its web server, and whether requests finish in it is not verified', () => {
  const tgi = server('tgi');
  assert.deepEqual([tgi.drain.kind, tgi.drain.fixedSeconds, tgi.drain.fixedScope], ['fixed', 90, 'launcher gives the web server']);
  assert.equal(tgi.drain.caveat, 'whether in-flight requests finish in that time is not verified');
});

test('llama.cpp\u2019s missing drain is read from PR descriptions, not tested', () => {
  assert.equal(server('llamacpp').drain.caveat, 'going by the PR descriptions; not tested');
});

test('servers without the new fields read without them (no undefined keys)', () => {
  const sglang = server('sglang');
  for (const key of ['minVersionNote', 'fixedScope', 'caveat'] as const) assert.ok(!(key in sglang.drain), key);
  assert.ok(!('shutdownLogNote' in sglang));
});

test('a fixed drain needs fixedScope; minVersionNote needs minVersion; shutdownLogNote needs log lines', () => {
  const tgi = read('tgi');
  delete tgi.drain.fixedScope;
  assert.throws(() => readModelServerProfile(tgi, 'tgi.yaml'), /tgi\.yaml: drain\.fixedScope is required when kind is fixed/);
  const vllm = read('vllm');
  delete vllm.drain.minVersion;
  assert.throws(() => readModelServerProfile(vllm, 'vllm.yaml'), /vllm\.yaml: drain\.minVersionNote needs minVersion/);
  const quiet = read('vllm');
  quiet.shutdownLog = [];
  assert.throws(() => readModelServerProfile(quiet, 'vllm.yaml'), /vllm\.yaml: shutdownLogNote needs shutdownLog lines/);
  const typed = read('llamacpp');
  typed.drain.caveat = 7;
  assert.throws(() => readModelServerProfile(typed, 'llamacpp.yaml'), /llamacpp\.yaml: drain\.caveat must be a non-empty string, found number 7/);
});
