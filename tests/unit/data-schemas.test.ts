// Each data-file kind has a JSON Schema generated from its zod schema (scripts/gen-schemas.ts), committed under
// content/schemas/ for editors: every data file names its kind's schema on its first line, and validates against it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parse } from 'yaml';
// Ajv comes with yaml-language-server (through @astrojs/check): the validator editors run on these files.
import Ajv2020 from 'ajv/dist/2020.js';
import { CONTENT_DIR } from '../../src/facts/read-files.ts';
import { isDataFileName } from '../../src/facts/profile-files.ts';
import { DATA_KINDS, schemaFile, schemaText } from '../../scripts/gen-schemas.ts';

/** The data files of a kind, relative to the content folder. */
function filesOf(files: string): string[] {
  if (!files.endsWith('/')) return [files];
  return readdirSync(join(CONTENT_DIR, files))
    .filter(isDataFileName)
    .map((name) => `${files}${name}`);
}

test('every committed JSON Schema is what scripts/gen-schemas.ts writes (run npm run gen:schemas)', () => {
  for (const kind of DATA_KINDS) {
    const file = schemaFile(kind.kind);
    assert.equal(readFileSync(join(CONTENT_DIR, file), 'utf8'), schemaText(kind), `content/${file} is out of date`);
  }
});

test('every data file names its kind\u2019s schema on its first line', () => {
  const named: string[] = [];
  for (const kind of DATA_KINDS) {
    for (const file of filesOf(kind.files)) {
      const first = readFileSync(join(CONTENT_DIR, file), 'utf8').split('\n')[0];
      const target = relative(dirname(join(CONTENT_DIR, file)), join(CONTENT_DIR, schemaFile(kind.kind)));
      assert.equal(first, `# yaml-language-server: $schema=${target}`, `content/${file}`);
      named.push(file);
    }
  }
  // 7 gateways, 5 model servers, 11 controllers (10 serving ones and Argo Rollouts), 3 other servers, the request
  // defaults, the two output facts files and the Kubernetes value ranges.
  assert.equal(named.length, 30);
  assert.ok(named.includes('gateways/gke.yaml') && named.includes('model-servers/vllm.yaml'));
});

test('every data file validates against its JSON Schema, and a wrong value does not', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  for (const kind of DATA_KINDS) {
    const validate = ajv.compile(JSON.parse(schemaText(kind)));
    for (const file of filesOf(kind.files)) {
      const data = parse(readFileSync(join(CONTENT_DIR, file), 'utf8'));
      assert.ok(validate(data), `content/${file}: ${ajv.errorsText(validate.errors)}`);
    }
  }
  const gateway = ajv.compile(JSON.parse(schemaText(DATA_KINDS[0])));
  const gke = parse(readFileSync(join(CONTENT_DIR, 'gateways/gke.yaml'), 'utf8'));
  gke.knobs[0].role = 'other';
  gke.surprise = 1;
  assert.equal(gateway(gke), false);
  assert.deepEqual(gateway.errors?.map((e) => [e.instancePath, e.keyword]).sort(), [
    ['', 'additionalProperties'],
    ['/knobs/0/role', 'enum'],
  ]);
});
