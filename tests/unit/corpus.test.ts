// The real-world corpus (issue 30 item 7): workloads written for these tests in the shapes of public manifests
// (tests/fixtures/corpus/, each file's header names the public file it follows). For each one, the invariants
// every fix must keep, worked out by reading the fixture (which server at which release, which pods are
// multi-node workers, what a controller adds), not by asking the checker:
//   1. no crash: a finding, a clean result or a reported problem, never a throw;
//   2. after the fix, every lifecycle hook and every probe has exactly one handler;
//   3. a drain flag is added only to a container whose server and release have it (`flags` below);
//   4. no readiness probe is added to a multi-node worker (LWS worker template, KServe `spec.worker`, ranks > 0);
//   5. fixing the fixed manifest changes nothing;
//   6. the fixed built-in objects pass the Kubernetes schemas;
//   7. a controller CR: no hook or probe gets a second handler once merged with what its controller adds; a
//      serving CR the checker cannot read comes out unchanged, and a finding names it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { checkManifest } from '../../src/check/index.ts';
import { profiles } from '../support/check.ts';
import { validateDocument } from '../support/manifest-check.ts';
import {
  addedDrainFlags,
  at,
  checkAndFix,
  handlerProblems,
  handlersOf,
  HOOK_HANDLERS,
  parseDocs,
  PROBE_HANDLERS,
  readinessProbes,
} from '../support/corpus-invariants.ts';
import { CORPUS, type CorpusCase } from './corpus-cases.ts';

const DIR = new URL('../fixtures/corpus/', import.meta.url);
const files = readdirSync(DIR)
  .filter((n) => n.endsWith('.yaml'))
  .sort();
const read = (name: string) => readFileSync(new URL(name, DIR), 'utf8');
type Obj = Record<string, any>;

test('the corpus has at least 60 workloads, each in the table and citing the public file it follows', () => {
  assert.ok(files.length >= 60, `${files.length} fixtures`);
  assert.deepEqual(files, Object.keys(CORPUS).sort(), 'every fixture has a row, every row a fixture');
  for (const name of files) {
    const header = /^(#.*\n)+/.exec(read(name))?.[0] ?? '';
    assert.match(header, /^# Corpus: written for Hitless in the shape of /, name);
    // owner/repo, then the path of the file read (a line break and '# ' may come between).
    assert.match(
      header,
      /[\w.-]+\/[\w.-]+\s+(?:#\s+)?[\w./-]+\.(?:ya?ml|md|sh|tpl)\b/,
      `${name} names a repository and a path`,
    );
    assert.match(header, /commit [0-9a-f]{40}/, `${name} names the commit it read`);
  }
});

/** The API groups kubernetes-models validates. */
const BUILT_IN = new Set(['v1', 'apps/v1', 'batch/v1', 'policy/v1']);

/**
 * What the API server (and the kubelet, for a probe's named port) would refuse: validateDocument's errors, less the
 * generator's own rule that a numeric probe port be declared (Kubernetes takes any port number the server listens on).
 */
async function apiErrors(doc: Obj): Promise<string[]> {
  return (await validateDocument(doc)).filter((e) => !/: port \d+ is not a container port$/.test(e));
}

/** Pod templates whose pods are multi-node workers: declared, plus the LWS worker template beside a leader. */
function workerTemplates(doc: Obj | null, declared: string[]): string[] {
  const paths = [...declared];
  if (doc?.kind === 'LeaderWorkerSet' && at(doc, 'spec.leaderWorkerTemplate.leaderTemplate'))
    paths.push('spec.leaderWorkerTemplate.workerTemplate');
  if (doc?.kind === 'LLMInferenceService') {
    if (at(doc, 'spec.worker')) paths.push('spec.worker');
    if (at(doc, 'spec.prefill.worker')) paths.push('spec.prefill.worker');
  }
  return paths;
}

function run(name: string, c: CorpusCase) {
  const text = read(name);
  const before = parseDocs(text) as (Obj | null)[];
  const once = checkAndFix(text);
  const after = parseDocs(once.text) as (Obj | null)[];
  return { text, before, once, after, c };
}

const opts = (c: CorpusCase, n: number) => (c.todo?.[n] ? { todo: c.todo[n] } : {});

for (const name of files) {
  const c: CorpusCase = CORPUS[name] ?? {};
  test(`${name}: 1 checks without a throw`, opts(c, 1), () => {
    const text = read(name);
    const result = checkAndFix(text);
    if (c.refused)
      assert.ok(
        !result.ok || result.findings.some((f) => f.code === 'document-refused' && f.severity === 'error'),
        'the checker refuses the input, or the document, as not YAML a cluster accepts',
      );
    else assert.ok(result.ok, result.problem);
  });
  if (c.refused) continue;

  test(`${name}: 2 every hook and probe has exactly one handler after the fix`, opts(c, 2), () => {
    const { after } = run(name, c);
    assert.deepEqual(handlerProblems(after), []);
  });

  test(`${name}: 3 drain flags only where the server and release have one`, opts(c, 3), () => {
    const { before, after } = run(name, c);
    const added = addedDrainFlags(before, after);
    for (const a of added) assert.ok((c.flags ?? []).includes(a), `added ${a}; allowed: ${c.flags ?? 'none'}`);
  });

  test(`${name}: 4 no readiness probe added to a multi-node worker`, opts(c, 4), () => {
    const { before, after } = run(name, c);
    before.forEach((doc, i) => {
      for (const path of workerTemplates(doc, c.workers?.[i + 1] ?? [])) {
        assert.ok(at(doc, path), `doc ${i + 1} has ${path}`);
        assert.deepEqual(readinessProbes(at(after[i], path)), readinessProbes(at(doc, path)), `doc ${i + 1} ${path}`);
      }
    });
  });

  test(`${name}: 5 fixing the fixed manifest changes nothing`, opts(c, 5), () => {
    const { once } = run(name, c);
    assert.equal(checkAndFix(once.text).text, once.text);
  });

  test(`${name}: 6 the fixed built-in objects pass the Kubernetes schemas`, opts(c, 6), async () => {
    const { before, after } = run(name, c);
    for (const [i, doc] of after.entries()) {
      if (!doc || !BUILT_IN.has(doc.apiVersion)) continue;
      assert.deepEqual(await apiErrors(before[i] as Obj), [], `the fixture's own doc ${i + 1} is valid`);
      assert.deepEqual(await apiErrors(doc), [], `fixed doc ${i + 1} ${doc.kind}`);
    }
  });

  if (c.controller || c.unread)
    test(
      `${name}: 7 controller CRs: no second handler after the merge; unread CRs untouched and named`,
      opts(c, 7),
      () => {
        const { before, after, once } = run(name, c);
        for (const ctl of c.controller ?? []) {
          const containers: Obj[] = at(after[ctl.doc - 1], ctl.containers) as Obj[];
          assert.ok(Array.isArray(containers), `doc ${ctl.doc} has ${ctl.containers}`);
          for (const [container, adds] of Object.entries(ctl.adds)) {
            const own = containers.find((x) => x.name === container) ?? {};
            for (const [field, handler] of Object.entries(adds)) {
              const value = field === 'preStop' || field === 'postStart' ? own.lifecycle?.[field] : own[field];
              const mine = handlersOf(value, field.endsWith('Probe') ? PROBE_HANDLERS : HOOK_HANDLERS);
              const merged = new Set([...mine, handler]);
              assert.ok(merged.size === 1, `${container}.${field}: [${mine}] + the controller's ${handler}`);
            }
          }
        }
        for (const d of c.unread ?? []) {
          const doc = before[d - 1] as Obj;
          assert.ok(isDeepStrictEqual(after[d - 1], doc), `doc ${d} ${doc.kind} unchanged`);
          const named = `${doc.kind}/${doc.metadata?.name}`;
          assert.ok(
            once.findings.some((f) => f.object === named || f.message.includes(named)),
            `a finding names ${named}: ${once.findings.map((f) => `${f.code} ${f.object}`).join('; ')}`,
          );
        }
      },
    );
}

test('the invariants catch what they are for: two handlers, a flag added, a readiness probe added', () => {
  const pod = (container: string) =>
    `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: s\n    image: x\n${container}`;
  const two = parseDocs(
    pod('    lifecycle:\n      preStop:\n        sleep: {seconds: 5}\n        exec: {command: [a]}\n'),
  );
  assert.deepEqual(handlerProblems(two), ['doc1.spec.containers[0].lifecycle.preStop: handlers [sleep, exec]']);
  const none = parseDocs(pod('    readinessProbe:\n      periodSeconds: 5\n'));
  assert.deepEqual(handlerProblems(none), ['doc1.spec.containers[0].readinessProbe: handlers []']);
  const before = parseDocs(pod('    args: ["--port", "8000"]\n'));
  const after = parseDocs(pod('    args: ["--port", "8000", "--shutdown-timeout=75"]\n'));
  assert.deepEqual(addedDrainFlags(before, after), ['s --shutdown-timeout']);
  assert.deepEqual(addedDrainFlags(after, after), []);
  const probed = parseDocs(pod('    readinessProbe:\n      tcpSocket: {port: 1}\n'));
  assert.deepEqual(readinessProbes(at(probed[0], 'spec')), ['containers[0]']);
});

test('what the checker says instead of writing: ranks sharing a template, a KServe container that takes the preset\u2019s args', () => {
  const findings = (name: string) => checkManifest(read(name), {}, profiles);
  const sts = findings('statefulset-sglang-two-node.yaml');
  assert.ok(sts.ok);
  const readiness = sts.report.findings.find((f) => f.code === 'readiness-missing');
  assert.equal(readiness?.remedy, 'manual');
  assert.match(readiness!.fix!.text, /over --nnodes 2 pods of this template/);
  const kserve = findings('llmisvc-kserve-image-exec-prestop.yaml');
  assert.ok(kserve.ok);
  const flag = kserve.report.findings.find((f) => f.code === 'drain-aborts-in-flight');
  assert.equal(flag?.remedy, 'manual');
  assert.match(flag!.fix!.text, /takes its command and args from the controller's preset/);
});
