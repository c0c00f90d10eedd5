// Releases: how an image tag names a model server's release, and whether that release has the drain flag.
// Expected values are read off the data files by hand: vLLM's flag first appears in 0.18 (vllm.yaml drain.minVersion).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compareReleases,
  drainFlagAt,
  entrypointForks,
  imageRelease,
  imageTag,
  isServerImage,
  releaseFromImage,
  releaseInRange,
  releaseParts,
} from '../../src/facts/releases.ts';
import { profiles } from '../support/drain.ts';

const server = (id: string) => profiles.modelServers.find((s) => s.id === id)!;

test('releases order by number, not by text, and missing parts count as 0', () => {
  assert.ok(compareReleases('0.9.2', '0.18.0') < 0);
  assert.ok(compareReleases('0.18.1', '0.18') > 0);
  assert.equal(compareReleases('0.18', '0.18.0'), 0);
  assert.equal(compareReleases('v3.3.5', '3.3.5'), 0);
  assert.deepEqual(releaseParts('25.05'), [25, 5]);
  assert.equal(releaseParts('latest'), undefined);
  assert.throws(() => compareReleases('latest', '1.0'), /not a release: "latest"/);
});

test('an image tag is what follows the last colon after the last slash, before any digest', () => {
  assert.equal(imageTag('vllm/vllm-openai:v0.10.1'), 'v0.10.1');
  assert.equal(imageTag('registry.local:5000/vllm/vllm-openai'), undefined);
  assert.equal(imageTag('registry.local:5000/vllm/vllm-openai:v0.18.1@sha256:abcd'), 'v0.18.1');
  assert.equal(imageTag('vllm/vllm-openai@sha256:abcd'), undefined);
});

test('each server reads its own tag shapes', () => {
  assert.equal(releaseFromImage(server('vllm'), 'vllm/vllm-openai:v0.10.1'), '0.10.1');
  assert.equal(releaseFromImage(server('vllm'), 'vllm/vllm-openai:latest'), undefined);
  assert.equal(releaseFromImage(server('triton'), 'nvcr.io/nvidia/tritonserver:24.04-py3'), '24.04');
  assert.equal(releaseFromImage(server('tgi'), 'ghcr.io/huggingface/text-generation-inference:3.3.5'), '3.3.5');
  assert.equal(releaseFromImage(server('llamacpp'), 'ghcr.io/ggml-org/llama.cpp:server-cuda-b5583'), '5583');
  assert.equal(releaseFromImage(server('llamacpp'), 'ghcr.io/ggml-org/llama.cpp:server-cuda'), undefined);
});

test('the preset vLLM image pins 0.18.1, read from its tag', () => {
  assert.equal(server('vllm').release.pinned, '0.18.1');
});

test('a vLLM release before 0.18 lacks --shutdown-timeout; 0.18.0 and later have it; an unknown one cannot be told', () => {
  assert.deepEqual(drainFlagAt(server('vllm'), '0.10.1'), {
    kind: 'too-old',
    flag: '--shutdown-timeout',
    since: '0.18.0',
  });
  assert.deepEqual(drainFlagAt(server('vllm'), '0.18.0'), { kind: 'available', flag: '--shutdown-timeout' });
  assert.deepEqual(drainFlagAt(server('vllm'), undefined), {
    kind: 'unknown-release',
    flag: '--shutdown-timeout',
    since: '0.18.0',
  });
  assert.deepEqual(drainFlagAt(server('llamacpp'), '5583'), { kind: 'no-flag' });
});

test('a range holds from since (inclusive) until until (exclusive)', () => {
  assert.equal(releaseInRange('0.18.0', { since: '0.18' }), true);
  assert.equal(releaseInRange('0.17.9', { since: '0.18' }), false);
  assert.equal(releaseInRange('3.2.2', { since: '3.2.2', until: '3.3' }), true);
  assert.equal(releaseInRange('3.3.0', { since: '3.2.2', until: '3.3' }), false);
});

test('a server’s other images: the release from a tag only where it names the server’s, args alone only where the entrypoint starts it', () => {
  const vllm = {
    image: 'vllm/vllm-openai:v0.18.1',
    release: { tagPattern: /^v?(\d+\.\d+(?:\.\d+)?)(?:[-+].*)?$/ },
    images: [
      { repository: 'vllm/vllm-openai-rocm', tagPattern: /^v(\d+\.\d+\.\d+)$/, entrypointStartsServer: true },
      { repository: 'rocm/vllm', tagPattern: /_vllm_(\d+\.\d+\.\d+)_/, entrypointStartsServer: false },
      { repository: 'registry.redhat.io/rhaiis/vllm-cuda-rhel9', entrypointStartsServer: true },
    ],
  };
  assert.equal(imageRelease(vllm, 'docker.io/vllm/vllm-openai-rocm:v0.19.1'), '0.19.1');
  assert.equal(isServerImage(vllm, 'vllm/vllm-openai-rocm:v0.19.1'), true);
  assert.equal(imageRelease(vllm, 'rocm/vllm:rocm6.4.1_vllm_0.10.1_20250909'), '0.10.1');
  assert.equal(isServerImage(vllm, 'rocm/vllm:rocm6.4.1_vllm_0.10.1_20250909'), false);
  // Red Hat's tag is its product's version, not vLLM's: no release, though args alone start the server.
  assert.equal(imageRelease(vllm, 'registry.redhat.io/rhaiis/vllm-cuda-rhel9:3.2.1'), undefined);
  assert.equal(isServerImage(vllm, 'registry.redhat.io/rhaiis/vllm-cuda-rhel9:3.2.1'), true);
  // The preset image's repository is still the server's, mirrored or not; another image is not.
  assert.equal(imageRelease(vllm, 'ghcr.io/mirror/vllm-openai:v0.17.0'), '0.17.0');
  assert.equal(isServerImage(vllm, 'example/vllm-openai-rocm-fork:v0.19.1'), false);
  assert.equal(imageRelease(vllm, 'example/vllm-openai-rocm-fork:v0.19.1'), undefined);
  // A listed image is its whole repository, under a mirror's path or not: another owner's `vllm` is not AMD's.
  assert.equal(imageRelease(vllm, 'registry.local/mirror/rocm/vllm:rocm6.4.1_vllm_0.10.1_20250909'), '0.10.1');
  assert.equal(imageRelease(vllm, 'myorg/vllm:build_vllm_0.10.1_x'), undefined);
  assert.equal(isServerImage(vllm, 'myorg/vllm-cuda-rhel9:3.2.1'), false);
});

test('a Deep Learning Container names the TGI release in its repository; its entrypoint forks the launcher before 2.4', () => {
  // tgi.yaml's images entry, read by hand: cu121.2-2 is TGI 2.2 (built from v2.2.0), cu124.2-3 is 2.3 (v2.3.1),
  // cu124.2-4 is 2.4 (v2.4.0), whose entrypoint.sh is the first to exec text-generation-launcher.
  const tgi = server('tgi');
  const dlc = (name: string, tag = 'latest') =>
    `us-docker.pkg.dev/deeplearning-platform-release/gcr.io/huggingface-text-generation-inference-${name}:${tag}`;
  assert.equal(imageRelease(tgi, dlc('cu121.2-2.ubuntu2204')), '2.2');
  assert.equal(isServerImage(tgi, dlc('cu121.2-2.ubuntu2204')), true);
  assert.equal(imageRelease(tgi, dlc('cu124.2-3.ubuntu2204.py311', '2024-10-01')), '2.3');
  assert.equal(imageRelease(tgi, dlc('cu124.2-4.ubuntu2204.py311')), '2.4');
  assert.deepEqual(entrypointForks(tgi, dlc('cu121.2-2.ubuntu2204'), '2.2'), { until: '2.4' });
  assert.deepEqual(entrypointForks(tgi, dlc('cu124.2-3.ubuntu2204.py311'), '2.3'), { until: '2.4' });
  assert.equal(entrypointForks(tgi, dlc('cu124.2-4.ubuntu2204.py311'), '2.4'), undefined);
  // TGI's own image: its tgi-entrypoint.sh execs the launcher, and the data says nothing of forks.
  assert.equal(entrypointForks(tgi, 'ghcr.io/huggingface/text-generation-inference:2.2.0', '2.2.0'), undefined);
  // The embeddings container of the same family is not TGI.
  const tei =
    'us-docker.pkg.dev/deeplearning-platform-release/gcr.io/huggingface-text-embeddings-inference-cu122.1-4.ubuntu2204:latest';
  assert.equal(isServerImage(tgi, tei), false);
  assert.equal(imageRelease(tgi, tei), undefined);
});
