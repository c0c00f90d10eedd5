// Rule fixtures as overlays on a base manifest (tests/support/rule-fixtures.ts): what each overlay operation writes,
// worked by hand on a small base, and the overlays it refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { checkManifest } from '../../src/check/index.ts';
import { CHECK_TEST_SETTINGS, profiles } from '../support/check.ts';
import { composeFixture, isOverlay, parsePath, readShape, SHAPES_DIR } from '../support/rule-fixtures.ts';

const BASE = `# base: what the shape is.
# A second line of it.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: m
spec:
  replicas: 3 # three pods
  template:
    spec:
      containers:
        - name: proxy
          args: ["--listen=8000"]
        - name: vllm
          args: ["--model", "Qwen/Qwen3-32B", "--port", "8000"]
          resources:
            limits:
              nvidia.com/gpu: 1
          readinessProbe:
            httpGet: {path: /v1/models, port: http}
            periodSeconds: 5
---
apiVersion: inference.networking.k8s.io/v1
kind: InferencePool
metadata:
  name: m
spec:
  targetPorts:
    - number: 8000
`;
const readBase = (name: string) => {
  assert.equal(name, 'small');
  return BASE;
};
const compose = (overlay: string) => composeFixture(overlay, readBase);

test('an overlay with no changes is its base, with the overlay\u2019s header comment in place of the base\u2019s', () => {
  const body = BASE.slice(BASE.indexOf('apiVersion'));
  assert.equal(compose('# what this fixture proves.\nbase: small\n'), `# what this fixture proves.\n${body}`);
});

test('set: values by Kind/name and path, written as in the overlay; other lines, comments and styles kept', () => {
  const out = compose(`# fires.
base: small
set:
  Deployment/m:
    spec.template.spec.containers[name=vllm].args: ["--model", "Qwen/Qwen3-32B"]   # a comment of the overlay
    spec.template.spec.containers[1].resources.limits["nvidia.com/gpu"]: 2
    spec.template.spec.containers[name=vllm].readinessProbe.httpGet.path: /health
    spec.template.spec.containers[name=vllm].readinessProbe.timeoutSeconds: 1
    spec.replicas: "3"
  InferencePool/m:
    spec.targetPorts[0].number: 9000
`);
  assert.equal(
    out,
    `# fires.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: m
spec:
  replicas: "3"
  template:
    spec:
      containers:
        - name: proxy
          args: ["--listen=8000"]
        - name: vllm
          args: ["--model", "Qwen/Qwen3-32B"]
          resources:
            limits:
              nvidia.com/gpu: 2
          readinessProbe:
            httpGet: {path: /health, port: http}
            periodSeconds: 5
            timeoutSeconds: 1
---
apiVersion: inference.networking.k8s.io/v1
kind: InferencePool
metadata:
  name: m
spec:
  targetPorts:
    - number: 9000
`,
  );
});

test('null removes a key or a whole document; add appends documents, block or flow as written', () => {
  const out = compose(`# no readiness, no pool, a ConfigMap.
base: small
set:
  Deployment/m:
    spec.template.spec.containers[name=vllm].readinessProbe: null
    spec.template.spec.containers[name=vllm].resources:
      requests: {cpu: "4"}
  InferencePool/m: null
add:
  - apiVersion: v1
    kind: ConfigMap
    metadata:
      name: m-config   # not copied
    data: {note: hello}
`);
  assert.equal(
    out,
    `# no readiness, no pool, a ConfigMap.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: m
spec:
  replicas: 3 # three pods
  template:
    spec:
      containers:
        - name: proxy
          args: ["--listen=8000"]
        - name: vllm
          args: ["--model", "Qwen/Qwen3-32B", "--port", "8000"]
          resources:
            requests: {cpu: "4"}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: m-config
data: {note: hello}
`,
  );
  // Removing the first document: the next one opens the text, without a --- before it.
  assert.equal(
    compose('# the pool alone.\nbase: small\nset:\n  Deployment/m: null\n'),
    `# the pool alone.\n${BASE.slice(BASE.indexOf('---\n') + 4)}`,
  );
});

test('a whole manifest (no base) is returned as it is, byte for byte', () => {
  for (const text of [BASE, 'apiVersion: v1\r\nkind: ConfigMap\r\n', '---\nbase: small\n---\nkind: ConfigMap\n', '']) {
    assert.equal(isOverlay(text), false, text);
    assert.equal(compose(text), text);
  }
  assert.equal(isOverlay('base: small\n'), true);
  assert.equal(isOverlay('# a header.\nbase: small\n'), true);
});

test('an overlay that does not fit its base is refused with a sentence, never composed loosely', () => {
  const refuses = (overlay: string, message: RegExp) => assert.throws(() => compose(overlay), message);
  refuses('base: small\nset:\n  Deployment/other: {spec.replicas: 1}\n', /^Error: 0 documents are Deployment\/other/);
  refuses('base: small\nset:\n  Deployment: {spec.replicas: 1}\n', /Deployment is not Kind\/name/);
  refuses(
    'base: small\nset:\n  Deployment/m:\n    spec.template.spec.containers[name=sglang].args: []\n',
    /0 items have name=sglang, not one/,
  );
  assert.throws(
    () =>
      composeFixture(
        'base: small\nset:\n  Deployment/m:\n    spec.template.spec.containers[name=vllm].args: []\n',
        () => BASE.replace('name: proxy', 'name: vllm'),
      ),
    /2 items have name=vllm, not one/,
  );
  refuses(
    'base: small\nset:\n  Deployment/m:\n    spec.template.spec.containers[image=undefined].args: []\n',
    /0 items have image=undefined/,
  );
  refuses('base: small\nset:\n  Deployment/m: {spec.strategy: null}\n', /Deployment\/m has no spec.strategy to remove/);
  refuses('base: small\nset:\n  Deployment/m: {spec..replicas: 1}\n', /cannot read the path spec..replicas/);
  refuses('base: small\nset:\n  Deployment/m: [spec.replicas]\n', /neither a map of paths nor null/);
  refuses('base: small\nremove:\n  Deployment/m: null\n', /an overlay has base, set and add, not remove/);
  refuses('base: small\nadd:\n  kind: ConfigMap\n', /add is not a list of documents/);
  refuses(
    'base: small\nset:\n  Deployment/m: {spec.containers[name=vllm].args: []}\n',
    /the overlay is not valid YAML/,
  );
  assert.throws(() => composeFixture('base: no-such-shape\n'), /no base manifest named no-such-shape/);
  assert.throws(() => composeFixture('base: ../shapes/deployment-vllm\n'), /no base manifest named/);
});

test('paths: keys, indexes, key=value items and quoted keys', () => {
  assert.deepEqual(parsePath('spec.containers[name=vllm].resources.limits["nvidia.com/gpu"]'), [
    'spec',
    'containers',
    { key: 'name', value: 'vllm' },
    'resources',
    'limits',
    'nvidia.com/gpu',
  ]);
  assert.deepEqual(parsePath('spec.targetPorts[0].number'), ['spec', 'targetPorts', 0, 'number']);
  assert.throws(() => parsePath('.spec'), /cannot read the path/);
  assert.throws(() => parsePath('spec[name=a'), /cannot read the path/);
});

test('each base manifest is a whole manifest with a comment saying what it is, and checks as it says', () => {
  // At the default gateway (GKE), a pool without its GCPBackendPolicy is reported; deployment-vllm-gke has it.
  const expected: Record<string, string[]> = {
    'deployment-vllm': ['gateway-policy-missing'],
    'deployment-vllm-gke': [],
    'lws-vllm': ['gateway-policy-missing'],
  };
  const names = readdirSync(SHAPES_DIR)
    .filter((n) => n.endsWith('.yaml'))
    .map((n) => n.slice(0, -'.yaml'.length));
  assert.deepEqual(names.sort(), Object.keys(expected));
  for (const name of names) {
    const text = readShape(name);
    assert.equal(text, readFileSync(new URL(`${name}.yaml`, SHAPES_DIR), 'utf8'));
    assert.ok(text.startsWith(`# ${name}: `), name);
    assert.equal(isOverlay(text), false, name);
    const result = checkManifest(text, CHECK_TEST_SETTINGS, profiles);
    assert.ok(result.ok, name);
    assert.deepEqual(
      result.report.findings.map((f) => f.code),
      expected[name],
      name,
    );
  }
});
