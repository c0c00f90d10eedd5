// Kubernetes' $(VAR) expansion of command and args, as the kubelet applies it (issue #30, item 3). The expected
// texts are written by hand from the rules in Kubernetes' API reference for Container.args: `$(NAME)` becomes the
// variable's value, `$$` becomes `$`, a reference to an undefined name stays as written; env values expand against
// the entries before them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envValues, expand } from '../../src/check/workload/env-expansion.ts';
import { check, codes, fixed, only, vllm } from '../support/check.ts';

const env = (entries: Record<string, unknown>[]) => envValues({ env: entries });

test('expand: a defined name is replaced, $$ is one $, an unknown name and a non-reference stay as written', () => {
  const values = env([
    { name: 'A', value: 'qwen' },
    { name: 'N', value: '5' },
  ]);
  const e = expand('--model=$(A) --x=$(N)0', values);
  assert.equal(e.text, '--model=qwen --x=50');
  assert.equal(e.known, true);
  assert.equal(e.changed, true);
  const escaped = expand('$$(A) $$HOME $HOME ${A} $(A', values);
  assert.equal(escaped.text, '$(A) $HOME $HOME ${A} $(A');
  assert.equal(escaped.known, true);
  const unknown = expand('--x=$(MISSING)', values);
  assert.equal(unknown.text, '--x=$(MISSING)');
  assert.equal(unknown.known, false);
  assert.equal(expand('plain', values).changed, false);
});

test('envValues: values expand against earlier entries only; valueFrom is decided at run time', () => {
  const values = env([
    { name: 'A', value: 'a' },
    { name: 'B', value: '$(A)-b-$(C)' },
    { name: 'C', value: 'c' },
    { name: 'D', value: '$(A)$(C)' },
    { name: 'S', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
    { name: 'E' },
  ]);
  // B refers to C before C is defined: that reference is unknown, so B is too.
  assert.equal(values.get('B'), undefined);
  assert.equal(values.has('B'), true);
  assert.equal(values.get('D'), 'ac');
  assert.equal(values.get('S'), undefined);
  assert.equal(values.get('E'), '');
});

test('expand: offsets in the expanded text map back to the item as written, not into a substituted value', () => {
  const values = env([{ name: 'M', value: 'qwen' }]);
  const item = 'a $$X $(M) b';
  // expanded: 'a $X qwen b'  (offsets: a=0, $X=2..4, qwen=5..9, b=10)
  const e = expand(item, values);
  assert.equal(e.text, 'a $X qwen b');
  assert.equal(e.toSource(0), 0);
  assert.equal(e.toSource(2), 2); // the $ of $$X
  assert.equal(e.toSource(4), 5); // after $X: after $$X as written
  assert.equal(e.toSource(5), 6); // the start of qwen: the start of $(M)
  assert.equal(e.toSource(9), 10); // the end of qwen: the end of $(M)
  assert.equal(e.toSource(7), undefined); // inside qwen
  assert.equal(e.toSource(11), 12); // the end of the item
});

const withEnv = (entries: string, args: string) => vllm({ args: `env: ${entries}\n          args: [${args}]` });

test('a model named by $(VAR) is read as the variable holds it, not reported as out of range', () => {
  const text = withEnv(
    '[{name: MODEL_ID, value: Qwen/Qwen3-8B}]',
    '"--model=$(MODEL_ID)", "--port", "8000", "--shutdown-timeout=75"',
  );
  const report = check(text);
  assert.equal(report.inputs.model, 'Qwen/Qwen3-8B');
  assert.ok(!codes(report).includes('value-out-of-range'));
});

test('a drain flag whose value comes from an env value is read, and its fix says to change the variable', () => {
  const text = withEnv('[{name: DRAIN, value: "40"}]', '"--model", "Qwen/Qwen3-32B", "--shutdown-timeout=$(DRAIN)"');
  const f = only(check(text), 'drain-flag-too-short');
  // 40 s read from DRAIN, below the 50 s longest request of the test settings: an error on read values.
  assert.equal(f.severity, 'error');
  assert.match(f.message, /drains for at most 40s/);
  assert.equal(f.remedy, 'manual');
  assert.match(
    f.fix!.text,
    /comes from \$\(DRAIN\), which the kubelet fills in from the container’s env: change DRAIN’s value/,
  );
  // Nothing is rewritten: the item still refers to the variable.
  assert.match(fixed(text), /"--shutdown-timeout=\$\(DRAIN\)"/);
});

test('a drain flag from a valueFrom variable cannot be read: a note that names the variable, no error', () => {
  const text = withEnv(
    '[{name: DRAIN, valueFrom: {configMapKeyRef: {name: c, key: k}}}]',
    '"--model", "Qwen/Qwen3-32B", "--shutdown-timeout", "$(DRAIN)"',
  );
  const report = check(text);
  assert.ok(!codes(report).includes('drain-flag-too-short'));
  assert.ok(!codes(report).includes('drain-aborts-in-flight'));
  assert.match(
    only(report, 'value-unreadable').message,
    /^--shutdown-timeout takes its value from \$\(DRAIN\), which the pod gets only when it starts/,
  );
});

test('a script: the kubelet expands $(VAR) and $$ before the shell; fixes land at the right places as written', () => {
  const text = vllm({
    command:
      'env: [{name: MODEL, value: Qwen/Qwen3-32B}]\n          command: ["/bin/sh", "-c", "echo $$HOME; vllm serve $(MODEL) --port $${PORT:-8000}"]',
    args: '',
  });
  const report = check(text);
  assert.equal(report.inputs.model, 'Qwen/Qwen3-32B');
  assert.ok(codes(report).includes('shell-swallows-sigterm'));
  assert.ok(codes(report).includes('drain-aborts-in-flight'));
  // exec before vllm, the flag after the last word ($${PORT:-8000}): offsets as written, both `$$` kept.
  assert.match(
    fixed(text),
    /command: \["\/bin\/sh", "-c", "echo \$\$HOME; exec vllm serve \$\(MODEL\) --port \$\$\{PORT:-8000\} --shutdown-timeout=75"\]/,
  );
});

test('a script whose server words come from a variable is read but not edited inside the value', () => {
  const text = vllm({
    command:
      'env: [{name: START, value: "vllm serve Qwen/Qwen3-32B --shutdown-timeout=75"}]\n          command: ["sh", "-c", "$(START)"]',
    args: '',
  });
  const report = check(text);
  // The shell runs `vllm serve … --shutdown-timeout=75` (the kubelet put it in place): the drain is read.
  assert.ok(!codes(report).includes('drain-aborts-in-flight'));
  const swallow = only(report, 'shell-swallows-sigterm');
  assert.equal(swallow.remedy, 'manual');
  assert.match(swallow.fix!.text, /its first word comes from a \$\(VAR\)/);
});
