// A Helm chart template is not a manifest: the checker says so, names the first template action and how to render
// it, and `hitless check` exits 2 (cannot be checked) with no findings; Jinja chat templates in args are not Helm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { check, problem } from '../support/check.ts';

const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));
const HELM = fileURLToPath(new URL('../fixtures/helm/', import.meta.url));
const read = (name: string) => readFileSync(`${HELM}${name}`, 'utf8');
const run = (args: string[]) => spawnSync(process.execPath, [BIN, 'check', ...args], { encoding: 'utf8', cwd: HELM });

test('a chart deployment.yaml (not valid YAML as written) is named a Helm template, at its first action', () => {
  const p = problem(read('chart-deployment.yaml'));
  assert.match(
    p.message,
    /^This is a Helm template, not a Kubernetes manifest: line 6 has the template action "\{\{ include \\"server\.fullname\\" \. \}\}"/,
  );
  assert.match(p.message, /helm template RELEASE CHART -f values\.yaml \| hitless check -/);
  assert.equal(p.line, 6);
  assert.equal(p.column, 9);
});

test('a template that parses as YAML (actions quoted or in comments) is still not checked as if rendered', () => {
  const p = problem(read('chart-quoted.yaml'));
  // The first action is in the name on line 6, column 10 (after the opening quote).
  assert.match(p.message, /line 6 has the template action "\{\{ \.Release\.Name \}\}"/);
  assert.deepEqual([p.line, p.column], [6, 10]);
});

test('trim markers and keywords alone are Helm: {{- if }}, {{ end }}, {{ $x := … }}', () => {
  assert.match(
    problem('apiVersion: v1\nkind: ConfigMap\n# {{- if .Values.on }}\nmetadata: {name: x}\n').message,
    /line 3/,
  );
  assert.match(
    problem('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n# {{ end }}\n').message,
    /"\{\{ end \}\}"/,
  );
  assert.match(
    problem('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n# {{ $name := "a" }}\n').message,
    /Helm template/,
  );
});

test('a Jinja chat template in the server args is not a Helm template: the Deployment is checked', () => {
  const report = check(read('chat-template-args.yaml'));
  assert.equal(report.workloads, 1);
  assert.ok(report.findings.some((f) => f.code === 'prestop-missing'));
});

test('hitless check exits 2 on a chart template, prints the hint, and reports no finding', () => {
  const r = run(['chart-quoted.yaml']);
  assert.equal(r.status, 2, r.stdout + r.stderr);
  assert.match(r.stderr, /chart-quoted\.yaml:6:10: This is a Helm template/);
  assert.match(r.stderr, /\| hitless check -/);
  assert.doesNotMatch(r.stdout, /prestop-missing|error {2}/);
});

test('a controller\u2019s own template in a field it fills ({{.Name}}, {{ .Spec.Model.Name }}) is not Helm; Helm\u2019s objects are', () => {
  const runtime = (arg: string) =>
    `apiVersion: serving.kserve.io/v1alpha1\nkind: ServingRuntime\nmetadata:\n  name: r\nspec:\n  containers:\n    - name: kserve-container\n      image: quay.io/modh/vllm:rhoai-2.20-cuda\n      args: ['--port=8080', '${arg}']\n`;
  // KServe fills {{.Name}} when it builds the pod; the file is applied with kubectl as it is.
  assert.ok(check(runtime('--served-model-name={{.Name}}')).findings.some((f) => f.code === 'serving-kind-unread'));
  assert.ok(check(runtime('--served-model-name={{ .Spec.Model.Name }}')));
  for (const helm of ['{{ .Values.name }}', '{{ .Release.Name }}', '{{ .Chart.Name }}', '{{ $.Values.x }}'])
    assert.match(problem(runtime(`--served-model-name=${helm}`)).message, /^This is a Helm template/, helm);
});
