/**
 * Helpers for the checker's unit tests: the profiles, a check that must succeed, and a vLLM Deployment
 * written to the plan for GKE + vLLM at 10 ms per output token (CHECK_TEST_SETTINGS; the other inputs at their
 * defaults), worked out by hand:
 *   preStop 30 s removal p99 + 5 s margin = 35; longest request 4096 × 10 ms × 1.2 = 49.152 → 50 s;
 *   drain 50 × 1.5 = 75; grace 35 + 75 + 15 = 125; progress deadline 125 + 600 = 725;
 *   startup probe 600 s / 10 s = 60 checks; 0 spare GPUs → maxSurge 0, maxUnavailable 1.
 * Each part can be replaced (or dropped with '') to make one rule fire.
 */
import assert from 'node:assert/strict';
import {
  checkManifest,
  fixManifest,
  type CheckReport,
  type Finding,
  type InputProblem,
} from '../../src/check/index.ts';
import { readProfiles } from '../../src/facts/read-files.ts';

export const profiles = readProfiles();

/**
 * Settings every checker test starts from: 10 ms per output token, so that the hand-worked numbers stay small
 * (4096 × 10 ms × 1.2 → 50 s longest request). The other inputs a rule's error can rest on are given at their
 * defaults, so that a test's error stands on given inputs, not assumed ones (tests/unit/check-assumed.test.ts holds
 * what happens without them). A test's own settings win.
 */
export const CHECK_TEST_SETTINGS: Readonly<Record<string, string>> = {
  'tpot-ms': '10',
  'max-output-tokens': '4096',
  'startup-seconds': '600',
  'spare-gpus': '0',
  'kubernetes-version': '1.34',
};

/** Check text that must be usable; returns the report. */
export function check(text: string, settings: Record<string, string> = {}): CheckReport {
  const result = checkManifest(text, { ...CHECK_TEST_SETTINGS, ...settings }, profiles);
  if (!result.ok) assert.fail(`expected a usable manifest, got: ${result.problem.message}`);
  return result.report;
}

/** Check text that must be unusable; returns the problem. */
export function problem(text: string): InputProblem {
  const result = checkManifest(text, {}, profiles);
  if (result.ok) assert.fail(`expected a problem, got ${result.report.findings.length} findings`);
  return result.problem;
}

/** The fixed manifest for a text. */
export function fixed(text: string, settings: Record<string, string> = {}): string {
  const result = checkManifest(text, { ...CHECK_TEST_SETTINGS, ...settings }, profiles);
  if (!result.ok) assert.fail(result.problem.message);
  return fixManifest(result.manifest, result.report.findings).text;
}

/** The codes of the findings, optionally of one severity. */
export function codes(report: CheckReport, severity?: Finding['severity']): string[] {
  return report.findings.filter((f) => !severity || f.severity === severity).map((f) => f.code);
}

/** The one finding with a code (fails when there is none or more than one). */
export function only(report: CheckReport, code: string): Finding {
  const found = report.findings.filter((f) => f.code === code);
  assert.equal(found.length, 1, `expected one ${code}, got ${found.length}: ${codes(report).join(', ')}`);
  return found[0];
}

/** Codes of error and warning findings: what a clean manifest has none of. */
export function problems(report: CheckReport): string[] {
  return report.findings.filter((f) => f.severity !== 'info').map((f) => `${f.severity} ${f.code}: ${f.message}`);
}

/** The parts of the clean vLLM Deployment. */
export interface Parts {
  replicas: string;
  strategy: string;
  progressDeadline: string;
  grace: string;
  image: string;
  command: string;
  args: string;
  ports: string;
  resources: string;
  lifecycle: string;
  startup: string;
  readiness: string;
  liveness: string;
  labels: string;
}

const CLEAN: Parts = {
  replicas: 'replicas: 3',
  strategy: 'strategy:\n    type: RollingUpdate\n    rollingUpdate:\n      maxSurge: 0\n      maxUnavailable: 1',
  progressDeadline: 'progressDeadlineSeconds: 725',
  grace: 'terminationGracePeriodSeconds: 125',
  image: 'image: vllm/vllm-openai:v0.18.1',
  command: 'command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]',
  args: 'args: ["--model", "Qwen/Qwen3-32B", "--port", "8000", "--shutdown-timeout=75"]',
  ports: 'ports:\n            - name: http\n              containerPort: 8000',
  resources: 'resources:\n            limits:\n              nvidia.com/gpu: 1',
  lifecycle: 'lifecycle:\n            preStop:\n              sleep:\n                seconds: 35',
  startup:
    'startupProbe:\n            httpGet: {path: /v1/models, port: http}\n            periodSeconds: 10\n            failureThreshold: 60',
  readiness:
    'readinessProbe:\n            httpGet: {path: /v1/models, port: http}\n            periodSeconds: 5\n            failureThreshold: 3',
  liveness:
    'livenessProbe:\n            httpGet: {path: /health, port: http}\n            periodSeconds: 10\n            failureThreshold: 3',
  labels: 'labels:\n        app: m',
};

const line = (text: string, indent: string) => (text ? `${indent}${text}\n` : '');

/** The vLLM Deployment named `m`, with some parts replaced. */
export function vllm(parts: Partial<Parts> = {}): string {
  const p = { ...CLEAN, ...parts };
  return (
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: m\nspec:\n'
    + line(p.replicas, '  ')
    + line(p.strategy, '  ')
    + line(p.progressDeadline, '  ')
    + '  selector:\n    matchLabels:\n      app: m\n  template:\n    metadata:\n'
    + line(p.labels, '      ')
    + '    spec:\n'
    + line(p.grace, '      ')
    + '      containers:\n        - name: vllm\n'
    + line(p.image, '          ')
    + line(p.command, '          ')
    + line(p.args, '          ')
    + line(p.ports, '          ')
    + line(p.resources, '          ')
    + line(p.lifecycle, '          ')
    + line(p.startup, '          ')
    + line(p.readiness, '          ')
    + line(p.liveness, '          ')
  );
}

/** An InferencePool named `m` selecting `app: m` on port 8000, with the selector or port replaced. */
export function pool(selector = 'app: m', port = '8000', apiVersion = 'inference.networking.k8s.io/v1'): string {
  return (
    `apiVersion: ${apiVersion}\nkind: InferencePool\nmetadata:\n  name: m\nspec:\n  selector:\n    matchLabels:\n      ${selector}\n`
    + `  targetPorts:\n    - number: ${port}\n  endpointPickerRef:\n    name: m-epp\n    port:\n      number: 9002\n`
  );
}

/** Documents joined as one manifest. */
export const docs = (...texts: string[]) => texts.join('---\n');

/** Findings (code, object, path) whose fix was applied: the fixed manifest must have none of them left. */
function appliedFixes(report: CheckReport): string[] {
  return report.findings
    .filter((f) => f.remedy === 'applied' && f.severity !== 'info')
    .map((f) => `${f.code} ${f.object} ${f.path}`);
}

/** Assert that fixing converges and that what the fix claims to have fixed is gone when checked again. */
export function assertFixSound(text: string, settings: Record<string, string> = {}): string {
  const before = check(text, settings);
  const once = fixed(text, settings);
  assert.equal(fixed(once, settings), once, 'fix(fix(x)) == fix(x)');
  const after = check(once, settings);
  const left = new Set(after.findings.map((f) => `${f.code} ${f.object} ${f.path}`));
  assert.deepEqual(
    appliedFixes(before).filter((k) => left.has(k)),
    [],
    'a fixed finding is still reported',
  );
  return once;
}
