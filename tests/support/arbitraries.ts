/**
 * fast-check generators for the drain model's inputs, built from the field table (FIELDS) so that a new field
 * or a changed range is picked up without editing the tests: valid inputs (every field within its range, the
 * combination rules of `resolve.ts` respected) and hostile ones (values each field must refuse).
 */
import fc from 'fast-check';
import { FIELDS, type FieldSpec } from '../../src/model/fields.ts';
import type { Profiles } from '../../src/facts/profiles.ts';

/**
 * Strings that are valid names, images or model ids yet mean something else to a YAML parser: YAML 1.1
 * booleans (kubectl's parser), numbers in several notations, null words, sexagesimal `1:20`.
 */
const YAML_LOOKALIKES = [
  'yes',
  'no',
  'on',
  'off',
  'y',
  'n',
  'true',
  'false',
  'null',
  'nan',
  'inf',
  '123',
  '0755',
  '08',
  '1e3',
  '0x1f',
  '0o17',
  'Yes',
  'NO',
  'Off',
  'Y',
  'N',
  'TRUE',
  'Null',
  'NULL',
  '1:20',
  '1.0',
  '.5',
  '-1',
  '1_000',
];

const SAFE_LIMIT_SECONDS = 86_000; // under max-request-seconds' 86,400 with room for floating-point noise

/**
 * What the output forms take beside a field's own pattern: the name is GIE's chart release, whose picker Service
 * must start with a letter (the forms refuse a name starting with a digit, naming the flag; emit-chart-install tests it).
 */
function formsAccept(spec: FieldSpec, value: string): boolean {
  return spec.flag !== 'name' || /^[a-z]/.test(value);
}

/** Text a field accepts that also reads as something else in YAML, filtered through the field's own pattern. */
function lookalikesFor(spec: FieldSpec): string[] {
  return YAML_LOOKALIKES.filter((s) => spec.pattern!.test(s) && s.length <= spec.maxLength! && formsAccept(spec, s));
}

/** A valid value for a text field: random text matching its pattern, or a YAML look-alike it accepts. */
function validText(spec: FieldSpec): fc.Arbitrary<string> {
  const random = fc
    .stringMatching(spec.pattern!)
    .filter((s) => s.length >= 1 && s.length <= spec.maxLength! && formsAccept(spec, s));
  const lookalikes = lookalikesFor(spec);
  return lookalikes.length > 0
    ? fc.oneof({ arbitrary: random, weight: 3 }, { arbitrary: fc.constantFrom(...lookalikes), weight: 1 })
    : random;
}

/** Whole or millisecond values in [min, max], as a number (JSON) or as text (CLI, URL, form). */
function validNumber(spec: FieldSpec): fc.Arbitrary<number> {
  return spec.kind === 'int'
    ? fc.integer({ min: spec.min!, max: spec.max! })
    : fc.integer({ min: Math.round(spec.min! * 1000), max: Math.round(spec.max! * 1000) }).map((n) => n / 1000);
}

function asText(value: number | boolean, spec: FieldSpec): fc.Arbitrary<string | number | boolean> {
  if (typeof value === 'boolean') return fc.constantFrom(value, String(value), value ? '1' : '0');
  const forms: (string | number)[] = [value, String(value)];
  if (spec.kind === 'number') forms.push(value.toFixed(3));
  if (spec.kind === 'int') forms.push(`${value}.0`, ` ${value} `);
  return fc.constantFrom(...forms);
}

/** A valid value for one field, in any of the forms the surfaces accept. */
export function validValue(spec: FieldSpec, profiles: Profiles): fc.Arbitrary<string | number | boolean> {
  switch (spec.kind) {
    case 'int':
    case 'number':
      return validNumber(spec).chain((v) => asText(v, spec));
    case 'bool':
      return fc.boolean().chain((v) => asText(v, spec));
    case 'enum':
      return fc.constantFrom(...spec.choices!);
    case 'profile':
      return fc.constantFrom(...(spec.key === 'gateway' ? profiles.gateways : profiles.modelServers).map((p) => p.id));
    case 'version':
      return fc
        .tuple(
          fc.integer({ min: spec.min!, max: spec.max! }),
          fc.constantFrom('', 'v'),
          fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
        )
        .map(([minor, prefix, patch]) => `${prefix}1.${minor}${patch === undefined ? '' : `.${patch}`}`);
    case 'release':
      return fc
        .tuple(fc.constantFrom('', 'v'), fc.array(fc.integer({ min: 0, max: 999 }), { minLength: 1, maxLength: 4 }))
        .map(([prefix, parts]) => `${prefix}${parts.join('.')}`);
    case 'name':
    case 'text':
      return validText(spec);
  }
}

const HEALTH_CHECK = [
  'health-check-interval-seconds',
  'health-check-unhealthy-threshold',
  'health-check-timeout-seconds',
];

/** The numeric value of a generated raw value (for the combination rules). */
function numeric(value: unknown, fallback: number): number {
  return value === undefined ? fallback : Number(String(value).trim());
}

/**
 * Valid raw inputs keyed by flag: any subset of the fields, each within its range, with the removal given one
 * of the ways the model allows (the profile's, a number, or health-check settings) and a derived longest request
 * that stays within max-request-seconds' range.
 */
export function validInputs(profiles: Profiles): fc.Arbitrary<Record<string, string | number | boolean>> {
  const others = FIELDS.filter((f) => !['removal-seconds', 'propagation-seconds', ...HEALTH_CHECK].includes(f.flag));
  const record: Record<string, fc.Arbitrary<string | number | boolean>> = {};
  for (const f of others) record[f.flag] = validValue(f, profiles);
  const byFlag = (flag: string) => FIELDS.find((f) => f.flag === flag)!;
  const removalMode = fc.constantFrom('profile', 'given', 'health-check', 'health-check-partial', 'both');
  return fc
    .tuple(
      fc.record(record, { requiredKeys: [] }),
      removalMode,
      validValue(byFlag('removal-seconds'), profiles),
      fc.record(
        Object.fromEntries(HEALTH_CHECK.map((flag) => [flag, validValue(byFlag(flag), profiles)])) as Record<
          string,
          fc.Arbitrary<string | number | boolean>
        >,
      ),
      fc.option(validValue(byFlag('propagation-seconds'), profiles), { nil: undefined }),
      fc.subarray(HEALTH_CHECK, { minLength: 1 }),
    )
    .map(([base, mode, removal, healthCheck, propagation, partial]) => {
      const raw = { ...base } as Record<string, string | number | boolean>;
      const gateway = profiles.gateways.find((g) => g.id === (raw.gateway ?? 'gke'))!;
      if (mode === 'given' || mode === 'both') raw['removal-seconds'] = removal;
      // Health-check settings are inputs only for gateways that detect by health checks (they have healthCheck data).
      const healthChecked = Boolean(gateway.healthCheck);
      if (healthChecked && (mode === 'health-check' || mode === 'both')) Object.assign(raw, healthCheck);
      if (healthChecked && mode === 'health-check-partial') for (const flag of partial) raw[flag] = healthCheck[flag];
      if (healthChecked && mode !== 'profile' && mode !== 'given' && propagation !== undefined)
        raw['propagation-seconds'] = propagation;
      // The output form is covered by tests/unit/emit-*.test.ts; the properties here are the bundle's.
      delete raw.output;
      // model-server-version is for images whose tag names no release: keep it only with a given image without a tag.
      const image = typeof raw.image === 'string' ? raw.image.split('@')[0] : undefined;
      if (
        raw['model-server-version'] !== undefined
        && (image === undefined || image.slice(image.lastIndexOf('/') + 1).includes(':'))
      ) {
        delete raw['model-server-version'];
      }
      // A derived longest request must stay within max-request-seconds' range: shrink max-output-tokens if needed.
      if (raw['max-request-seconds'] === undefined) {
        const tpot = numeric(raw['tpot-ms'], 100); // content/request-defaults.yaml
        const overhead = numeric(raw['prefill-overhead-percent'], 20);
        const tokens = numeric(raw['max-output-tokens'], 4096);
        const perToken = (tpot / 1000) * (1 + overhead / 100);
        if (tokens * perToken > SAFE_LIMIT_SECONDS)
          raw['max-output-tokens'] = Math.max(1, Math.floor(SAFE_LIMIT_SECONDS / perToken));
      }
      return raw;
    });
}

/** Text that must never be accepted as a number: each is refused by every numeric field. */
const NOT_NUMBERS = [
  'NaN',
  'nan',
  'Infinity',
  '-Infinity',
  'inf',
  '1e3',
  '1E2',
  '0x10',
  '0b1',
  '0o7',
  '1_000',
  '1,5',
  '٣',
  '５',
  '1 2',
  '5s',
  '10ms',
  '--5',
  '+-1',
  '5-',
  '- 5',
  '.',
  '-',
  '1..2',
  'true',
  'null',
  'undefined',
  '[object Object]',
  '{}',
  '[]',
  '5: 6',
  '5 # comment',
  '"5"',
  "'5'",
  '5\n6',
  '\u00a05x',
];

/** Strings with the characters that break YAML, shells and HTML, for text fields. */
const HOSTILE_TEXT = fc.oneof(
  fc.constantFrom(
    'a\nb',
    'a\r\nkind: Secret',
    'x"y',
    "x'y",
    'key: value',
    'a #b',
    '#comment',
    'a\tb',
    'a b',
    '-a',
    '.a',
    '{a}',
    '[a]',
    '&anchor',
    '*alias',
    '!tag',
    '%YAML',
    '@a',
    '|',
    '>',
    '`a`',
    '$(id)',
    '${x}',
    '<script>',
    'é',
    'Ω',
    '😀',
    'a\u0000b',
    '\u202ea',
    'a\u2028b',
    '---',
    '...',
  ),
  fc
    .tuple(
      fc.string({ unit: 'grapheme', maxLength: 10 }),
      fc.constantFrom('\n', '"', "'", ': ', ' #', '\u2028', '😀', 'é', ' '),
      fc.string({ maxLength: 10 }),
    )
    .map(([a, bad, b]) => `x${a}${bad}${b}`),
);

/** JSON values of the wrong type (the core also reads JSON): never a valid number, name or choice. */
const WRONG_TYPES = fc.constantFrom<unknown>(true, false, [], {}, [5], { a: 1 }) as fc.Arbitrary<
  string | number | boolean
>;

/** A value `spec` must refuse. */
export function invalidValue(spec: FieldSpec, profiles: Profiles): fc.Arbitrary<string | number | boolean> {
  switch (spec.kind) {
    case 'int':
    case 'number': {
      const min = spec.min!;
      const max = spec.max!;
      const outside = fc
        .oneof(
          fc
            .double({ min: -1e12, max: min, noNaN: true, maxExcluded: true })
            .filter((n) => n < min && Math.round(n * 1000) / 1000 < min),
          fc
            .double({ min: max, max: 1e300, noNaN: true, minExcluded: true })
            .filter((n) => n > max && Math.round(n * 1000) / 1000 > max),
          fc.constantFrom(NaN, Infinity, -Infinity, Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** 53, -1),
        )
        .filter((n) => !(n >= min && n <= max));
      const arbitraries: fc.Arbitrary<string | number | boolean>[] = [
        outside,
        outside.filter(Number.isFinite).map((n) => String(n)),
        fc.constantFrom(...NOT_NUMBERS),
        HOSTILE_TEXT,
        fc.constantFrom('9'.repeat(400), `1${'0'.repeat(30)}`),
        WRONG_TYPES,
      ];
      if (spec.kind === 'int') {
        arbitraries.push(
          fc
            .integer({ min: min * 10, max: max * 10 })
            .map((n) => n / 10)
            .filter((n) => !Number.isInteger(n) && n > min && n < max),
        );
        arbitraries.push(
          fc
            .integer({ min: min * 10, max: max * 10 })
            .map((n) => n / 10)
            .filter((n) => !Number.isInteger(n) && n > min && n < max)
            .map(String),
        );
      }
      return fc.oneof(...arbitraries);
    }
    case 'bool':
      return fc.oneof(
        fc.constantFrom('yes', 'no', 'on', 'off', 'TRUE', 'False', '2', '-1', 'null', 'truee', 'y'),
        HOSTILE_TEXT,
      );
    case 'enum':
      return fc.oneof(
        fc
          .constantFrom(
            ...spec.choices!.flatMap((c) => [c.toLowerCase(), c.toUpperCase(), `${c} `, `${c}\n`, `"${c}"`]),
          )
          .filter((s) => !spec.choices!.includes(s)),
        HOSTILE_TEXT,
        WRONG_TYPES,
      );
    case 'profile': {
      const ids = (spec.key === 'gateway' ? profiles.gateways : profiles.modelServers).map((p) => p.id);
      return fc
        .oneof(
          fc.constantFrom(
            ...ids.flatMap((id) => [id.toUpperCase(), `${id}\n`, `${id}: x`, `${id}#`, `../${id}`, `${id}\u00e9`]),
          ),
          HOSTILE_TEXT,
        )
        .filter((s) => !ids.includes(s));
    }
    case 'version':
      return fc.oneof(
        fc
          .integer({ min: 0, max: 99 })
          .filter((m) => m < spec.min! || m > spec.max!)
          .map((m) => `1.${m}`),
        WRONG_TYPES,
        fc.constantFrom(
          '2.30',
          '1',
          '1.',
          '1.3a',
          'v2',
          '1.30.1.1',
          '1.30-beta',
          'latest',
          '1,30',
          '1.30:',
          '１.30',
          '1.3e1',
          '1.30 #x',
        ),
        HOSTILE_TEXT,
      );
    case 'release':
      return fc.oneof(
        fc.constantFrom(
          'latest',
          'nightly',
          '1.2.3.4.5',
          '1..2',
          'v',
          'vv1',
          '1.',
          '.1',
          '1.2-rc1',
          '1,2',
          '１.2',
          '1.2 #x',
          '0x10',
          '1e3',
        ),
        fc.constant(`${'1.'.repeat(12)}1`),
        HOSTILE_TEXT,
        WRONG_TYPES,
      );
    case 'name':
    case 'text':
      return fc
        .oneof(
          HOSTILE_TEXT,
          fc.constant('a'.repeat(spec.maxLength! + 1)),
          fc.constant(`x${'-'.repeat(5000)}x`),
          WRONG_TYPES,
        )
        .filter((s) => typeof s !== 'string' || !(spec.pattern!.test(s) && s.length <= spec.maxLength!));
  }
}

/** A field and a value it must refuse. */
export function fieldWithInvalidValue(
  profiles: Profiles,
): fc.Arbitrary<{ spec: FieldSpec; value: string | number | boolean }> {
  return fc.constantFrom(...FIELDS).chain((spec) => invalidValue(spec, profiles).map((value) => ({ spec, value })));
}
