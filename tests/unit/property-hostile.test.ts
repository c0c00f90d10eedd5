/**
 * Property-based tests over invalid and hostile inputs (NaN, negative, huge, fractions for whole-number fields,
 * text with newlines, quotes, `: `, `#`, unicode, very long; JSON values of the wrong type) on the core and on the
 * URL state: the core names the field and its allowed range and never throws; a link never throws to the page,
 * turns every bad value into a notice, and still yields a well-formed manifest.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { FIELDS } from '../../src/model/fields.ts';
import { describeRange, parseValue } from '../../src/model/parse-value.ts';
import { defaultsFor, profileIdsFor, resolveInputs, type Resolved } from '../../src/model/resolve.ts';
import { plan as planFor } from '../../src/model/plan.ts';
import { emitManifest } from '../../src/emit/bundle.ts';
import { decodeQuery, MAX_QUERY_LENGTH } from '../../src/model/url-state.ts';
import { fieldWithInvalidValue, invalidValue, validInputs, validValue } from '../support/arbitraries.ts';
import { brokenValueWords, profiles } from '../support/generate.ts';
import { manifestErrors } from '../support/manifest-check.ts';
import { chart } from '../support/chart.ts';

/** Characters a message must show escaped: controls (newlines, NEL), line/paragraph separators, bidi overrides. */
const UNSEEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : String(v));

/** Plan and emit from resolved inputs, as the generator page does after falling back to defaults. */
async function manifestProblems(resolved: Resolved): Promise<string[]> {
  const plan = planFor(resolved.inputs, profiles);
  const manifest = emitManifest(plan, resolved.inputs, profiles, chart);
  return [...(await manifestErrors(manifest)).errors, ...brokenValueWords(manifest, resolved.inputs)];
}

describe('core: resolveInputs with a bad value', () => {
  test('names the field and its allowed range, never throws, and falls back to a valid value (3000 cases)', () => {
    fc.assert(
      fc.property(validInputs(profiles), fieldWithInvalidValue(profiles), (raw, { spec, value }) => {
        const input = { ...raw, [spec.flag]: value };
        let resolved: Resolved | undefined;
        assert.doesNotThrow(
          () => {
            resolved = resolveInputs(input, profiles);
          },
          `--${spec.flag}=${show(value)}`,
        );
        // The field's own error (a combination rule may add a second one naming the same field).
        const ids = spec.kind === 'profile' ? profileIdsFor(spec, profiles) : [];
        const range = describeRange(spec, ids);
        const errors = resolved!.errors.filter(
          (e) => e.flag === spec.flag && e.message.startsWith(`${spec.flag} must be ${range} (got `),
        );
        assert.equal(
          errors.length,
          1,
          `--${spec.flag}=${show(value)}: expected one "${spec.flag} must be ${range}" error, got ${JSON.stringify(resolved!.errors)}`,
        );
        for (const { message } of resolved!.errors) {
          assert.ok(!UNSEEN.test(message) && message.length < 600, `one short line: ${JSON.stringify(message)}`);
        }
        const kept = (resolved!.inputs as Record<string, unknown>)[spec.key];
        assert.ok(kept === undefined || parseValue(spec, kept, ids).ok, `${spec.flag} fell back to ${show(kept)}`);
        assert.notEqual(kept, value);
      }),
      { numRuns: 3000 },
    );
  });

  // The fallback inputs are valid inputs, whose manifests property.test.ts validates at 400; this checks the fallback.
  test('the fallback inputs still give a well-formed, schema-valid manifest (150 cases)', async () => {
    await fc.assert(
      fc.asyncProperty(validInputs(profiles), fieldWithInvalidValue(profiles), async (raw, { spec, value }) => {
        const problems = await manifestProblems(resolveInputs({ ...raw, [spec.flag]: value }, profiles));
        assert.deepEqual(problems, [], `--${spec.flag}=${show(value)}\n${problems.join('\n')}`);
      }),
      { numRuns: 150 },
    );
  });

  test('blank values count as not given: no error, the default applies', () => {
    const defaults = defaultsFor(profiles, 'gke', 'vllm');
    for (const spec of FIELDS.filter((f) => f.kind !== 'bool')) {
      for (const blank of ['', '   ', '\t', null, undefined]) {
        const resolved = resolveInputs({ [spec.flag]: blank }, profiles);
        assert.deepEqual(resolved.errors, [], `--${spec.flag}=${show(blank)}`);
        assert.equal(resolved.inputs[spec.key], defaults[spec.key], spec.flag);
      }
    }
    assert.equal(
      resolveInputs({ 'unbounded-drain': '' }, profiles).inputs.unboundedDrain,
      true,
      'a bare boolean flag means true',
    );
  });

  test('an unknown input name is an error naming it, never a crash', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }), fc.string(), (name, value) => {
        fc.pre(!FIELDS.some((f) => f.flag === name || f.key === name));
        const resolved = resolveInputs({ [name]: value }, profiles);
        assert.equal(resolved.errors.length, 1);
        assert.equal(resolved.errors[0].flag, name);
        const message = resolved.errors[0].message;
        // The name is quoted and escaped: the message stays one line whatever the name holds.
        assert.ok(message.endsWith(' is not an input of the drain model'), message);
        assert.doesNotMatch(message, /[\n\r\u2028\u2029]/);
        if (/^[ !#-[\]-~]{1,40}$/.test(name)) assert.ok(message.startsWith(`"${name}"`), message);
      }),
      { numRuns: 300 },
    );
  });

  test('several bad values at once: one error per field, all named', () => {
    fc.assert(
      fc.property(
        fc
          .uniqueArray(fc.constantFrom(...FIELDS), { minLength: 2, maxLength: 8, selector: (f) => f.flag })
          .chain((specs) => fc.tuple(...specs.map((s) => invalidValue(s, profiles).map((v) => [s.flag, v] as const)))),
        (pairs) => {
          const resolved = resolveInputs(Object.fromEntries(pairs), profiles);
          for (const [flag] of pairs)
            assert.ok(
              resolved.errors.some((e) => e.flag === flag),
              `${flag} not reported: ${JSON.stringify(resolved.errors)}`,
            );
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** One `key=value` pair of a query: valid, invalid, unknown, or raw junk (possibly malformed encoding). */
const queryPart = fc.oneof(
  fc
    .constantFrom(...FIELDS)
    .chain((s) => validValue(s, profiles).map((v) => ({ key: s.flag, value: String(v), bad: false }))),
  fc.constantFrom(...FIELDS).chain((s) =>
    invalidValue(s, profiles)
      .filter((v) => typeof v === 'string' || typeof v === 'number')
      .map((v) => ({ key: s.flag, value: String(v), bad: String(v).trim() !== '' })),
  ),
  fc
    .oneof(
      fc.string({ unit: 'grapheme', maxLength: 20 }),
      fc.constantFrom('a\u2028b', '\u202eevil', 'x\u0085y', 'tpotMs', 'TPOT-MS', 'tpot_ms', '__proto__', 'constructor'),
    )
    .map((k) => ({ key: k, value: 'x', bad: false })),
  fc
    .constantFrom(
      '%',
      '%E0%A4%A',
      '%ZZ',
      '&&',
      '==',
      '=',
      '+',
      '#frag',
      '%0A',
      '%00',
      'v=2',
      'v=',
      'v=2%0Aevil',
      'v=%E2%80%A8',
      '?',
    )
    .map((junk) => ({ key: junk, value: '', bad: false, raw: true })),
);

describe('URL state: decodeQuery', () => {
  // Each link's manifest is schema-validated (about 20 ms with up to 12 settings); 250 links of up to 12 parts each.
  test('never throws; every bad value becomes a notice naming its field; the manifest stays well-formed (250 links)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(queryPart, { maxLength: 12 }), fc.boolean(), async (parts, withVersion) => {
        const params = parts.map((p) =>
          'raw' in p ? p.key : `${encodeURIComponent(p.key)}=${encodeURIComponent(p.value)}`,
        );
        const query = `?${withVersion ? 'v=1&' : ''}${params.join('&')}`;
        let state: ReturnType<typeof decodeQuery> | undefined;
        assert.doesNotThrow(() => {
          state = decodeQuery(query, profiles);
        }, query);
        const seen = new Set<string>();
        if (query.length - 1 > MAX_QUERY_LENGTH) {
          assert.deepEqual(state!.notices, [
            `The link's settings are longer than ${MAX_QUERY_LENGTH} characters and were ignored; showing the defaults.`,
          ]);
          seen.add('*'); // the whole link was ignored
        }
        for (const p of parts) {
          if (seen.has('*')) break;
          if ('raw' in p || seen.has(p.key)) continue;
          seen.add(p.key);
          if (p.bad)
            assert.ok(
              state!.notices.some((n) => n.includes(p.key)),
              `${query}\nno notice for ${p.key}: ${JSON.stringify(state!.notices)}`,
            );
        }
        for (const notice of state!.notices)
          assert.ok(!UNSEEN.test(notice) && notice.length < 800, `notice: ${JSON.stringify(notice)}`);
        for (const [flag, value] of Object.entries(state!.raw)) {
          const spec = FIELDS.find((f) => f.flag === flag)!;
          assert.ok(spec, `raw holds an unknown key ${flag}`);
          assert.ok(
            value.trim() === '' || parseValue(spec, value, profileIdsFor(spec, profiles)).ok,
            `raw keeps a bad ${flag}=${show(value)}`,
          );
        }
        const problems = await manifestProblems({ inputs: state!.inputs, errors: [] });
        assert.deepEqual(problems, [], `${query}\n${problems.join('\n')}`);
      }),
      { numRuns: 250 },
    );
  });

  test('never throws on arbitrary text, and ignores an over-long link with a notice', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        assert.doesNotThrow(() => decodeQuery(text, profiles));
      }),
      { numRuns: 1000 },
    );
    const long = decodeQuery(`?v=1&tpot-ms=20&model=${'a'.repeat(MAX_QUERY_LENGTH)}`, profiles);
    assert.equal(long.inputs.tpotMs, 100); // the default, content/request-defaults.yaml
    assert.equal(long.notices.length, 1);
    assert.match(long.notices[0], /longer than 4000 characters/);
  });

  test('a duplicated key keeps the first value and says so', () => {
    const state = decodeQuery('?v=1&tpot-ms=20&tpot-ms=30', profiles);
    assert.equal(state.inputs.tpotMs, 20);
    assert.ok(
      state.notices.some((n) => n.includes('tpot-ms more than once')),
      JSON.stringify(state.notices),
    );
  });
});
