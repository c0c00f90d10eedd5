/**
 * Validate a generated manifest the way a cluster would read it: parse every YAML document strictly (and again
 * as YAML 1.1, which kubectl's parser speaks), validate each document by its apiVersion/kind, check that the
 * documents agree with each other, and check that the numbers are the plan's. A manifest that states a chart
 * install (`#   helm install … --set …`, the bundle's header) is checked together with the InferencePool that install
 * creates (tests/support/helm-install.ts), as the cluster would hold them.
 */
import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments } from 'yaml';
import type { Plan } from '../../src/model/plan.ts';
import { deploymentBounds, wholeNumberFields } from './deployment-bounds.ts';
import { gcpBackendPolicySchema, GKE_API_VERSION, healthCheckPolicySchema } from './gke-policy-schemas.ts';
import { INFERENCE_POOL_API_VERSION, validateInferencePool } from './inference-pool-schema.ts';
import { unknownFields } from './k8s-strict-fields.ts';
import { validateSchema } from './structural-schema.ts';
import { statedInstalls } from './helm-install.ts';
import { renderedInferencePool } from '../fixtures/charts/gie-inferencepool-v1.5.0.ts';

type Obj = Record<string, any>;

/** Parse a multi-document YAML string strictly; throws on any error or warning. */
export function parseManifest(text: string, version: '1.1' | '1.2' = '1.2'): Obj[] {
  const docs = parseAllDocuments(text, { version, strict: true, uniqueKeys: true, prettyErrors: true });
  if (!Array.isArray(docs)) throw new Error('the manifest is empty');
  return docs.map((doc, i) => {
    const problems = [...doc.errors, ...doc.warnings];
    if (problems.length > 0)
      throw new Error(`document ${i + 1} (YAML ${version}): ${problems.map((p) => p.message).join('; ')}`);
    const value = doc.toJS({ maxAliasCount: 0 });
    if (!value || typeof value !== 'object' || Array.isArray(value))
      throw new Error(`document ${i + 1} is not a mapping`);
    return value as Obj;
  });
}

/**
 * Scalars that YAML 1.1 reads differently from YAML 1.2 (`yes`, `on`, `n`, `1:20`, `0755`): kubectl and the
 * API server parse manifests with sigs.k8s.io/yaml, a YAML 1.1 parser, so such a value written unquoted turns
 * into a boolean or a number and the object is rejected (or silently changed).
 */
export function yaml11Differences(text: string, modern: Obj[] = parseManifest(text, '1.2')): string[] {
  const legacy = parseManifest(text, '1.1');
  const diffs: string[] = [];
  const walk = (a: unknown, b: unknown, path: string) => {
    if (a && b && typeof a === 'object' && typeof b === 'object') {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
        walk((a as Obj)[key], (b as Obj)[key], `${path}.${key}`);
    } else if (!isDeepStrictEqual(a, b)) {
      diffs.push(
        `${path.slice(1)}: YAML 1.2 reads ${JSON.stringify(a)}, YAML 1.1 (kubectl) reads ${JSON.stringify(b)}`,
      );
    }
  };
  modern.forEach((doc, i) => walk(doc, legacy[i], `.doc${i + 1}`));
  return diffs;
}

/** The Kubernetes built-in API groups kubernetes-models covers; objects in them are validated with it. */
const BUILT_IN_GROUPS = new Set([
  '',
  'apps',
  'batch',
  'policy',
  'autoscaling',
  'networking.k8s.io',
  'rbac.authorization.k8s.io',
  'discovery.k8s.io',
]);

async function validateBuiltIn(doc: Obj): Promise<string[] | undefined> {
  const [group, version] = String(doc.apiVersion).includes('/')
    ? String(doc.apiVersion).split('/')
    : ['', String(doc.apiVersion)];
  if (!BUILT_IN_GROUPS.has(group) || !/^[A-Za-z]+$/.test(String(doc.kind))) return undefined;
  const modelPath = `kubernetes-models/${group ? `${group}/` : ''}${version}/${doc.kind}`;
  let Model: new (data: unknown) => { validate(): void };
  try {
    Model = (await import(modelPath))[doc.kind];
  } catch {
    return undefined;
  }
  const errors: string[] = [];
  try {
    new Model(doc).validate();
  } catch (error) {
    const list = (error as { errors?: { instancePath: string; message: string }[] }).errors;
    errors.push(
      ...(list ? list.map((e) => `${e.instancePath || '(root)'}: ${e.message} (kubernetes-models)`) : [String(error)]),
    );
  }
  errors.push(...unknownFields(doc, modelPath));
  return errors;
}

/** The validators for the kinds the generator may emit, keyed by `apiVersion kind`. */
const VALIDATORS: Record<string, (doc: Obj) => string[]> = {
  [`${INFERENCE_POOL_API_VERSION} InferencePool`]: (doc) => validateInferencePool(doc),
  [`${GKE_API_VERSION} HealthCheckPolicy`]: (doc) => validateSchema(doc, healthCheckPolicySchema),
  [`${GKE_API_VERSION} GCPBackendPolicy`]: (doc) => validateSchema(doc, gcpBackendPolicySchema),
};

/** The kinds the tests have a schema for (kubernetes-models covers the built-in ones). */
export const SCHEMA_KINDS = Object.keys(VALIDATORS);

/** Validate one document by its apiVersion and kind; a kind without a schema is an error. */
export async function validateDocument(doc: Obj): Promise<string[]> {
  const key = `${doc.apiVersion} ${doc.kind}`;
  const own = VALIDATORS[key];
  if (own) return [...own(doc), ...wholeNumberFields(doc)];
  const builtIn = await validateBuiltIn(doc);
  if (builtIn)
    return doc.kind === 'Deployment' ? [...builtIn, ...deploymentBounds(doc)] : [...builtIn, ...wholeNumberFields(doc)];
  return [`no schema for ${key}: add one to tests/support/manifest-check.ts so that every emitted kind is validated`];
}

/** Checks across documents: the pool selects the Deployment's pods on its port, policies target the pool. */
function crossDocumentErrors(docs: Obj[]): string[] {
  const errors: string[] = [];
  const deployments = docs.filter((d) => d.kind === 'Deployment');
  const pools = docs.filter((d) => d.kind === 'InferencePool');
  if (deployments.length !== 1) errors.push(`expected exactly one Deployment (got ${deployments.length})`);
  if (pools.length !== 1) errors.push(`expected exactly one InferencePool (got ${pools.length})`);
  const namespaces = new Set(docs.map((d) => d.metadata?.namespace));
  if (namespaces.size !== 1) errors.push(`documents are in different namespaces: ${[...namespaces].join(', ')}`);
  const keys = new Set<string>();
  for (const d of docs) {
    const key = `${d.apiVersion} ${d.kind} ${d.metadata?.namespace}/${d.metadata?.name}`;
    if (keys.has(key)) errors.push(`duplicate object ${key}`);
    keys.add(key);
  }
  const [deployment] = deployments;
  const [pool] = pools;
  if (deployment && pool) {
    const podLabels = deployment.spec?.template?.metadata?.labels ?? {};
    for (const [k, v] of Object.entries(pool.spec?.selector?.matchLabels ?? {})) {
      if (podLabels[k] !== v)
        errors.push(`InferencePool selector ${k}=${String(v)} does not select the Deployment's pods`);
    }
    const containerPorts = new Set(
      (deployment.spec?.template?.spec?.containers ?? []).flatMap((c: Obj) =>
        (c.ports ?? []).map((p: Obj) => p.containerPort),
      ),
    );
    for (const p of pool.spec?.targetPorts ?? [])
      if (!containerPorts.has(p.number)) errors.push(`InferencePool targetPort ${p.number} is not a container port`);
  }
  const groupOf = (apiVersion: unknown) => (String(apiVersion).includes('/') ? String(apiVersion).split('/')[0] : '');
  for (const d of docs) {
    const ref = d.spec?.targetRef;
    if (!ref) continue;
    // A policy aimed at a kind this manifest writes must name an object it writes (the EPP Service, which a
    // chart deploys, is not in the manifest and is not checked).
    const sameKind = docs.filter((t) => t.kind === ref.kind && groupOf(t.apiVersion) === (ref.group ?? ''));
    if (sameKind.length > 0 && !sameKind.some((t) => t.metadata?.name === ref.name)) {
      errors.push(
        `${d.kind} ${d.metadata?.name} targets ${ref.kind} ${ref.name}, but the manifest's ${ref.kind} is ${sameKind.map((t) => t.metadata?.name).join(', ')}`,
      );
    }
  }
  return errors;
}

/** Everything wrong with a manifest text: parsing, YAML 1.1 readings, per-kind schemas, cross-document rules. */
export async function manifestErrors(text: string): Promise<{ docs: Obj[]; errors: string[] }> {
  let docs: Obj[];
  try {
    docs = parseManifest(text);
  } catch (error) {
    return { docs: [], errors: [`parse: ${(error as Error).message}`] };
  }
  const errors: string[] = [];
  let installed: Obj[];
  try {
    installed = statedInstalls(text)
      .filter((install) => install.valuesFiles.length === 0)
      .map((install) => renderedInferencePool(install.values, install.release, install.namespace ?? 'default'));
  } catch (error) {
    return { docs, errors: [`stated install: ${(error as Error).message}`] };
  }
  for (const doc of [...docs, ...installed])
    for (const e of await validateDocument(doc)) errors.push(`${doc.kind ?? '?'} ${doc.metadata?.name ?? '?'}: ${e}`);
  errors.push(...crossDocumentErrors([...docs, ...installed]));
  errors.push(...yaml11Differences(text, docs));
  return { docs, errors };
}

/** Where the plan's numbers must appear in the parsed manifest; returns each mismatch. */
export function planMismatches(docs: Obj[], plan: Plan): string[] {
  const errors: string[] = [];
  const expect = (what: string, actual: unknown, wanted: unknown) => {
    if (!isDeepStrictEqual(actual, wanted))
      errors.push(`${what}: manifest has ${JSON.stringify(actual)}, plan has ${JSON.stringify(wanted)}`);
  };
  const deployment = docs.find((d) => d.kind === 'Deployment');
  if (!deployment) return ['no Deployment'];
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  expect('terminationGracePeriodSeconds', pod.terminationGracePeriodSeconds, plan.terminationGracePeriodSeconds);
  expect('progressDeadlineSeconds', deployment.spec.progressDeadlineSeconds, plan.progressDeadlineSeconds);
  expect('strategy.rollingUpdate', deployment.spec.strategy?.rollingUpdate, plan.strategy);
  const preStop = container.lifecycle?.preStop;
  if (plan.preStopAction === 'sleep') expect('preStop.sleep.seconds', preStop?.sleep?.seconds, plan.preStopSeconds);
  else if (plan.preStopAction === 'exec')
    expect('preStop.exec.command', preStop?.exec?.command, ['/bin/sleep', String(plan.preStopSeconds)]);
  else expect('preStop', preStop, undefined);
  const drainArgs = (container.args ?? []).filter(
    (a: string) => plan.drainFlag && a.startsWith(`${plan.drainFlag.flag}=`),
  );
  if (plan.drainFlag) expect('drain flag', drainArgs, [`${plan.drainFlag.flag}=${plan.drainFlag.seconds}`]);
  for (const name of ['startup', 'readiness', 'liveness'] as const) {
    const probe = container[`${name}Probe`];
    const planned = plan.probes[name];
    expect(`${name}Probe.periodSeconds`, probe?.periodSeconds, planned.periodSeconds);
    expect(`${name}Probe.failureThreshold`, probe?.failureThreshold, planned.failureThreshold);
    expect(`${name}Probe.timeoutSeconds`, probe?.timeoutSeconds, planned.timeoutSeconds);
    if (planned.path) expect(`${name}Probe.httpGet.path`, probe?.httpGet?.path, planned.path);
  }
  return errors;
}

/**
 * The gateway's extra documents (from its profile's `extraManifests` templates) must carry, at each `${value}`
 * placeholder, the input or plan number it names. Returns each mismatch; none when the profile has no extras.
 */
export function extraPlanMismatches(docs: Obj[], plan: Plan, inputs: Obj, gateway: Obj): string[] {
  const templates: { manifest: unknown }[] = gateway.extraManifests ?? [];
  // After the Deployment (the InferencePool is the stated chart install's, not a document).
  const extras = docs.slice(1).filter((d) => d.kind !== 'PodDisruptionBudget');
  const errors: string[] = [];
  if (extras.length !== templates.length)
    errors.push(`expected ${templates.length} extra documents for ${gateway.id}, found ${extras.length}`);
  const planValues: Record<string, unknown> = {
    name: inputs.name,
    namespace: inputs.namespace,
    port: inputs.port,
    readinessPath: plan.probes.readiness.path ?? '/',
    gatewayRequestTimeoutSeconds: (plan as Obj).gatewayRequestTimeoutSeconds,
    gatewayDrainingSeconds: (plan as Obj).gatewayDrainingSeconds,
  };
  const walk = (template: unknown, actual: unknown, path: string) => {
    if (typeof template === 'string') {
      const m = /^\$\{([A-Za-z]+)\}$/.exec(template);
      if (m && !isDeepStrictEqual(actual, planValues[m[1]]))
        errors.push(
          `${path}: manifest has ${JSON.stringify(actual)}, \${${m[1]}} is ${JSON.stringify(planValues[m[1]])}`,
        );
      if (!m && actual !== template)
        errors.push(`${path}: manifest has ${JSON.stringify(actual)}, the template ${JSON.stringify(template)}`);
    } else if (template && typeof template === 'object') {
      for (const [k, v] of Object.entries(template)) walk(v, (actual as Obj | undefined)?.[k], `${path}.${k}`);
    } else if (!isDeepStrictEqual(actual, template)) {
      errors.push(`${path}: manifest has ${JSON.stringify(actual)}, the template ${JSON.stringify(template)}`);
    }
  };
  templates.forEach((t, i) => walk(t.manifest, extras[i], `${gateway.id} extra ${i + 1}`));
  return errors;
}
