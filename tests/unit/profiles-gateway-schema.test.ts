// The gateway profile schema: the fields the pages need (detection, knob roles, gateway settings, extra manifest
// templates, gaps) are validated at load time, and a broken file names its field.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { readProfiles } from '../../src/facts/read-files.ts';
import { gatewaySchema } from '../../src/facts/schemas/gateway.ts';
import { parseData } from '../../src/facts/parse-data.ts';

const FIXTURE = new URL('../fixtures/gateways/example-gw.yaml', import.meta.url);
const FILE = 'example-gw.yaml';

/** The fixture profile as parsed data, changed by `edit` before validation. */
function fixtureWith(edit: (data: any) => void = () => {}): unknown {
  const data = parse(readFileSync(FIXTURE, 'utf8'));
  edit(data);
  return data;
}

test('the fixture profile reads with its new fields', () => {
  const p = parseData(gatewaySchema, fixtureWith(), FILE);
  assert.equal(p.detection.summary, 'The example proxy keeps no endpoint list of its own.');
  assert.deepEqual(
    p.knobs.map((k) => k.role),
    ['backend'],
  );
  assert.deepEqual(p.requestTimeout, {
    setting: 'ExampleTimeoutPolicy spec.requestTimeoutSeconds',
    defaultSeconds: 60,
    maxSeconds: 3600,
    sources: ['example-docs'],
  });
  assert.equal(p.connectionDraining, undefined);
  assert.equal(p.extraManifests.length, 1);
  assert.equal(p.extraManifests[0].kind, 'ExampleTimeoutPolicy');
  assert.deepEqual(p.extraManifests[0].comments, { 'spec.targetRef': 'the pool this policy applies to' });
  assert.deepEqual(p.gaps, [
    { kind: 'not-found', topic: 'Everything', detail: 'This gateway does not exist.', sources: [] },
  ]);
});

test('every repository gateway has detection, knob roles and lists; only GKE has extra manifests', () => {
  const { gateways } = readProfiles();
  for (const g of gateways) {
    assert.ok(g.detection.summary.length > 0 && g.detection.sources.length > 0, g.id);
    assert.ok(Array.isArray(g.gaps) && Array.isArray(g.extraManifests), g.id);
  }
  assert.deepEqual(
    gateways.filter((g) => g.extraManifests.length > 0).map((g) => g.id),
    ['gke'],
  );
  const gke = gateways.find((g) => g.id === 'gke')!;
  assert.deepEqual(
    gke.extraManifests.map((e) => e.kind),
    ['HealthCheckPolicy', 'GCPBackendPolicy'],
  );
  // From gke-gateway-api gcpbackendpolicy_types.go: timeoutSec defaults to 30 (1 to 2147483647),
  // drainingTimeoutSec to 0 (0 to 3600).
  assert.equal(gke.requestTimeout?.defaultSeconds, 30);
  assert.equal(gke.requestTimeout?.maxSeconds, 2147483647);
  assert.equal(gke.connectionDraining?.defaultSeconds, 0);
  assert.equal(gke.connectionDraining?.maxSeconds, 3600);
});

test('a gateway without detection is refused', () => {
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => {
          delete d.detection;
        }),
        FILE,
      ),
    /example-gw\.yaml: detection must be a mapping, found missing/,
  );
});

test('a knob needs a known role', () => {
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => {
          d.knobs[0].role = 'other';
        }),
        FILE,
      ),
    /knobs\[0\]\.role must be one of detection, backend, own-pods/,
  );
});

test('a template may only name known values, as whole strings', () => {
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => {
          d.extraManifests[0].manifest.metadata.name = '${poolName}';
        }),
        FILE,
      ),
    /extraManifests\[0\]\.manifest\.metadata\.name names \$\{poolName\}, which is not a template value/,
  );
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => {
          d.extraManifests[0].manifest.metadata.name = '${name}-policy';
        }),
        FILE,
      ),
    /extraManifests\[0\]\.manifest\.metadata\.name must be a whole \$\{value\} placeholder/,
  );
});

test('a template naming a gateway setting needs that setting in the profile', () => {
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => {
          delete d.requestTimeout;
        }),
        FILE,
      ),
    /extraManifests\[0\]\.manifest names \$\{gatewayRequestTimeoutSeconds\}, but the profile has no requestTimeout/,
  );
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => {
          d.extraManifests[0].manifest.spec.draining = '${gatewayDrainingSeconds}';
        }),
        FILE,
      ),
    /names \$\{gatewayDrainingSeconds\}, but the profile has no connectionDraining/,
  );
});

test('template comments must point at a value of the manifest', () => {
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => {
          d.extraManifests[0].comments = { 'spec.timeout': 'x' };
        }),
        FILE,
      ),
    /extraManifests\[0\]\.comments\.spec\.timeout names no value of the manifest/,
  );
});

test('extra manifest ids are unique and sources are declared', () => {
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => {
          d.extraManifests.push(d.extraManifests[0]);
        }),
        FILE,
      ),
    /extraManifests\[1\]\.id repeats the id "timeout-policy"/,
  );
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => {
          d.extraManifests[0].sources = ['nowhere'];
        }),
        FILE,
      ),
    /extraManifests\[0\]\.sources\[0\] names source "nowhere"/,
  );
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => {
          d.gaps[0].sources = ['nowhere'];
        }),
        FILE,
      ),
    /gaps\[0\]\.sources\[0\] names source "nowhere"/,
  );
});

test('a gateway setting default may not exceed its maximum, and gaps have a known kind', () => {
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => {
          d.requestTimeout.defaultSeconds = 4000;
        }),
        FILE,
      ),
    /requestTimeout\.defaultSeconds must not exceed maxSeconds \(3600\)/,
  );
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => {
          d.gaps[0].kind = 'maybe';
        }),
        FILE,
      ),
    /gaps\[0\]\.kind must be one of not-found, conflict/,
  );
});

test('a request-timeout floor lies between the default and the maximum and comes with its reason', () => {
  // The fixture's requestTimeout: default 60, maximum 3600.
  const floor = (d: any, seconds: number) =>
    Object.assign(d.requestTimeout, { floorSeconds: seconds, floorReason: 'an example', floorExplanation: 'Why.' });
  const p = parseData(
    gatewaySchema,
    fixtureWith((d) => floor(d, 300)),
    FILE,
  );
  assert.deepEqual(
    [p.requestTimeout?.floorSeconds, p.requestTimeout?.floorReason, p.requestTimeout?.floorExplanation],
    [300, 'an example', 'Why.'],
  );
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => floor(d, 59)),
        FILE,
      ),
    /requestTimeout\.floorSeconds must not be below defaultSeconds \(60\)/,
  );
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => floor(d, 3601)),
        FILE,
      ),
    /requestTimeout\.floorSeconds must not exceed maxSeconds \(3600\)/,
  );
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => {
          floor(d, 300);
          delete d.requestTimeout.floorReason;
        }),
        FILE,
      ),
    /requestTimeout\.floorReason is required with floorSeconds/,
  );
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => {
          d.requestTimeout.floorExplanation = 'Why.';
        }),
        FILE,
      ),
    /requestTimeout\.floorExplanation needs floorSeconds/,
  );
});

test('GKE keeps its request timeout at least at GIE\u2019s 300 s example, with the sources for it', () => {
  // GIE v1.0.0 config/manifests/gateway/gke/gcp-backend-policy.yaml and the v1.5.0 chart's templates/gke.yaml set timeoutSec 300.
  const gke = readProfiles().gateways.find((g) => g.id === 'gke')!;
  assert.equal(gke.requestTimeout?.floorSeconds, 300);
  assert.equal(gke.requestTimeout?.floorReason, "GIE's GKE example");
  assert.deepEqual(gke.requestTimeout?.sources, ['gke-backendpolicy-types', 'gie-gke-backendpolicy', 'gie-chart-gke']);
});

test('a GatewayClass note is optional text; Envoy AI Gateway lists its examples\u2019 class with one', () => {
  assert.equal(parseData(gatewaySchema, fixtureWith(), FILE).gatewayClassNote, undefined);
  assert.throws(
    () =>
      parseData(
        gatewaySchema,
        fixtureWith((d) => {
          d.gatewayClassNote = 3;
        }),
        FILE,
      ),
    /gatewayClassNote must be a non-empty string, found number 3/,
  );
  const aigw = readProfiles().gateways.find((g) => g.id === 'envoy-ai-gateway')!;
  assert.deepEqual(aigw.gatewayClassNames, ['envoy-ai-gateway', 'envoy-ai-gateway-basic']);
  assert.match(aigw.gatewayClassNote!, /yours to choose/);
});

test('a value cut short by an unquoted " #" is refused, naming the file and line', async () => {
  const { profilesFromFiles } = await import('../../src/facts/profile-files.ts');
  const { readFileSync } = await import('node:fs');
  const read = (p: string) => ({ path: p, text: readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8') });
  const vllm = read('content/model-servers/vllm.yaml');
  // versionNotes is a folded block scalar there; turn the id line into a plain value with a trailing comment, and
  // drop the editor's schema line above it so that the id is on line 1
  const broken = {
    ...vllm,
    text: vllm.text.replace(/^# yaml-language-server: .*\n/, '').replace(/^id: vllm$/m, 'id: vllm # see #1838'),
  };
  const defaults = read('content/request-defaults.yaml');
  const ranges = read('content/kubernetes/value-ranges.yaml');
  assert.throws(
    () => profilesFromFiles([read('content/gateways/gke.yaml')], [broken], defaults, ranges),
    /content\/model-servers\/vllm\.yaml: line 1: a comment follows the value "vllm"; if the "#" belongs to the text, quote the whole value/,
  );
  assert.doesNotThrow(() => profilesFromFiles([read('content/gateways/gke.yaml')], [vllm], defaults, ranges));
});
