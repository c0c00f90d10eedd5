/** Reading numbers as people write them: thousands separators accepted, suffixes refused with a way to write them. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { numberFromText, parseValue } from '../../src/model/parse-value.ts';
import { fieldFor } from '../../src/model/fields.ts';

const read = (flag: string, raw: unknown) => parseValue(fieldFor(flag)!, raw);
const messageOf = (flag: string, raw: unknown): string => {
  const r = read(flag, raw);
  assert.equal(r.ok, false, `${flag}=${String(raw)} should be refused`);
  return (r as { message: string }).message;
};

test('thousands grouped by a comma, a space, a no-break, thin or narrow no-break space read as one number', () => {
  for (const text of ['16,384', '16 384', '16\u00A0384', '16\u2009384', '16\u202F384', ' 16,384 ']) {
    assert.deepEqual(read('max-output-tokens', text), { ok: true, value: 16384 }, JSON.stringify(text));
  }
  assert.deepEqual(read('max-output-tokens', '1,000,000'), { ok: true, value: 1000000 });
  assert.deepEqual(read('tpot-ms', '1,000.5'), { ok: true, value: 1000.5 });
  assert.equal(numberFromText('-1 200'), -1200);
});

test('grouping that is not thousands, or mixes separators, is not a number', () => {
  for (const text of ['1,5', '16,38', '16,3840', '1,000 000', '1 000,000', ',384', '16,,384', '16, 384', '1.000,5']) {
    assert.equal(numberFromText(text), undefined, JSON.stringify(text));
  }
  assert.equal(
    messageOf('max-output-tokens', '1,000 000'),
    'max-output-tokens must be a whole number from 1 to 1,000,000 (got "1,000 000")',
  );
});

test('a grouped number still has to be in range', () => {
  assert.equal(messageOf('replicas', '1,001'), 'replicas must be a whole number from 1 to 1,000 (got "1,001")');
});

test('16k gets a message that says how to write it', () => {
  assert.equal(
    messageOf('max-output-tokens', '16k'),
    'max-output-tokens must be a whole number from 1 to 1,000,000 (got "16k"): write the number in digits: 16000 for 16 × 1,000, or 16384 for 16 × 1,024',
  );
  assert.equal(
    messageOf('max-output-tokens', '2M'),
    'max-output-tokens must be a whole number from 1 to 1,000,000 (got "2M"): write the number in digits: 2000000 for 2 × 1,000,000, or 2097152 for 2 × 1,048,576',
  );
});

test('a unit after the number is named, and minutes or hours in a seconds field are converted', () => {
  assert.equal(
    messageOf('tpot-ms', '30ms'),
    'tpot-ms must be a number from 0.1 to 10,000 (got "30ms"): write the number without "ms" (the field is in ms): 30',
  );
  assert.equal(
    messageOf('startup-seconds', '5m'),
    'startup-seconds must be a whole number from 1 to 86,400 (got "5m"): write it in seconds: 300',
  );
  assert.equal(
    messageOf('startup-seconds', '1.5 h'),
    'startup-seconds must be a whole number from 1 to 86,400 (got "1.5 h"): write it in seconds: 5400',
  );
});

test('a decimal comma is refused with the dot form', () => {
  assert.equal(
    messageOf('tpot-ms', '1,5'),
    'tpot-ms must be a number from 0.1 to 10,000 (got "1,5"): write decimals with a dot: 1.5',
  );
});

test('words stay refused with the plain range message', () => {
  assert.equal(messageOf('replicas', 'abc'), 'replicas must be a whole number from 1 to 1,000 (got "abc")');
  assert.equal(messageOf('replicas', ''), 'replicas must be a whole number from 1 to 1,000 (got "")');
});
