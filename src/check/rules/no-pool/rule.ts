import { defineRule } from '../rule.ts';

/**
 * A comment that states the install of GIE's inferencepool chart (`# helm install RELEASE …/inferencepool …`), as the
 * generator's bundle, lws and patch forms do: the chart creates the pool, named after the release.
 */
const STATED_INSTALL = /^#[ \t]*helm install ([a-z0-9][-a-z0-9.]*) \S*\/inferencepool[ \t]/m;

export const rule = defineRule({
  code: 'no-pool',
  order: 320,
  scope: 'manifest',
  severity: 'info',
  summary: 'Model-server workloads without an InferencePool in the input.',
  remediation: 'Add the InferencePool\u2019s manifest to the input to check its selector and ports.',
  remedy: 'manual',
  appliesTo: ({ contexts, located }) => contexts.length > 0 && located.pools.length === 0,
  check: ({ manifest }) => {
    const release = STATED_INSTALL.exec(manifest.text)?.[1];
    return [
      {
        severity: 'info',
        object: null,
        path: [],
        message: release
          ? `The input has no InferencePool: a comment states the inferencepool chart install that creates it (release ${release}), so the pool\u2019s selector and target ports were not checked; to check them, add the chart\u2019s output (helm template with the same flags) to the input.`
          : 'The input has no InferencePool, so the pool\u2019s selector and target ports were not checked; add its manifest to check them.',
      },
    ];
  },
});
