// The model server's release is an input: read from the image tag, or given where the tag names none. The drain
// flag goes into the manifest only for a release that has it (vLLM --shutdown-timeout: 0.18.0 and later).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveInputs } from '../../src/model/resolve.ts';
import { codesOf, manifestOf, planOf, profiles } from '../support/drain.ts';

test('vLLM v0.10.1 gets no --shutdown-timeout and an error naming 0.18 and the abort at SIGTERM', () => {
  const raw = { image: 'vllm/vllm-openai:v0.10.1' };
  const p = planOf(raw);
  assert.equal(p.modelServerRelease, '0.10.1');
  assert.equal(p.modelServerReleaseSource, 'image');
  assert.equal(p.drainFlagStatus, 'too-old');
  assert.equal(p.drainFlag, null);
  const w = p.warnings.find((x) => x.code === 'drain-flag-too-old');
  assert.equal(w?.severity, 'error');
  assert.equal(
    w?.message,
    'vLLM 0.10.1 (from the image tag) predates --shutdown-timeout, which vLLM has from 0.18.0, '
      + 'so the manifest leaves it out: a binary without the flag would refuse to start. Without it vLLM aborts every '
      + 'in-flight request at SIGTERM, as its default, 0, does. Use an image of vLLM 0.18.0 or later.',
  );
  assert.ok(!codesOf(p).includes('drain-flag-min-version'));
  const text = manifestOf(raw);
  assert.doesNotMatch(text, /shutdown-timeout=/);
  assert.match(
    text,
    /# vLLM 0\.10\.1 predates --shutdown-timeout \(first in 0\.18\.0\), so it is left out; in-flight requests are aborted at SIGTERM\. Use a newer image\.\n\s+args:/,
  );
});

test('vLLM v0.10.1 cannot drain, so it gets no drain budget: the grace period is the preStop sleep and the teardown', () => {
  // content/model-servers/vllm.yaml: before --shutdown-timeout, SIGTERM ended the process without coordinating
  // requests. GKE defaults: 30 s removal p99 + 5 s margin = 35 s preStop; 0 s drain; 15 s teardown: 50 s.
  const p = planOf({ image: 'vllm/vllm-openai:v0.10.1' });
  assert.equal(p.drainSeconds, 0);
  assert.equal(p.preStopSeconds, 35);
  assert.equal(p.terminationGracePeriodSeconds, 50);
  const step = p.derivation.find((d) => d.field === 'drainSeconds');
  assert.equal(step?.formula, 'vLLM 0.10.1 predates --shutdown-timeout: 0s');
  assert.match(manifestOf({ image: 'vllm/vllm-openai:v0.10.1' }), /terminationGracePeriodSeconds: 50\b/);
  // The first release with the flag drains: 4096 tokens × 100 ms × 1.2 = 491.52 → 492 s; × 1.5 = 738 s.
  assert.equal(planOf({ image: 'vllm/vllm-openai:v0.18.0' }).drainSeconds, 738);
});

test('an image whose tag names no release gets the flag, with a warning that says what a wrong guess does', () => {
  const raw = { image: 'vllm/vllm-openai:latest' };
  const p = planOf(raw);
  assert.equal(p.modelServerRelease, null);
  assert.equal(p.drainFlagStatus, 'unknown-release');
  assert.deepEqual(p.drainFlag, { flag: '--shutdown-timeout', seconds: 738 });
  const w = p.warnings.find((x) => x.code === 'drain-flag-release-unknown');
  assert.equal(w?.severity, 'warning');
  assert.equal(
    w?.message,
    'The tag of the image vllm/vllm-openai:latest names no vLLM release, so Hitless cannot tell whether it has --shutdown-timeout '
      + '(vLLM 0.18.0 and later). The manifest passes it: a release without it refuses to start, so the new pod never becomes ready and the '
      + 'rollout stops while the old pods keep serving. Pin an image tag that names the release, or set model-server-version.',
  );
  assert.match(
    manifestOf(raw),
    /- --shutdown-timeout=738 # drain: 492s longest request × 1\.5 headroom; the image tag names no release: one without this flag refuses to start\n/,
  );
});

test('model-server-version tells the release of an image whose tag names none', () => {
  const old = planOf({ image: 'vllm/vllm-openai:latest', 'model-server-version': 'v0.17.2' });
  assert.equal(old.modelServerRelease, '0.17.2');
  assert.equal(old.modelServerReleaseSource, 'given');
  assert.equal(old.drainFlag, null);
  assert.match(
    old.warnings.find((w) => w.code === 'drain-flag-too-old')!.message,
    /^vLLM 0\.17\.2 \(given as model-server-version\) predates/,
  );
  const recent = planOf({ image: `registry.local/vllm@sha256:${'a'.repeat(64)}`, 'model-server-version': '0.19.0' });
  assert.deepEqual(recent.drainFlag, { flag: '--shutdown-timeout', seconds: 738 });
  assert.ok(!codesOf(recent).includes('drain-flag-release-unknown'));
});

test('the preset image runs its pinned release', () => {
  const p = planOf();
  assert.equal(p.modelServerRelease, '0.18.1');
  assert.equal(p.drainFlagStatus, 'available');
});

test('a model-server-version that contradicts the image tag, or is not a release, is refused with a clear message', () => {
  const contradiction = resolveInputs(
    { image: 'vllm/vllm-openai:v0.10.1', 'model-server-version': '0.18.1' },
    profiles,
  );
  assert.deepEqual(contradiction.errors, [
    {
      flag: 'model-server-version',
      message:
        'model-server-version 0.18.1 contradicts the image tag, which names vLLM 0.10.1; leave model-server-version empty to use the tag, or change the image',
    },
  ]);
  assert.equal(contradiction.inputs.modelServerVersion, undefined);
  // The same release written another way is no contradiction: 0.18 = 0.18.0.
  assert.deepEqual(
    resolveInputs({ image: 'vllm/vllm-openai:v0.18', 'model-server-version': '0.18.0' }, profiles).errors,
    [],
  );
  const bad = resolveInputs({ 'model-server-version': 'latest' }, profiles);
  assert.deepEqual(bad.errors, [
    {
      flag: 'model-server-version',
      message:
        'model-server-version must be a release number such as 0.18.1 or v3.3.5 (1 to 4 numbers joined by dots), at most 20 characters (got "latest")',
    },
  ]);
});

test('a tag names the release of the server only on the server\u2019s own image: an llm-d image\u2019s v0.2.0 is not vLLM 0.2.0', () => {
  // As the checker reads it (drain-flag rules): ghcr.io/llm-d/llm-d is not vllm/vllm-openai, so the release is unknown,
  // the flag is passed with the unknown-release warning, and no drain-flag-too-old error is raised.
  const raw = { image: 'ghcr.io/llm-d/llm-d:v0.2.0' };
  const p = planOf(raw);
  assert.equal(p.modelServerRelease, null);
  assert.equal(p.modelServerReleaseSource, 'unknown');
  assert.equal(p.drainFlagStatus, 'unknown-release');
  assert.deepEqual(p.drainFlag, { flag: '--shutdown-timeout', seconds: 738 });
  assert.ok(!codesOf(p).includes('drain-flag-too-old'));
  assert.match(
    p.warnings.find((w) => w.code === 'drain-flag-release-unknown')!.message,
    /^The image ghcr\.io\/llm-d\/llm-d:v0\.2\.0 is not vLLM's own \(vllm\/vllm-openai\), so its tag does not name the vLLM release it runs, so Hitless cannot tell/,
  );
  // model-server-version says which vLLM it runs; the llm-d tag does not contradict it.
  const given = planOf({ ...raw, 'model-server-version': '0.19.1' });
  assert.equal(given.modelServerRelease, '0.19.1');
  assert.equal(given.drainFlagStatus, 'available');
  // A mirror of vLLM's own image (same last path part) still names the release.
  assert.equal(planOf({ image: 'registry.example.com/mirror/vllm-openai:v0.10.1' }).drainFlagStatus, 'too-old');
});
