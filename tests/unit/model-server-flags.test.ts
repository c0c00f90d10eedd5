// Every flag the generator passes a model server is one that server has at the release the data names: each
// server's flag list is kept as data (content/model-servers/flags/<id>.txt, with its source), and every emitted
// command line, for every model server × gateway and 1 or 8 GPUs per replica, is read against it. The emitted
// bundle also validates (kubernetes-models and the project's schemas) and checks with no error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { manifestOf, profiles } from '../support/drain.ts';
import { manifestErrors } from '../support/manifest-check.ts';
import { check } from '../support/check.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { plan } from '../../src/model/plan.ts';
import { emitOutput } from '../../src/emit/output.ts';
import { readOutputFacts } from '../../src/facts/read-output-files.ts';

interface FlagList {
  flags: Set<string>;
  header: Record<string, string>;
}

function readFlagList(id: string): FlagList {
  const text = readFileSync(new URL(`../../content/model-servers/flags/${id}.txt`, import.meta.url), 'utf8');
  const header: Record<string, string> = {};
  const flags = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^# (coverage|repo|tag|path): (.+)$/.exec(line);
    if (m) header[m[1]] = m[2];
    else if (line.trim() && !line.startsWith('#')) flags.add(line.trim());
  }
  return { flags, header };
}

/** The flags in a command line (a word starting with `-`; `--flag=value` counts as `--flag`) that the list lacks. */
function unknownFlags(args: readonly string[], list: FlagList): string[] {
  return args
    .filter((a) => a.startsWith('-'))
    .map((a) => a.split('=')[0])
    .filter((flag) => !list.flags.has(flag));
}

function deploymentOf(text: string): Record<string, any> {
  return parseAllDocuments(text)
    .map((d) => d.toJS())
    .find((d) => d.kind === 'Deployment');
}

test('each model server has a flag list with its source (repo, tag or commit, path) and its coverage', () => {
  for (const server of profiles.modelServers) {
    const list = readFlagList(server.id);
    for (const key of ['coverage', 'repo', 'tag', 'path']) assert.ok(list.header[key], `${server.id}: ${key} missing`);
    assert.match(list.header.coverage, /^(full|emitted)$/, server.id);
    for (const flag of list.flags) assert.match(flag, /^--?[a-z][a-z0-9-]*$/, `${server.id}: ${flag}`);
  }
  // The full lists were read from the parser at the tag: spot-check names that must and must not be there.
  assert.ok(readFlagList('tgi').flags.has('--graceful-termination-timeout'));
  assert.ok(readFlagList('tgi').flags.has('--num-shard'));
  assert.ok(!readFlagList('tgi').flags.has('--tensor-parallel-size'));
  assert.ok(readFlagList('triton').flags.has('--exit-timeout-secs'));
  assert.ok(readFlagList('triton').flags.has('--model-repository'));
  assert.ok(!readFlagList('triton').flags.has('--exit-timeout-seconds'));
});

test('the flag check rejects a misspelled or unknown flag', () => {
  const vllm = readFlagList('vllm');
  assert.deepEqual(unknownFlags(['--model', 'm', '--tensor-parallel-size', '8', '--shutdown-timeout=738'], vllm), []);
  assert.deepEqual(unknownFlags(['--model', 'm', '--tensor-paralel-size', '8'], vllm), ['--tensor-paralel-size']);
  assert.deepEqual(unknownFlags(['--shutdown-timeout-seconds=738'], vllm), ['--shutdown-timeout-seconds']);
  assert.deepEqual(unknownFlags(['--num-shard', '8'], readFlagList('sglang')), ['--num-shard']);
});

for (const gpus of [1, 8]) {
  for (const server of profiles.modelServers) {
    test(`${server.id} with ${gpus} GPU(s) per replica: known flags on every gateway, a valid bundle, no check error`, async () => {
      const list = readFlagList(server.id);
      for (const gateway of profiles.gateways) {
        const raw = { gateway: gateway.id, 'model-server': server.id, 'gpus-per-replica': gpus, 'tpot-ms': 10 };
        const text = manifestOf(raw);
        const container = deploymentOf(text).spec.template.spec.containers[0];
        const label = `${server.id} + ${gateway.id}, ${gpus} GPU(s)`;
        assert.deepEqual(unknownFlags(container.args, list), [], label);
        const { errors } = await manifestErrors(text);
        assert.deepEqual(errors, [], `${label}: ${errors.join('; ')}`);
        const report = check(text, { gateway: gateway.id, 'gpus-per-replica': String(gpus) });
        assert.equal(
          report.counts.error,
          0,
          `${label}: ${report.findings
            .filter((f) => f.severity === 'error')
            .map((f) => f.message)
            .join('; ')}`,
        );
      }
    });
  }
}

test('--gpus-per-replica 8 gives each server its tensor-parallel flag at 8 (Triton and llama.cpp have none) and /dev/shm in memory', () => {
  const expected: Record<string, [string, string] | undefined> = {
    vllm: ['--tensor-parallel-size', '8'],
    sglang: ['--tp-size', '8'],
    tgi: ['--num-shard', '8'],
    triton: undefined,
    llamacpp: undefined,
  };
  const ids = profiles.modelServers.map((m) => m.id);
  assert.deepEqual(Object.keys(expected).sort(), ids.sort(), 'add a row for each model server');
  for (const server of profiles.modelServers) {
    const pod = deploymentOf(manifestOf({ 'model-server': server.id, 'gpus-per-replica': 8 })).spec.template.spec;
    const args: string[] = pod.containers[0].args;
    const pair = expected[server.id];
    if (pair) assert.equal(args[args.indexOf(pair[0]) + 1], pair[1], server.id);
    else assert.ok(!args.some((a) => /tensor-parallel|tp-size|num-shard/.test(a)), server.id);
    assert.deepEqual(pod.volumes[0], { name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } }, server.id);
    assert.deepEqual(pod.containers[0].volumeMounts[0], { name: 'shm', mountPath: '/dev/shm' }, server.id);
    assert.deepEqual(pod.containers[0].resources.limits, { 'nvidia.com/gpu': 8 }, server.id);
    // 4 CPUs and 32Gi per GPU × 8 = 32 CPUs and 256Gi, + 1Gi for /dev/shm.
    assert.deepEqual(pod.containers[0].resources.requests, { cpu: '32', memory: '257Gi' }, server.id);
  }
  const text = manifestOf({ 'gpus-per-replica': 8 });
  assert.match(text, /- "8" # gpus-per-replica: vLLM shards the model over the pod's 8 GPUs\n/);
  assert.match(text, /cpu: "32" # estimate: 4 per GPU × 8\n/);
  assert.match(text, /# CPU and memory requests are estimates, not measurements: size them/);
});

test('llama.cpp gets a GGUF repository through -hf, never a Hugging Face id through --model', () => {
  const args: string[] = deploymentOf(manifestOf({ 'model-server': 'llamacpp' })).spec.template.spec.containers[0].args;
  assert.ok(!args.includes('--model') && !args.includes('-m'), args.join(' '));
  assert.equal(args[args.indexOf('-hf') + 1], 'Qwen/Qwen3-32B-GGUF:Q4_K_M');
  assert.equal(args[args.indexOf('--n-gpu-layers') + 1], '999');
  // A model the reader gives goes to -hf as given.
  const given: string[] = deploymentOf(manifestOf({ 'model-server': 'llamacpp', model: 'org/Other-GGUF:Q8_0' })).spec
    .template.spec.containers[0].args;
  assert.equal(given[given.indexOf('-hf') + 1], 'org/Other-GGUF:Q8_0');
});

test('Triton mounts its model repository at /models from a claim, read-only, and says what goes there', () => {
  const text = manifestOf({ 'model-server': 'triton', name: 'trt' });
  const pod = deploymentOf(text).spec.template.spec;
  assert.ok(pod.containers[0].args.includes('--model-repository=/models'));
  assert.deepEqual(pod.containers[0].volumeMounts[1], {
    name: 'model-repository',
    mountPath: '/models',
    readOnly: true,
  });
  assert.deepEqual(pod.volumes[1], {
    name: 'model-repository',
    persistentVolumeClaim: { claimName: 'trt-model-repository', readOnly: true },
  });
  assert.match(
    text,
    /# tritonserver --model-repository=\/models exits at startup when \/models holds no model repository\. .*config\.pbtxt/,
  );
});

test('SGLang\u2019s /health is a cheap check: the generation-based health check is turned off, and the manifest says why', () => {
  const text = manifestOf({ 'model-server': 'sglang' });
  const container = deploymentOf(text).spec.template.spec.containers[0];
  assert.deepEqual(container.env, [{ name: 'SGLANG_ENABLE_HEALTH_ENDPOINT_GENERATION', value: 'false' }]);
  assert.equal(container.readinessProbe.httpGet.path, '/health');
  assert.match(
    text,
    /# SGLANG_ENABLE_HEALTH_ENDPOINT_GENERATION=false: .*marks the server unhealthy, and a SIGTERM then exits at once instead of draining/,
  );
});

test('TGI gets its drain flag, from the release the preset image runs (3.3.5 ≥ 3.2.2)', () => {
  // gke defaults at 10 ms per token: 4096 × 10 ms × 1.2 = 49.152 → 50 s; × 1.5 = 75 s drain.
  const args: string[] = deploymentOf(manifestOf({ 'model-server': 'tgi', 'tpot-ms': 10 })).spec.template.spec
    .containers[0].args;
  assert.ok(args.includes('--graceful-termination-timeout=75'), args.join(' '));
});

test('the lws form passes each server only flags its list names, in the leader\u2019s and the workers\u2019 commands', () => {
  const facts = readOutputFacts();
  for (const server of profiles.modelServers.filter((m) => facts.lws.multiNode[m.id])) {
    const { inputs, errors } = resolveInputs(
      { output: 'lws', 'model-server': server.id, 'nodes-per-replica': '2', 'gpus-per-replica': '16' },
      profiles,
    );
    assert.deepEqual(errors, [], server.id);
    const text = emitOutput(plan(inputs, profiles), inputs, profiles, facts).text;
    const set = parseAllDocuments(text)
      .map((d) => d.toJS())
      .find((d) => d.kind === 'LeaderWorkerSet');
    // The lws form's servers (vLLM, SGLang) have a command in their data files.
    const program = server.command!.join(' ');
    for (const template of ['leaderTemplate', 'workerTemplate']) {
      const shell: string = set.spec.leaderWorkerTemplate[template].spec.containers[0].command[2];
      const at = shell.indexOf(program);
      // vLLM's workers run only Ray (ray start), not the server: their flags are Ray's.
      if (at < 0) continue;
      const words = shell.slice(at + program.length).split(/\s+/);
      assert.deepEqual(unknownFlags(words, readFlagList(server.id)), [], `${server.id} ${template}: ${shell}`);
    }
  }
});
