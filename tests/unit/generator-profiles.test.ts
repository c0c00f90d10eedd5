/**
 * The generator's profiles on the wire: /data/profiles.json carries every profile, regular expressions included,
 * and the island's props carry only the selected gateway and model server.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  choicesOf,
  profilesFromJson,
  profilesToJson,
  selectedProfiles,
} from '../../src/components/generator/profile-choices.ts';
import { readProfiles } from '../../src/facts/read-files.ts';
import { releaseFromImage } from '../../src/facts/releases.ts';

const profiles = readProfiles();

test("the JSON round trip keeps each model server's tag pattern a working RegExp", () => {
  const back = profilesFromJson(profilesToJson(profiles));
  const vllm = back.modelServers.find((m) => m.id === 'vllm')!;
  assert.ok(vllm.release.tagPattern instanceof RegExp);
  // The tag of vllm/vllm-openai:v0.18.0 names release 0.18.0.
  assert.equal(releaseFromImage(vllm, 'vllm/vllm-openai:v0.18.0'), '0.18.0');
  assert.equal(back.gateways.length, profiles.gateways.length);
  assert.deepEqual(back.requestDefaults, JSON.parse(JSON.stringify(profiles.requestDefaults)));
});

test('a $regexp key in ordinary text stays text', () => {
  const text = '{"gateways":[],"modelServers":[],"requestDefaults":{"note":{"$regexp":1}}}';
  assert.deepEqual(profilesFromJson(text).requestDefaults, { note: { $regexp: 1 } });
});

test('the selected profiles are the two chosen, and the choices name every profile', () => {
  const selected = selectedProfiles(profiles, 'gke', 'vllm');
  assert.deepEqual(
    selected.gateways.map((g) => g.id),
    ['gke'],
  );
  assert.deepEqual(
    selected.modelServers.map((m) => m.id),
    ['vllm'],
  );
  const choices = choicesOf(profiles);
  assert.deepEqual(
    choices.gateways.map((g) => g.id),
    profiles.gateways.map((g) => g.id),
  );
  // Only the custom gateway describes removal by health checks.
  assert.deepEqual(
    choices.gateways.filter((g) => g.healthCheck).map((g) => g.id),
    ['custom'],
  );
});

test('the first render needs nothing beyond the selected profiles: the default plan and its warnings are the same', async () => {
  const { plan } = await import('../../src/model/plan.ts');
  const { resolveInputs, DEFAULT_GATEWAY, DEFAULT_MODEL_SERVER } = await import('../../src/model/resolve.ts');
  const selected = selectedProfiles(profiles, DEFAULT_GATEWAY, DEFAULT_MODEL_SERVER);
  const fromAll = resolveInputs({}, profiles);
  const fromSelected = resolveInputs({}, selected);
  assert.deepEqual(fromSelected, fromAll);
  const planned = plan(fromSelected.inputs, selected);
  assert.deepEqual(planned, plan(fromAll.inputs, profiles));
  // Hand-worked (tests/e2e/generator.spec.ts): 35 s preStop + 738 s drain + 15 s teardown.
  assert.equal(planned.terminationGracePeriodSeconds, 788);
  assert.ok(planned.warnings.length > 0);
});
