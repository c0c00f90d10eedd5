// An Istio sidecar in the model-server pod lives through the drain: native on Kubernetes 1.29 and later, otherwise
// its terminationDrainDuration is the grace period. Other gateways put nothing in the pod's annotations.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAllDocuments } from 'yaml';
import { manifestOf, profiles } from '../support/drain.ts';

/** 768 s grace > 600 s: the output adds cluster-autoscaler's annotation beside the gateway's. */
const SAFE = { 'cluster-autoscaler.kubernetes.io/safe-to-evict': 'false' };

const podMetadata = (text: string) =>
  parseAllDocuments(text)
    .map((d) => d.toJS())
    .find((d) => d.kind === 'Deployment').spec.template.metadata;

test('istio on Kubernetes 1.34 asks for a native sidecar', () => {
  const text = manifestOf({ gateway: 'istio' });
  assert.deepEqual(podMetadata(text).annotations, { 'sidecar.istio.io/nativeSidecar': 'true', ...SAFE });
  assert.match(text, /# Istio: The Istio gateway does not need a proxy in the model-server pod/);
});

test('istio on Kubernetes 1.28 keeps a classic sidecar draining for the whole grace period', () => {
  // 10 s removal + 5 s margin = 15 s preStop; 4096 × 100 ms × 1.2 = 491.52 → 492 s, × 1.5 = 738 s drain; + 15 s teardown = 768 s.
  const text = manifestOf({ gateway: 'istio', 'kubernetes-version': '1.28' });
  assert.deepEqual(podMetadata(text).annotations, {
    'proxy.istio.io/config': 'terminationDrainDuration: 768s',
    ...SAFE,
  });
});

test('no other gateway adds pod annotations', () => {
  for (const gateway of profiles.gateways.filter((g) => g.id !== 'istio')) {
    const text = manifestOf({ gateway: gateway.id });
    const { annotations } = podMetadata(text);
    assert.ok(annotations === undefined || JSON.stringify(annotations) === JSON.stringify(SAFE), gateway.id);
  }
});
