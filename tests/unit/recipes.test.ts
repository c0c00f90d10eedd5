// CONTRIBUTING.md's recipes, followed step by step in a copy of the project: each test makes only the change its
// recipe names and shows every surface the recipe promises picks it up. (Adding a gateway: gateway-fixture*.test.ts;
// adding a checker rule: rule-unit.test.ts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { copyProject } from '../support/project-copy.ts';

test('adding a model server: its data file (from the closest one) and its flag list; the CLI and the checker know it', (t) => {
  const copy = copyProject();
  t.after(() => copy.remove());
  // Step 1: start from the closest file (SGLang's) and make it another server's: id, name, order (95: after
  // llama.cpp's 50, so listed last) and image.
  const sglang = readFileSync(new URL('../../content/model-servers/sglang.yaml', import.meta.url), 'utf8');
  const data = sglang
    .replace(/^id: sglang$/m, 'id: example-ms')
    .replace(/^name: SGLang$/m, 'name: Example MS')
    .replace(/^order: 20$/m, 'order: 95')
    .replace(/^image: lmsysorg\/sglang:latest$/m, 'image: example/ms-server:v1.2.0');
  copy.write('content/model-servers/example-ms.yaml', data);
  // Step 2: its flag list (the flags it is started with).
  copy.write(
    'content/model-servers/flags/example-ms.txt',
    readFileSync(new URL('../../content/model-servers/flags/sglang.txt', import.meta.url), 'utf8'),
  );

  const inputs = copy.node('src/cli/main.ts', 'inputs');
  assert.equal(inputs.status, 0, inputs.stderr);
  assert.match(
    inputs.stdout,
    /--model-server\n.*\n\s+allowed: one of vllm, sglang, tgi, triton, llamacpp, example-ms;/,
  );

  const generated = copy.node('src/cli/main.ts', 'generate', '--model-server', 'example-ms', '--name', 'ms');
  assert.equal(generated.status, 0, generated.stderr);
  const deployment = parseAllDocuments(generated.stdout)
    .map((d) => d.toJS())
    .find((o) => o?.kind === 'Deployment');
  const container = deployment.spec.template.spec.containers[0];
  assert.equal(container.image, 'example/ms-server:v1.2.0');
  assert.deepEqual(container.command, ['python3', '-m', 'sglang.launch_server']);

  // The checker reads what the generator wrote for the new server and finds nothing to fix.
  copy.write('ms.yaml', generated.stdout);
  const checked = copy.node('src/cli/main.ts', 'check', 'ms.yaml', '--model-server', 'example-ms');
  assert.equal(checked.status, 0, checked.stdout + checked.stderr);
  // No error and no warning: the default 788 s grace is over the autoscaler's 600 s, but the manifest carries
  // safe-to-evict "false", so the generator and the checker both give a note.
  assert.doesNotMatch(checked.stdout, /^\s+error\s/m);
  const warned = [...checked.stdout.matchAll(/^\s+warning\s+(\S+)/gm)].map((m) => m[1]);
  assert.deepEqual(warned, []);
  assert.match(checked.stdout, /^\s+info\s+grace-exceeds-autoscaler/m);
});

test('adding a serving controller: its data file (from the closest one); the checker reads its kind’s templates', (t) => {
  const copy = copyProject();
  t.after(() => copy.remove());
  // Step 1: start from Kthena's file and make it another controller's: its id, name, group and kind.
  const kthena = readFileSync(new URL('../../content/controllers/kthena.yaml', import.meta.url), 'utf8');
  const data = kthena
    .replace(/^id: kthena$/m, 'id: example-ctl')
    .replace(/^name: Kthena$/m, 'name: Example Controller')
    .replace(/^ {2}- group: workload\.serving\.volcano\.sh$/m, '  - group: serve.example.com')
    .replace(/^ {4}kind: ModelServing$/m, '    kind: Engine');
  copy.write('content/controllers/example-ctl.yaml', data);

  // One role whose entry runs vLLM 0.19.1 with no preStop; the checker reads it at the path the data gives.
  copy.write(
    'engine.yaml',
    `apiVersion: serve.example.com/v1
kind: Engine
metadata:
  name: qwen
spec:
  template:
    roles:
      - name: serve
        entryTemplate:
          spec:
            containers:
              - name: vllm
                image: vllm/vllm-openai:v0.19.1
                args: ["--model", "Qwen/Qwen3-8B"]
                resources:
                  limits:
                    nvidia.com/gpu: "1"
`,
  );
  const checked = copy.node('src/cli/main.ts', 'check', 'engine.yaml', '--format', 'json');
  const report = JSON.parse(checked.stdout);
  const preStop = report.findings.find((f: { code: string }) => f.code === 'prestop-missing');
  assert.equal(preStop?.path, 'spec.template.roles[0].entryTemplate.spec.containers[0].lifecycle');
  assert.equal(preStop?.object, 'Engine/qwen');
  const explained = copy.node('src/cli/main.ts', 'check', 'engine.yaml', '--explain');
  assert.match(explained.stdout, /^ {2}Example Controller creates each role's pods itself: /m);
});

test('adding a server without a drain profile: its data file; a CPU workload on its image is checked, not skipped', (t) => {
  const copy = copyProject();
  t.after(() => copy.remove());
  // Step 1: start from Ollama's file and make it another server's: id, name, summary and image.
  const ollama = readFileSync(new URL('../../content/other-servers/ollama.yaml', import.meta.url), 'utf8');
  const data = ollama
    .replace(/^id: ollama$/m, 'id: example-os')
    .replace(/^name: Ollama$/m, 'name: Example OS')
    .replace(/^ {2}- repository: ollama\/ollama$/m, '  - repository: example/os-server');
  copy.write('content/other-servers/example-os.yaml', data);
  copy.write(
    'os.yaml',
    `apiVersion: apps/v1
kind: Deployment
metadata:
  name: os
spec:
  replicas: 2
  selector:
    matchLabels:
      app: os
  template:
    metadata:
      labels:
        app: os
    spec:
      containers:
        - name: server
          image: registry.example.com/example/os-server:1.0
`,
  );
  const checked = copy.node('src/cli/main.ts', 'check', 'os.yaml', '--format', 'json');
  const report = JSON.parse(checked.stdout);
  const codes = report.findings.map((f: { code: string }) => f.code);
  assert.ok(codes.includes('prestop-missing') && !codes.includes('workload-skipped'), codes.join(', '));
  const note = report.findings.find((f: { code: string }) => f.code === 'model-server-unknown');
  assert.match(
    note?.message ?? '',
    /^The server container runs Example OS \(by its image; content\/other-servers\/example-os\.yaml\)/,
  );
});

/** The recipe's new input: one entry in the field table, after the last one. */
const FIELD = `  { key: 'cooldownSeconds', flag: 'cooldown-seconds', kind: 'int', group: 'rollout', label: 'Cooldown', unit: 's', min: 1, max: 90, default: 30,
    help: 'Seconds to wait after each rollout step.' },
] as const satisfies readonly FieldSpec[];`;

test('adding an input: one entry in the field table gives the flag, its range, the URL key and hitless inputs', (t) => {
  const copy = copyProject();
  t.after(() => copy.remove());
  copy.edit('src/model/fields.ts', '] as const satisfies readonly FieldSpec[];', FIELD);

  const inputs = copy.node('src/cli/main.ts', 'inputs');
  assert.equal(inputs.status, 0, inputs.stderr);
  assert.match(
    inputs.stdout,
    /--cooldown-seconds\n\s+Seconds to wait after each rollout step\.\n\s+allowed: a whole number from 1 to 90; default: 30/,
  );

  const bad = copy.node('src/cli/main.ts', 'generate', '--cooldown-seconds', '91');
  assert.equal(bad.status, 2);
  assert.equal(
    bad.stderr.trim(),
    'hitless generate: --cooldown-seconds must be a whole number from 1 to 90 (got "91")',
  );

  const good = copy.node('src/cli/main.ts', 'generate', '--cooldown-seconds', '45', '--format', 'json');
  assert.equal(good.status, 0, good.stderr);
  assert.equal((JSON.parse(good.stdout) as { inputs: Record<string, unknown> }).inputs.cooldownSeconds, 45);

  // The generator's URL: a changed value is written under the flag's name and read back; the default is left out.
  const url = copy.node(
    '--input-type=module',
    '-e',
    `import { readProfiles } from './src/facts/read-files.ts';
     import { decodeQuery, encodeQuery } from './src/model/url-state.ts';
     const profiles = readProfiles();
     const read = decodeQuery('?cooldown-seconds=45', profiles);
     console.log(JSON.stringify([read.inputs.cooldownSeconds, encodeQuery(read.inputs, profiles), encodeQuery(decodeQuery('', profiles).inputs, profiles)]));`,
  );
  assert.equal(url.status, 0, url.stderr);
  const [decoded, written, unchanged] = JSON.parse(url.stdout) as [number, string, string];
  assert.equal(decoded, 45);
  assert.match(written, /(^|&)cooldown-seconds=45(&|$)/);
  assert.doesNotMatch(unchanged, /cooldown-seconds/);
});

/** The recipe's new output form's emitter: one file with the plan's grace period. */
const EMITTER = `/** The grace-period note form: one text file with the plan's termination grace period. */
import type { Plan } from '../model/plan.ts';
import type { OutputFile } from './files.ts';

/** The form's one file. */
export function graceNoteFiles(plan: Plan): OutputFile[] {
  return [{ name: 'grace.txt', purpose: 'the grace period', text: \`terminationGracePeriodSeconds: \${plan.terminationGracePeriodSeconds}\\n\` }];
}
`;

test('adding an output form: its name in OUTPUT_FORMS, its emitter, one case in emitOutput', (t) => {
  const copy = copyProject();
  t.after(() => copy.remove());
  copy.edit('src/model/fields.ts', "'helm-values', 'lws'] as const", "'helm-values', 'lws', 'grace-note'] as const");
  copy.write('src/emit/grace-note.ts', EMITTER);
  copy.edit(
    'src/emit/output.ts',
    "import { lwsFiles } from './lws.ts';",
    "import { lwsFiles } from './lws.ts';\nimport { graceNoteFiles } from './grace-note.ts';",
  );
  copy.edit(
    'src/emit/output.ts',
    '    default: {',
    "    case 'grace-note':\n      files = graceNoteFiles(plan);\n      break;\n    default: {",
  );

  // 10 s removal + 5 s margin = 15 s preStop; 100 s longest request × 1.5 headroom = 150 s drain; + 15 s teardown.
  const run = copy.node(
    'src/cli/main.ts',
    'generate',
    '--output',
    'grace-note',
    '--removal-seconds',
    '10',
    '--max-request-seconds',
    '100',
  );
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^# File: grace\.txt: the grace period\nterminationGracePeriodSeconds: 180\n/m);

  const json = copy.node('src/cli/main.ts', 'generate', '--output', 'grace-note', '--format', 'json');
  assert.equal(json.status, 0, json.stderr);
  const files = (JSON.parse(json.stdout) as { files: { name: string }[] }).files;
  assert.deepEqual(
    files.map((f) => f.name),
    ['grace.txt'],
  );

  const bad = copy.node('src/cli/main.ts', 'generate', '--output', 'nope');
  assert.equal(bad.status, 2);
  assert.equal(
    bad.stderr.trim(),
    'hitless generate: --output must be one of bundle, patch, helm-values, lws, grace-note (got "nope")',
  );
});
