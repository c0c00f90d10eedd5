// Script files from a ConfigMap of the input. The kubelet mounts a ConfigMap volume as one file per key (or per
// `items` entry at its path), a subPath mount as that one file (Kubernetes docs, Volumes: configMap). Signals as the
// shell-swallows-sigterm rule reads them: a script file's shell forks for every command it runs, the last included
// (bash's fork suppression is for -c strings: builtins/evalstring.c); `bash -c` runs its lone last simple command
// without a fork, `sh -c` depends on which shell sh is. Settings: CHECK_TEST_SETTINGS (GKE, 10 ms per token).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, codes, fixed, only, profiles } from '../support/check.ts';
import { explainManifest } from '../../src/check/index.ts';

/** A Deployment running `command`/`args` with a ConfigMap volume, and the ConfigMap holding `script` at `key`. */
function manifest(o: {
  command: string;
  script: string;
  key?: string;
  mount?: string;
  volume?: string;
  image?: string;
  configMapNamespace?: string;
  namespace?: string;
}): string {
  const key = o.key ?? 'serve.sh';
  const data = o.script
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: m${o.namespace ? `, namespace: ${o.namespace}` : ''}}
spec:
  replicas: 2
  selector: {matchLabels: {app: m}}
  template:
    metadata: {labels: {app: m}}
    spec:
      containers:
      - name: server
        image: ${o.image ?? 'vllm/vllm-openai:v0.18.1'}
        ${o.command}
        ports: [{name: http, containerPort: 8000}]
        resources: {limits: {nvidia.com/gpu: 1}}
        volumeMounts: [${o.mount ?? '{name: scripts, mountPath: /scripts}'}]
      volumes:
      - name: scripts
        configMap: ${o.volume ?? '{name: launch}'}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: launch${o.configMapNamespace ? `, namespace: ${o.configMapNamespace}` : ''}}
data:
  ${key}: |
${data}
`;
}

const NO_EXEC = 'export VLLM_USE_V1=1\nvllm serve /models/m --port 8000';

test('bash -c "cd DIR && ./x.sh" with a subPath mount: the file starts vLLM without exec, an error on the ConfigMap key, fixed by hand', () => {
  const text = manifest({
    command: 'command: ["/bin/bash"]\n        args: ["-c", "cd /workspace && ./prefill.sh"]',
    key: 'prefill.sh',
    mount: '{name: scripts, mountPath: /workspace/prefill.sh, subPath: prefill.sh}',
    script: NO_EXEC,
  });
  const report = check(text);
  const f = only(report, 'shell-swallows-sigterm');
  assert.equal(f.severity, 'error');
  assert.equal(f.object, 'ConfigMap/launch');
  assert.equal(f.path, 'data["prefill.sh"]');
  assert.match(
    f.message,
    /^The script prefill\.sh \(key "prefill\.sh" of ConfigMap\/launch\), which the server container runs, starts vLLM \(vllm serve …\) without exec/,
  );
  assert.equal(f.remedy, 'manual');
  // The drain flag goes where the server starts: the file, by hand; the ConfigMap is never edited.
  assert.match(
    only(report, 'drain-aborts-in-flight').fix?.text ?? '',
    /^Manual: set --shutdown-timeout=75 at the end of the ‘vllm serve …’ command in the script prefill\.sh \(key "prefill\.sh" of ConfigMap\/launch\); the checker did not edit it because it is a ConfigMap's \(launch\)/,
  );
  assert.ok(fixed(text).endsWith(text.slice(text.indexOf('---'))), 'the ConfigMap is left as it was');
  assert.ok(!codes(report).includes('unknown-kind'), 'the ConfigMap was read');
  assert.ok(!codes(report).includes('model-server-unknown'), 'vLLM was recognised from the file');
});

test('bash FILE from a directory mount, the file execs vLLM with its drain flag: no signal finding, the flag is read', () => {
  const report = check(
    manifest({
      command: 'command: ["/bin/bash", "/scripts/serve.sh"]',
      script: 'set -e\nexec vllm serve /models/m --port 8000 --shutdown-timeout=75',
    }),
  );
  assert.ok(!codes(report).includes('shell-swallows-sigterm'));
  assert.ok(!codes(report).includes('drain-aborts-in-flight'), 'the flag in the file is read');
});

test('an items entry maps the key to another file name; the command runs it by path', () => {
  const report = check(
    manifest({
      command: 'command: ["/opt/launch/run.sh"]',
      mount: '{name: scripts, mountPath: /opt/launch}',
      volume: '{name: launch, items: [{key: start, path: run.sh}]}',
      key: 'start',
      script: `#!/bin/bash\n${NO_EXEC}`,
    }),
  );
  assert.equal(only(report, 'shell-swallows-sigterm').path, 'data.start');
});

test('who runs the file decides: sh -c FILE is a warning (bash as sh replaces itself, dash forks), bash -c "FILE; echo" an error', () => {
  const execs = 'exec vllm serve /models/m --port 8000 --shutdown-timeout=75';
  const sh = only(
    check(manifest({ command: 'command: ["sh", "-c", "/scripts/serve.sh"]', script: execs })),
    'shell-swallows-sigterm',
  );
  assert.equal(sh.severity, 'warning');
  assert.equal(sh.path, 'spec.template.spec.containers[0].command[2]');
  assert.match(
    sh.message,
    /bash 5\.2 \(and bash as \/bin\/sh, for a lone last command\) replaces itself with it, while dash and older bash fork/,
  );
  const child = only(
    check(manifest({ command: 'command: ["bash", "-c", "/scripts/serve.sh; echo stopped"]', script: execs })),
    'shell-swallows-sigterm',
  );
  assert.equal(child.severity, 'error');
  assert.match(child.message, /runs the script in a child process/);
  // bash -c with the file as its lone last command, or exec'd: vLLM ends up PID 1.
  for (const command of [
    'command: ["bash", "-c", "/scripts/serve.sh"]',
    'command: ["sh", "-c", "exec /scripts/serve.sh"]',
  ])
    assert.ok(!codes(check(manifest({ command, script: execs }))).includes('shell-swallows-sigterm'), command);
});

test('a ConfigMap of another namespace, or a script that traps signals, is not judged', () => {
  const other = check(
    manifest({
      command: 'command: ["/bin/bash", "/scripts/serve.sh"]',
      script: NO_EXEC,
      namespace: 'here',
      configMapNamespace: 'elsewhere',
    }),
  );
  assert.ok(!codes(other).includes('shell-swallows-sigterm'));
  assert.ok(codes(other).includes('server-invocation-unknown'), 'the command starts bash, and the file is not read');
  assert.ok(codes(other).includes('unknown-kind'));
  const trapped = check(
    manifest({
      command: 'command: ["/bin/bash", "/scripts/serve.sh"]',
      script: 'trap "kill -TERM $child" TERM\nvllm serve /models/m --port 8000 &\nchild=$!\nwait $child',
    }),
  );
  assert.ok(!codes(trapped).includes('shell-swallows-sigterm'));
});

test('--explain names the file the server starts in and does not list its ConfigMap as not read', () => {
  const text = manifest({ command: 'command: ["/bin/bash", "/scripts/serve.sh"]', script: NO_EXEC });
  const e = explainManifest(text, {}, profiles);
  if (!e.ok) assert.fail(e.problem.message);
  const evidence = JSON.stringify(e.explanation.workloads[0]);
  assert.match(evidence, /command vllm serve in the script serve\.sh \(key \\"serve\.sh\\" of ConfigMap\/launch\)/);
  assert.deepEqual(e.explanation.ignored, []);
});
