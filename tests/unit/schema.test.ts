/**
 * Schema validation of what the emitter writes: the Deployment against the Kubernetes API schema
 * (kubernetes-models) plus the rules it lacks, the InferencePool against its v1 API, each gateway's extra
 * documents against theirs (keyed by kind, so new kinds must bring a schema), and the YAML as kubectl reads it.
 * Each validator is also shown to reject what it must, so that a green run means something.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { deploymentBounds } from '../support/deployment-bounds.ts';
import { gcpBackendPolicySchema, healthCheckPolicySchema } from '../support/gke-policy-schemas.ts';
import { generate, profiles } from '../support/generate.ts';
import { validateInferencePool } from '../support/inference-pool-schema.ts';
import { unknownFields } from '../support/k8s-strict-fields.ts';
import {
  extraPlanMismatches,
  manifestErrors,
  parseManifest,
  planMismatches,
  SCHEMA_KINDS,
  validateDocument,
  yaml11Differences,
} from '../support/manifest-check.ts';
import { validateSchema } from '../support/structural-schema.ts';
import { installedPool } from '../support/helm-install.ts';

const clone = <T>(value: T): T => structuredClone(value);
const defaults = generate({});
const [defaultDeployment] = parseManifest(defaults.manifest);
// The bundle writes no InferencePool: the chart install its header states creates this one.
const defaultPool = installedPool(defaults.manifest);

describe('every gateway × model server at its defaults', () => {
  for (const gateway of profiles.gateways) {
    for (const server of profiles.modelServers) {
      test(`${gateway.id} + ${server.id}: schema-valid, and the manifest carries the plan's numbers`, async () => {
        const g = generate({ gateway: gateway.id, 'model-server': server.id });
        assert.deepEqual(g.errors, []);
        const { docs, errors } = await manifestErrors(g.manifest);
        assert.deepEqual(errors, [], errors.join('\n'));
        assert.deepEqual(planMismatches(docs, g.plan), []);
        assert.deepEqual(extraPlanMismatches(docs, g.plan, g.inputs, gateway), []);
      });
    }
  }

  test('every kind the emitter writes has a schema here', async () => {
    const kinds = new Set<string>();
    for (const gateway of profiles.gateways) {
      for (const doc of parseManifest(generate({ gateway: gateway.id }).manifest))
        kinds.add(`${doc.apiVersion} ${doc.kind}`);
    }
    for (const kind of kinds) {
      const [apiVersion, name] = kind.split(' ');
      const errors = await validateDocument({ apiVersion, kind: name, metadata: { name: 'x' } });
      assert.ok(!errors.some((e) => e.startsWith('no schema')), `${kind} has no schema: ${errors.join('; ')}`);
    }
    assert.ok(kinds.has('apps/v1 Deployment'), [...kinds].join(', '));
    // The InferencePool is the chart's (the header's install), never a document of the bundle's: two would conflict.
    assert.ok(!kinds.has('inference.networking.k8s.io/v1 InferencePool'), [...kinds].join(', '));
    assert.deepEqual(await validateDocument(defaultPool), []);
  });
});

describe('hand-worked numbers (the drain model page)', () => {
  test('gke + vllm defaults: 30 s removal + 5 s margin, 4096 × 100 ms × 1.2 = 491.52 s → 492 s, × 1.5 = 738 s', () => {
    const pod = defaultDeployment.spec.template.spec;
    const container = pod.containers[0];
    assert.equal(container.lifecycle.preStop.sleep.seconds, 35);
    assert.ok(container.args.includes('--shutdown-timeout=738'), container.args.join(' '));
    assert.equal(pod.terminationGracePeriodSeconds, 35 + 738 + 15);
    assert.equal(defaultDeployment.spec.progressDeadlineSeconds, 788 + 600);
    assert.deepEqual(defaultDeployment.spec.strategy.rollingUpdate, { maxSurge: 0, maxUnavailable: 1 });
    assert.equal(container.startupProbe.failureThreshold, 60); // 600 s load / 10 s period
  });

  test('30 × 1.1 gives 33, not 34 (round to the millisecond before rounding up)', () => {
    const g = generate({ 'max-request-seconds': '30', 'drain-headroom-percent': '10' });
    assert.equal(g.plan.drainSeconds, 33);
  });

  test('Kubernetes below 1.30 gets an exec sleep; 1.30 and later the sleep action', () => {
    const old = parseManifest(generate({ 'kubernetes-version': '1.29' }).manifest)[0].spec.template.spec.containers[0];
    const current = parseManifest(generate({ 'kubernetes-version': '1.30' }).manifest)[0].spec.template.spec
      .containers[0];
    assert.deepEqual(old.lifecycle.preStop, { exec: { command: ['/bin/sleep', '35'] } });
    assert.deepEqual(current.lifecycle.preStop, { sleep: { seconds: 35 } });
  });

  test('a fractional teardown never gives a fractional grace period: refused as input, or rounded up', async () => {
    const g = generate({ 'teardown-seconds': '0.5' });
    if (g.errors.length > 0) {
      assert.deepEqual(
        g.errors.map((e) => e.flag),
        ['teardown-seconds'],
      );
      assert.match(g.errors[0].message, /^teardown-seconds must be a whole number/);
    } else {
      const { errors } = await manifestErrors(g.manifest);
      assert.deepEqual(errors, [], errors.join('\n'));
    }
    assert.ok(
      Number.isInteger(g.plan.terminationGracePeriodSeconds),
      `terminationGracePeriodSeconds ${g.plan.terminationGracePeriodSeconds}`,
    );
    assert.ok(
      Number.isInteger(g.plan.progressDeadlineSeconds),
      `progressDeadlineSeconds ${g.plan.progressDeadlineSeconds}`,
    );
  });
});

describe('the same values in YAML 1.1 (kubectl, sigs.k8s.io/yaml) and YAML 1.2 (yq, ruamel, the yaml package)', () => {
  const lookalikes: Record<string, string>[] = [
    { name: 'yes' },
    { name: 'n' },
    { namespace: 'on' },
    { namespace: 'off' },
    { model: 'y' },
    { model: '1:20' },
    { image: 'No' },
    { model: '0755' },
    { namespace: '0o17' },
    { namespace: '0x1f' },
    { model: '1_000' },
    { namespace: '1e3' },
  ];
  for (const raw of lookalikes) {
    test(`${JSON.stringify(raw)} stays the string it is`, () => {
      const g = generate(raw);
      assert.deepEqual(g.errors, [], 'the value is valid input');
      assert.deepEqual(yaml11Differences(g.manifest), []);
      const [deployment] = parseManifest(g.manifest);
      const [field, value] = Object.entries(raw)[0];
      const read =
        field === 'name'
          ? deployment.metadata.name
          : field === 'namespace'
            ? deployment.metadata.namespace
            : field === 'image'
              ? deployment.spec.template.spec.containers[0].image
              : deployment.spec.template.spec.containers[0].args[1];
      assert.equal(read, value, `${field} reads back as ${JSON.stringify(read)}`);
    });
  }
  test('the check itself sees an unquoted YAML 1.1 boolean', () => {
    assert.deepEqual(yaml11Differences('a: yes\nb: "on"\n'), [
      'doc1.a: YAML 1.2 reads "yes", YAML 1.1 (kubectl) reads true',
    ]);
  });
});

describe('the InferencePool validator (inference.networking.k8s.io/v1)', () => {
  const upstreamExample = {
    apiVersion: 'inference.networking.k8s.io/v1',
    kind: 'InferencePool',
    metadata: { name: 'vllm-qwen3-32b' },
    spec: {
      selector: { matchLabels: { app: 'vllm-qwen3-32b' } },
      targetPorts: [{ number: 8000 }],
      endpointPickerRef: { name: 'vllm-qwen3-32b-epp', port: { number: 9002 }, failureMode: 'FailOpen' },
    },
  };
  test("accepts the upstream minimal example and the emitter's default pool", () => {
    assert.deepEqual(validateInferencePool(upstreamExample), []);
    assert.deepEqual(validateInferencePool(defaultPool), []);
  });

  const mutations: [string, (p: any) => void, RegExp][] = [
    [
      'no matchLabels entries',
      (p) => {
        p.spec.selector.matchLabels = {};
      },
      /at least 1 entries/,
    ],
    [
      '65 matchLabels entries',
      (p) => {
        for (let i = 0; i < 65; i++) p.spec.selector.matchLabels[`k${i}`] = 'v';
      },
      /at most 64 entries/,
    ],
    [
      '64 matchLabels entries is fine',
      (p) => {
        p.spec.selector.matchLabels = {};
        for (let i = 0; i < 64; i++) p.spec.selector.matchLabels[`k${i}`] = 'v';
      },
      /^$/,
    ],
    [
      'a bad label key',
      (p) => {
        p.spec.selector.matchLabels['bad key'] = 'v';
      },
      /qualified name/,
    ],
    [
      'a label value over 63 characters',
      (p) => {
        p.spec.selector.matchLabels.app = 'a'.repeat(64);
      },
      /at most 63/,
    ],
    [
      'no targetPorts',
      (p) => {
        p.spec.targetPorts = [];
      },
      /at least 1 items/,
    ],
    [
      '9 targetPorts',
      (p) => {
        p.spec.targetPorts = Array.from({ length: 9 }, (_, i) => ({ number: 8000 + i }));
      },
      /at most 8 items/,
    ],
    [
      '8 unique targetPorts is fine',
      (p) => {
        p.spec.targetPorts = Array.from({ length: 8 }, (_, i) => ({ number: 8000 + i }));
      },
      /^$/,
    ],
    [
      'duplicate targetPorts',
      (p) => {
        p.spec.targetPorts = [{ number: 8000 }, { number: 8000 }];
      },
      /duplicate/,
    ],
    [
      'port 0',
      (p) => {
        p.spec.targetPorts = [{ number: 0 }];
      },
      />= 1/,
    ],
    [
      'port 65536',
      (p) => {
        p.spec.targetPorts = [{ number: 65536 }];
      },
      /<= 65535/,
    ],
    [
      'a fractional port',
      (p) => {
        p.spec.targetPorts = [{ number: 8000.5 }];
      },
      /must be integer/,
    ],
    [
      'a port as a string',
      (p) => {
        p.spec.targetPorts = [{ number: '8000' }];
      },
      /must be integer/,
    ],
    [
      'failureMode Open',
      (p) => {
        p.spec.endpointPickerRef.failureMode = 'Open';
      },
      /FailOpen", "FailClose/,
    ],
    [
      'a Service ref without port',
      (p) => {
        delete p.spec.endpointPickerRef.port;
      },
      /port is required when kind is Service/,
    ],
    [
      'an explicit Service ref without port',
      (p) => {
        p.spec.endpointPickerRef.kind = 'Service';
        delete p.spec.endpointPickerRef.port;
      },
      /port is required/,
    ],
    [
      'another kind needs no port',
      (p) => {
        p.spec.endpointPickerRef.kind = 'Picker';
        p.spec.endpointPickerRef.group = 'example.com';
        delete p.spec.endpointPickerRef.port;
      },
      /^$/,
    ],
    [
      'a bad group',
      (p) => {
        p.spec.endpointPickerRef.group = 'Bad_Group';
      },
      /group: must match/,
    ],
    [
      'no endpointPickerRef name',
      (p) => {
        delete p.spec.endpointPickerRef.name;
      },
      /name: is required/,
    ],
    [
      'no endpointPickerRef',
      (p) => {
        delete p.spec.endpointPickerRef;
      },
      /required by most implementations/,
    ],
    [
      'appProtocol grpc',
      (p) => {
        p.spec.appProtocol = 'grpc';
      },
      /"http", "kubernetes.io\/h2c"/,
    ],
    [
      'appProtocol kubernetes.io/h2c is fine',
      (p) => {
        p.spec.appProtocol = 'kubernetes.io/h2c';
      },
      /^$/,
    ],
    [
      'an unknown field',
      (p) => {
        p.spec.targetPortNumber = 8000;
      },
      /targetPortNumber: unknown field/,
    ],
    [
      'the old v1alpha2 extensionRef',
      (p) => {
        p.spec.extensionRef = p.spec.endpointPickerRef;
        delete p.spec.endpointPickerRef;
      },
      /extensionRef: unknown field/,
    ],
    [
      'the removed v1alpha2 apiVersion',
      (p) => {
        p.apiVersion = 'inference.networking.x-k8s.io/v1alpha2';
      },
      /apiVersion: must be one of/,
    ],
    [
      'no selector',
      (p) => {
        delete p.spec.selector;
      },
      /selector: is required/,
    ],
  ];
  for (const [what, mutate, expected] of mutations) {
    test(`${expected.source === '^$' ? 'accepts' : 'rejects'} ${what}`, () => {
      const pool = clone(upstreamExample);
      mutate(pool);
      const errors = validateInferencePool(pool).join('\n');
      assert.match(errors, expected, errors || '(no errors)');
    });
  }
});

describe('the Deployment validators', () => {
  const container = (d: any) => d.spec.template.spec.containers[0];
  const validate = async (d: unknown) => (await validateDocument(d as Record<string, unknown>)).join('\n');

  test('kubernetes-models alone accepts a negative grace period; the bounds catch it', () => {
    const d = clone(defaultDeployment);
    d.spec.template.spec.terminationGracePeriodSeconds = -5;
    assert.doesNotThrow(() => new Deployment(d).validate());
    assert.match(deploymentBounds(d).join('\n'), /terminationGracePeriodSeconds: must be a non-negative whole number/);
  });

  const mutations: [string, (d: any) => void, RegExp][] = [
    [
      'a fractional grace period',
      (d) => {
        d.spec.template.spec.terminationGracePeriodSeconds = 1.5;
      },
      /must be integer \(kubernetes-models\)/,
    ],
    [
      'a preStop sleep longer than the grace period',
      (d) => {
        container(d).lifecycle.preStop.sleep.seconds = d.spec.template.spec.terminationGracePeriodSeconds + 1;
      },
      /longer than terminationGracePeriodSeconds/,
    ],
    [
      'a misspelt probe field',
      (d) => {
        container(d).readinessProbe.failureTreshold = 3;
      },
      /failureTreshold: unknown field/,
    ],
    [
      'replicas beyond int32',
      (d) => {
        d.spec.replicas = 2 ** 31;
      },
      /within int32/,
    ],
    [
      'a selector that misses the template',
      (d) => {
        d.spec.selector.matchLabels.app = 'other';
      },
      /does not match the template/,
    ],
    [
      'a probe on a port the container lacks',
      (d) => {
        container(d).livenessProbe.httpGet.port = 'metrics';
      },
      /names no container port/,
    ],
    [
      'half a GPU',
      (d) => {
        container(d).resources.limits['nvidia.com/gpu'] = 0.5;
      },
      /whole numbers/,
    ],
    [
      'maxSurge 0 and maxUnavailable 0',
      (d) => {
        d.spec.strategy.rollingUpdate = { maxSurge: 0, maxUnavailable: 0 };
      },
      /may not both be 0/,
    ],
    [
      'a probe period of 0',
      (d) => {
        container(d).readinessProbe.periodSeconds = 0;
      },
      /periodSeconds: must be a whole number >= 1/,
    ],
    [
      'a progress deadline of 0',
      (d) => {
        d.spec.progressDeadlineSeconds = 0;
      },
      /greater than minReadySeconds/,
    ],
    [
      'a number written as text',
      (d) => {
        d.spec.replicas = '3';
      },
      /replicas: must be integer/,
    ],
    [
      'an upper-case name',
      (d) => {
        d.metadata.name = 'Model';
      },
      /DNS-1123 label/,
    ],
  ];
  for (const [what, mutate, expected] of mutations) {
    test(`rejects ${what}`, async () => {
      const d = clone(defaultDeployment);
      mutate(d);
      const errors = await validate(d);
      assert.match(errors, expected, errors || '(no errors)');
    });
  }
  test('the unknown-field walk reaches nested types through kubernetes-models declarations', () => {
    const d = clone(defaultDeployment);
    container(d).lifecycle.preStop.sleep.millis = 1;
    d.spec.template.metadata.lables = {};
    assert.deepEqual(
      unknownFields(d, 'kubernetes-models/apps/v1/Deployment').map((e) => e.split(':')[0]),
      ['spec.template.metadata.lables', 'spec.template.spec.containers[0].lifecycle.preStop.sleep.millis'],
    );
  });
});

describe('the GKE policy validators (networking.gke.io/v1)', () => {
  const target = { group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'pool' };
  const healthCheck = () => ({
    apiVersion: 'networking.gke.io/v1',
    kind: 'HealthCheckPolicy',
    metadata: { name: 'pool' },
    spec: {
      targetRef: clone(target),
      default: {
        checkIntervalSec: 5,
        timeoutSec: 5,
        config: {
          type: 'HTTP',
          httpHealthCheck: { portSpecification: 'USE_FIXED_PORT', port: 8000, requestPath: '/health' },
        },
      },
    },
  });
  const backend = () => ({
    apiVersion: 'networking.gke.io/v1',
    kind: 'GCPBackendPolicy',
    metadata: { name: 'pool' },
    spec: { targetRef: clone(target), default: { timeoutSec: 300, connectionDraining: { drainingTimeoutSec: 60 } } },
  });
  test("accept GIE's GKE examples, with portSpecification beside port", () => {
    assert.deepEqual(validateSchema(healthCheck(), healthCheckPolicySchema), []);
    assert.deepEqual(validateSchema(backend(), gcpBackendPolicySchema), []);
  });
  const cases: [string, () => unknown, unknown, RegExp][] = [
    [
      'timeoutSec above checkIntervalSec',
      () => {
        const p = healthCheck();
        p.spec.default.timeoutSec = 6;
        return p;
      },
      healthCheckPolicySchema,
      /timeoutSec must not be greater than checkIntervalSec/,
    ],
    [
      'a timeoutSec above the default interval',
      () => {
        const p = healthCheck() as any;
        delete p.spec.default.checkIntervalSec;
        p.spec.default.timeoutSec = 10;
        return p;
      },
      healthCheckPolicySchema,
      /both default to 5/,
    ],
    [
      'a config type without its field',
      () => {
        const p = healthCheck();
        p.spec.default.config.type = 'GRPC';
        return p;
      },
      healthCheckPolicySchema,
      /matching <type>HealthCheck/,
    ],
    [
      'checkIntervalSec 301',
      () => {
        const p = healthCheck();
        p.spec.default.checkIntervalSec = 301;
        p.spec.default.timeoutSec = 1;
        return p;
      },
      healthCheckPolicySchema,
      /<= 300/,
    ],
    [
      'a targetRef without group',
      () => {
        const p = healthCheck() as any;
        delete p.spec.targetRef.group;
        return p;
      },
      healthCheckPolicySchema,
      /group: is required/,
    ],
    // gke-gateway-api CommonHealthCheck CEL rules (commit 983ac3d): a port needs portSpecification USE_FIXED_PORT.
    [
      "a port without portSpecification (as GIE's example writes it)",
      () => {
        const p = healthCheck() as any;
        delete p.spec.default.config.httpHealthCheck.portSpecification;
        return p;
      },
      healthCheckPolicySchema,
      /port and portName must be unset for portSpecification being USE_SERVING_PORT/,
    ],
    [
      'USE_SERVING_PORT with a port',
      () => {
        const p = healthCheck();
        p.spec.default.config.httpHealthCheck.portSpecification = 'USE_SERVING_PORT';
        return p;
      },
      healthCheckPolicySchema,
      /port and portName must be unset/,
    ],
    [
      'USE_FIXED_PORT without a port',
      () => {
        const p = healthCheck() as any;
        delete p.spec.default.config.httpHealthCheck.port;
        return p;
      },
      healthCheckPolicySchema,
      /USE_FIXED_PORT, port must be set/,
    ],
    [
      'USE_NAMED_PORT with a port',
      () => {
        const p = healthCheck();
        p.spec.default.config.httpHealthCheck.portSpecification = 'USE_NAMED_PORT';
        return p;
      },
      healthCheckPolicySchema,
      /USE_NAMED_PORT, port must be unset and portName must be set/,
    ],
    [
      'drainingTimeoutSec 3601',
      () => {
        const p = backend();
        p.spec.default.connectionDraining.drainingTimeoutSec = 3601;
        return p;
      },
      gcpBackendPolicySchema,
      /<= 3600/,
    ],
    [
      'timeoutSec 0',
      () => {
        const p = backend();
        p.spec.default.timeoutSec = 0;
        return p;
      },
      gcpBackendPolicySchema,
      />= 1/,
    ],
    [
      'an unknown field',
      () => {
        const p = backend() as any;
        p.spec.default.drainTimeout = 5;
        return p;
      },
      gcpBackendPolicySchema,
      /drainTimeout: unknown field/,
    ],
  ];
  for (const [what, make, schema, expected] of cases) {
    test(`rejects ${what}`, () => {
      const errors = validateSchema(make(), schema as typeof healthCheckPolicySchema).join('\n');
      assert.match(errors, expected, errors || '(no errors)');
    });
  }
  test('schemas exist for the GKE kinds', () => {
    assert.ok(
      SCHEMA_KINDS.includes('networking.gke.io/v1 HealthCheckPolicy')
        && SCHEMA_KINDS.includes('networking.gke.io/v1 GCPBackendPolicy'),
    );
  });
});

describe('the manifest-level checks', () => {
  test('an unknown kind is an error, not a pass', async () => {
    const errors = await validateDocument({
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'HTTPRoute',
      metadata: { name: 'r' },
    });
    assert.match(errors.join('\n'), /no schema for gateway.networking.k8s.io\/v1 HTTPRoute/);
  });
  test('a pool that selects other pods is caught', async () => {
    // The pool is the stated install's: its selector comes from the install line.
    const text = defaults.manifest.replace(/matchLabels\.app=vllm-qwen3-32b /, 'matchLabels.app=other ');
    assert.notEqual(text, defaults.manifest);
    assert.match((await manifestErrors(text)).errors.join('\n'), /does not select the Deployment's pods/);
  });
  test('a manifest whose numbers differ from the plan is caught', () => {
    const docs = parseManifest(defaults.manifest);
    docs[0].spec.template.spec.terminationGracePeriodSeconds += 1;
    assert.match(
      planMismatches(docs, defaults.plan).join('\n'),
      /terminationGracePeriodSeconds: manifest has 789, plan has 788/,
    );
  });
  test('duplicate keys and broken YAML are parse errors', async () => {
    assert.match((await manifestErrors('a: 1\na: 2\n')).errors.join('\n'), /parse:/);
    assert.match((await manifestErrors('a: [1\n')).errors.join('\n'), /parse:/);
  });
});
