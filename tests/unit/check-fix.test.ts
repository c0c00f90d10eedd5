// The fixed manifest: every fix applied through the yaml Document API, the reader's comments and key order
// kept, untouched documents byte for byte, and the result checks clean.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { assertFixSound, docs, fixed, pool, vllm } from '../support/check.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');

const COMMENTED = `# Production chat model. Owner: the inference team.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: chat   # referenced by the dashboards
spec:
  replicas: 2
  template:
    metadata:
      labels: {app: chat}
    spec:
      # we raised this once already
      terminationGracePeriodSeconds: 60 # was 30
      containers:
      - name: vllm
        image: vllm/vllm-openai:v0.18.1
        args:
        - --model
        - Qwen/Qwen3-8B   # the small one
        lifecycle:
          preStop:
            sleep:
              seconds: 10 # tuned by hand
        readinessProbe: {httpGet: {path: /v1/models, port: 8000}}
        startupProbe: {httpGet: {path: /v1/models, port: 8000}, failureThreshold: 60}
        resources: {limits: {nvidia.com/gpu: 1}}
---
# a config map the checker does not read, formatted oddly on purpose
apiVersion: v1
kind: ConfigMap
metadata: { name: odd }
data: {   a:   'x'  }
`;

test('every comment of the reader is kept, including on values the fix changes', () => {
  const out = fixed(COMMENTED);
  for (const comment of [
    '# Production chat model. Owner: the inference team.',
    '# referenced by the dashboards',
    '# we raised this once already',
    '# was 30',
    '# the small one',
    '# tuned by hand',
    '# a config map the checker does not read, formatted oddly on purpose',
  ]) {
    assert.ok(out.includes(comment), `lost ${comment}`);
  }
  assert.match(out, /terminationGracePeriodSeconds: 125 # was 30/);
  assert.match(out, /seconds: 35 # tuned by hand/);
});

test('values the checker writes carry their arithmetic', () => {
  const out = fixed(COMMENTED);
  assert.match(out, /- --shutdown-timeout=75 # drain: 50s longest request × 1.5 headroom/);
  assert.match(out, /maxSurge: 0 # 0 spare GPUs < 1 per replica: replace in place/);
  assert.match(out, /progressDeadlineSeconds: 725 # 125s grace \+ 600s model load/);
});

test('key order is kept: existing keys stay where they were, new ones come after them', () => {
  const keysOf = (text: string) =>
    Object.keys((parseAllDocuments(text)[0].toJS() as any).spec.template.spec.containers[0]);
  assert.deepEqual(keysOf(COMMENTED), [
    'name',
    'image',
    'args',
    'lifecycle',
    'readinessProbe',
    'startupProbe',
    'resources',
  ]);
  assert.deepEqual(keysOf(fixed(COMMENTED)), [
    'name',
    'image',
    'args',
    'lifecycle',
    'readinessProbe',
    'startupProbe',
    'resources',
  ]);
  const topOf = (text: string) => Object.keys((parseAllDocuments(text)[0].toJS() as any).spec);
  assert.deepEqual(topOf(fixed(COMMENTED)), ['replicas', 'template', 'strategy', 'progressDeadlineSeconds']);
});

test('a document without fixes comes back byte for byte; sequences keep their indentation and flow style', () => {
  const out = fixed(COMMENTED);
  assert.ok(
    out.endsWith(
      "---\n# a config map the checker does not read, formatted oddly on purpose\napiVersion: v1\nkind: ConfigMap\nmetadata: { name: odd }\ndata: {   a:   'x'  }\n",
    ),
  );
  assert.match(out, /\n {6}containers:\n {6}- name: vllm\n/);
  assert.match(out, /labels: {app: chat}/);
});

test('the fixed manifest has none of the findings it fixed, and fixing it again changes nothing', () => {
  for (const text of [
    COMMENTED,
    fixture('gie-v1.5.0-gpu-deployment.yaml'),
    fixture('check/everything-wrong.yaml'),
    fixture('check/lws-sglang.yaml'),
    docs(
      vllm({ lifecycle: '', readiness: '', startup: '', strategy: '', grace: '', args: '', progressDeadline: '' }),
      pool('app: x', '9000'),
    ),
  ]) {
    assertFixSound(text);
  }
});

test('the GIE reference settings are fixed with --shutdown-timeout=75, a 35 s sleep and an in-place strategy', () => {
  const out = fixed(fixture('gie-v1.5.0-gpu-deployment.yaml'));
  assert.match(out, /- "8000"\n {8}- --shutdown-timeout=75 # drain: 50s longest request × 1.5 headroom\n/);
  assert.match(out, /seconds: 35 # 30s removal p99 \+ 5s margin/);
  assert.match(out, /terminationGracePeriodSeconds: 130\n/, 'a grace period above the plan\u2019s is kept');
  assert.match(out, /command: \["python3", "-m", "vllm.entrypoints.openai.api_server"\]/, 'flow lists stay compact');
});

test('a manifest without findings to fix is returned as it was', () => {
  const text = docs(vllm(), pool());
  assert.equal(fixed(text), text);
});

test('a fix whose path goes through a YAML alias is not written, and the anchor is left alone', async () => {
  const { checkManifest, fixManifest } = await import('../../src/check/index.ts');
  const { profiles } = await import('../support/check.ts');
  const text = vllm({ grace: '' })
    .replace('      containers:\n', '      containers: *servers\n')
    .replace(/ {8}- name: vllm[\s\S]*$/, '')
    .replace(
      'apiVersion: apps/v1\n',
      `apiVersion: apps/v1\nx-servers: &servers\n${vllm().split('      containers:\n')[1].replace(/^ {6}/gm, '')}`,
    );
  const settings = { 'tpot-ms': '10' }; // the 75 s drain the aliased --shutdown-timeout=75 was written for
  const result = checkManifest(text, settings, profiles);
  assert.ok(result.ok);
  const out = fixManifest(result.manifest, result.report.findings);
  assert.ok(out.edits > 0, 'the grace period, outside the alias, is written');
  assert.equal(out.skipped, 0, 'no fix inside the containers was needed here');
  const broken = text.replace('seconds: 35', 'seconds: 5');
  const again = checkManifest(broken, settings, profiles);
  assert.ok(again.ok);
  const fixedBroken = fixManifest(again.manifest, again.report.findings);
  assert.equal(fixedBroken.skipped, 1, 'the preStop fix is inside the aliased containers');
  assert.match(fixedBroken.text, /seconds: 5\n/, 'the anchor keeps its value');
  assert.match(fixedBroken.text, /containers: \*servers/);
});
