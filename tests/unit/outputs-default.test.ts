// Every gateway × model server × output form with the other inputs at their defaults (#31): the output is
// schema-valid, every reference in it resolves to an object in the output or to the install it states, and it
// carries no warning of Hitless's own that the output could have resolved itself.
//
// What GIE's inferencepool chart v1.5.0 creates when installed as release R (read in its templates at v1.5.0:
// config/charts/inferencepool/templates/inferencepool.yaml, epplib/templates/_service.yaml and _helpers.tpl): the
// InferencePool R, and the Endpoint Picker Service `<R cut to 40 characters>-epp`, with its Deployment, ServiceAccount
// and RBAC. Written out here by hand, not read from content/outputs/gie-inferencepool.yaml.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAllDocuments } from 'yaml';
import { PodTemplateSpec } from 'kubernetes-models/v1/PodTemplateSpec';
import { plan } from '../../src/model/plan.ts';
import { resolveInputs } from '../../src/model/resolve.ts';
import { emitOutput } from '../../src/emit/output.ts';
import { OUTPUT_FORMS } from '../../src/model/fields.ts';
import { readOutputFacts } from '../../src/facts/read-output-files.ts';
import { validateDocument } from '../support/manifest-check.ts';
import { validateSchema } from '../support/structural-schema.ts';
import { profiles } from '../support/generate.ts';
import { leaderWorkerSetSchema } from '../fixtures/charts/lws-v0.10.0.ts';

type Obj = Record<string, any>;

const facts = readOutputFacts();

/** The servers the lws form has a multi-node launch for; for the others the form is refused by design. */
const LWS_SERVERS = new Set(['vllm', 'sglang']);

/** The chart install an output states at its top, as the reader would run it. */
const INSTALL =
  /^# {1,3}helm install ([a-z0-9-]+) oci:\/\/registry\.k8s\.io\/gateway-api-inference-extension\/charts\/inferencepool --version v1\.5\.0 /m;

/**
 * Plan warnings that an output can resolve by what it writes: the autoscaler limit (the safe-to-evict annotation).
 * The others are facts the output cannot change: a server that does not drain (no-drain), the reader's own load
 * balancer (removal-example, health-check-only), and the timeout of the reader's HTTPRoute (route-timeout-default,
 * route-timeout-unsupported), which no form writes yet.
 */
const RESOLVABLE = new Set(['grace-exceeds-autoscaler']);

function outputOf(gateway: string, server: string, output: string) {
  const { inputs, errors } = resolveInputs({ gateway, 'model-server': server, output }, profiles);
  assert.deepEqual(errors, []);
  const planned = plan(inputs, profiles);
  const out = emitOutput(planned, inputs, profiles, facts);
  const docs = out.files.flatMap((file) =>
    parseAllDocuments(file.text).map((d) => ({ file: file.name, doc: d.toJS() as Obj })),
  );
  return { inputs, planned, out, docs };
}

/** The objects the stated chart install creates (see the top of this file). */
function installed(text: string, namespace: string): Obj[] {
  const release = INSTALL.exec(text)?.[1];
  if (!release) return [];
  return [
    { kind: 'InferencePool', metadata: { name: release, namespace } },
    { kind: 'Service', metadata: { name: `${release.slice(0, 40)}-epp`, namespace } },
  ];
}

/** The labels of the serving pods the output writes: a Deployment's template, or a LeaderWorkerSet's leaders. */
function servingPodLabels(docs: Obj[]): Obj[] {
  return docs.flatMap((d) =>
    d.kind === 'Deployment' && d.spec?.template?.metadata?.labels
      ? [d.spec.template.metadata.labels]
      : d.kind === 'LeaderWorkerSet'
        ? [d.spec.leaderWorkerTemplate.leaderTemplate.metadata.labels]
        : [],
  );
}

const selects = (selector: Obj, labels: Obj) => Object.entries(selector).every(([k, v]) => labels[k] === v);

/** Each reference that does not resolve, as text. Patch files (partial objects) are not objects of their own. */
function unresolved(docs: Obj[], text: string, namespace: string): string[] {
  const objects = [...docs, ...installed(text, namespace)];
  const has = (kind: string, name: string) =>
    objects.some(
      (o) => o.kind === kind && o.metadata?.name === name && (o.metadata?.namespace ?? namespace) === namespace,
    );
  const problems: string[] = [];
  const pods = servingPodLabels(docs);
  for (const d of docs) {
    const ref = d.spec?.targetRef;
    if (ref && !has(ref.kind, ref.name))
      problems.push(`${d.kind} ${d.metadata.name}: targetRef ${ref.kind} ${ref.name}`);
    if (d.kind === 'InferencePool') {
      const picker = d.spec.endpointPickerRef?.name;
      if (!has('Service', picker))
        problems.push(`InferencePool ${d.metadata.name}: endpointPickerRef Service ${picker}`);
      if (!pods.some((labels) => selects(d.spec.selector.matchLabels, labels)))
        problems.push(`InferencePool ${d.metadata.name}: selector selects no pod the output writes`);
    }
    if (d.kind === 'PodDisruptionBudget' && d.spec.selector.matchLabels.app !== undefined && pods.length > 0)
      if (!pods.some((labels) => selects(d.spec.selector.matchLabels, labels)))
        problems.push(`PodDisruptionBudget ${d.metadata.name}: selector selects no pod the output writes`);
    for (const rule of d.kind === 'HTTPRoute' ? d.spec.rules : [])
      for (const backend of rule.backendRefs ?? [])
        if (!has(backend.kind ?? 'Service', backend.name))
          problems.push(`HTTPRoute ${d.metadata.name}: backendRef ${backend.kind} ${backend.name}`);
  }
  return problems;
}

/** Schema errors of the whole objects an output writes (kustomize patches and chart values are not objects). */
async function schemaErrors(docs: { file: string; doc: Obj }[]): Promise<string[]> {
  const errors: string[] = [];
  for (const { file, doc } of docs) {
    if (
      file === 'values.yaml'
      || file === 'kustomization.yaml'
      || file.startsWith('drain-patch')
      || file === 'drain-flag.yaml'
    )
      continue;
    if (doc.kind === 'LeaderWorkerSet') {
      const emptied = structuredClone(doc);
      emptied.spec.leaderWorkerTemplate.leaderTemplate = {};
      emptied.spec.leaderWorkerTemplate.workerTemplate = {};
      errors.push(...validateSchema(emptied, leaderWorkerSetSchema));
      for (const role of ['leaderTemplate', 'workerTemplate'])
        try {
          new PodTemplateSpec(doc.spec.leaderWorkerTemplate[role]).validate();
        } catch (error) {
          errors.push(`${role}: ${String(error)}`);
        }
      continue;
    }
    errors.push(...(await validateDocument(doc)).map((e) => `${file} ${doc.kind} ${doc.metadata?.name}: ${e}`));
  }
  return errors;
}

for (const output of OUTPUT_FORMS) {
  for (const gateway of profiles.gateways) {
    for (const server of profiles.modelServers) {
      if (output === 'lws' && !LWS_SERVERS.has(server.id)) continue;
      const label = `${output}: ${gateway.id} + ${server.id}, defaults`;
      test(`${label}: schema-valid, and no warning it could resolve`, async () => {
        const { planned, docs } = outputOf(gateway.id, server.id, output);
        assert.deepEqual(await schemaErrors(docs), []);
        const resolvable = planned.warnings.filter((w) => w.severity !== 'info' && RESOLVABLE.has(w.code));
        assert.deepEqual(resolvable, []);
        // 788 s (768 s on Istio) grace > 600 s: the pods carry the annotation that resolves the autoscaler limit.
        if (planned.terminationGracePeriodSeconds > 600) {
          const templates = docs.flatMap(({ doc }) =>
            doc.kind === 'LeaderWorkerSet'
              ? [doc.spec.leaderWorkerTemplate.leaderTemplate, doc.spec.leaderWorkerTemplate.workerTemplate]
              : doc.kind === 'Deployment' && doc.spec?.template
                ? [doc.spec.template]
                : [],
          );
          assert.ok(templates.length > 0);
          for (const t of templates)
            assert.equal(t.metadata?.annotations?.['cluster-autoscaler.kubernetes.io/safe-to-evict'], 'false');
        }
      });
      test(`${label}: every reference resolves`, () => {
        const { inputs, out, docs } = outputOf(gateway.id, server.id, output);
        assert.deepEqual(
          unresolved(
            docs.filter(({ file }) => !file.startsWith('drain-patch') && file !== 'drain-flag.yaml').map((d) => d.doc),
            out.text,
            inputs.namespace,
          ),
          [],
        );
      });
    }
  }
}
