import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'pool-api-removed',
  order: 240,
  scope: 'manifest',
  severity: 'info',
  summary: 'An InferencePool in the removed inference.networking.x-k8s.io API.',
  remediation: 'Move the pool to inference.networking.k8s.io/v1 (spec.selector.matchLabels, spec.targetPorts).',
  remedy: 'manual',
  check: ({ located }) =>
    located.pools
      .filter((pool) => !pool.current)
      .map((pool) => ({
        severity: 'info' as const,
        object: pool.object,
        path: ['apiVersion'],
        message:
          `${pool.object.apiVersion} InferencePools were removed from the Gateway API Inference Extension (v1.5.0 serves only inference.networking.k8s.io/v1): `
          + 'move to v1, where the selector is spec.selector.matchLabels and the port spec.targetPorts.',
      })),
});
