import type { FieldSpec } from './fields.ts';
import { releaseParts } from '../facts/releases.ts';

/** The result of reading one field: a value, or a message naming the field and its allowed values. */
export type ParsedValue = { ok: true; value: number | boolean | string } | { ok: false; message: string };

const NUMBER_TEXT = /^-?(\d+(\.\d*)?|\.\d+)$/;

/**
 * A number with its thousands grouped by one separator used throughout: a comma, a space, a no-break space
 * (U+00A0), a thin space (U+2009) or a narrow no-break space (U+202F): `16,384`, `16 384`, `1,000,000.5`.
 * Groups after the first have exactly three digits, so `1,5` (a decimal comma) is not read as 15.
 */
const GROUPED_NUMBER_TEXT = /^(-?\d{1,3})([, \u00A0\u2009\u202F])(\d{3}(?:\2\d{3})*)(\.\d*)?$/;

/** A number followed by a unit or a multiplier: `16k`, `30s`, `2.5 M`. */
const NUMBER_WITH_SUFFIX = /^(-?(?:\d+(?:\.\d*)?|\.\d+))\s*([a-zA-Z%]+)$/;

/** The number a text stands for, with thousands separators removed; undefined when it is not a plain number. */
export function numberFromText(text: string): number | undefined {
  const trimmed = text.trim();
  if (NUMBER_TEXT.test(trimmed)) return Number(trimmed);
  const grouped = GROUPED_NUMBER_TEXT.exec(trimmed);
  if (grouped) return Number(`${grouped[1]}${grouped[3].replaceAll(grouped[2], '')}${grouped[4] ?? ''}`);
  return undefined;
}

/** How to write a number given with a suffix (`16k`, `30s`) or a decimal comma (`1,5`); undefined for other text. */
function suffixAdvice(spec: FieldSpec, text: string): string | undefined {
  const decimalComma = /^(-?\d+),(\d{1,2}|\d{4,})$/.exec(text.trim());
  if (decimalComma) return `write decimals with a dot: ${decimalComma[1]}.${decimalComma[2]}`;
  const match = NUMBER_WITH_SUFFIX.exec(text.trim());
  if (!match) return undefined;
  const [, digits, suffix] = match;
  const n = Number(digits);
  if (spec.unit === 's' && ['m', 'min', 'h'].includes(suffix)) {
    const seconds = Math.round(n * (suffix === 'h' ? 3600 : 60) * 1000) / 1000;
    return `write it in seconds: ${seconds}`;
  }
  const multiplier = ({ k: [1e3, 1024], m: [1e6, 1024 * 1024] } as Record<string, [number, number]>)[
    suffix.toLowerCase()
  ];
  if (multiplier) {
    const [decimal, binary] = multiplier.map((m) => Math.round(n * m));
    return `write the number in digits: ${decimal} for ${digits} × ${multiplier[0].toLocaleString('en-US')}, or ${binary} for ${digits} × ${multiplier[1].toLocaleString('en-US')}`;
  }
  return `write the number without "${suffix}"${spec.unit ? ` (the field is in ${spec.unit})` : ''}: ${digits}`;
}

/** Quote a value for a message: JSON escaping shows newlines and quotes, and long values are cut. */
export function quoteForMessage(raw: unknown): string {
  const text = typeof raw === 'string' ? raw : String(raw);
  const cut = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return JSON.stringify(cut).replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`); // line/paragraph separators, NEL, bidi overrides: escaped, so a message stays one readable line
}

/** Format a number for a range message: 1000000 → "1,000,000". */
function formatBound(n: number): string {
  return n.toLocaleString('en-US');
}

/** Describe the allowed values of a field, for messages and help text. */
export function describeRange(spec: FieldSpec, profileIds: readonly string[] = []): string {
  switch (spec.kind) {
    case 'int':
      return `a whole number from ${formatBound(spec.min!)} to ${formatBound(spec.max!)}`;
    case 'number':
      return `a number from ${formatBound(spec.min!)} to ${formatBound(spec.max!)}`;
    case 'bool':
      return 'true or false';
    case 'enum':
      return `one of ${spec.choices!.join(', ')}`;
    case 'profile':
      return `one of ${profileIds.join(', ')}`;
    case 'version':
      return `a Kubernetes version from 1.${spec.min} to 1.${spec.max}, such as 1.34`;
    case 'release':
      return `a release number such as 0.18.1 or v3.3.5 (1 to 4 numbers joined by dots), at most ${spec.maxLength} characters`;
    case 'name':
    case 'text':
      return `${spec.shape}, 1 to ${spec.maxLength} characters`;
  }
}

/**
 * Read one field from text (CLI, URL, form) or from a JSON value.
 * Numbers are rounded to the millisecond, so that 30 × 1.1 stays 33; whole-number fields reject fractions.
 */
export function parseValue(spec: FieldSpec, raw: unknown, profileIds: readonly string[] = []): ParsedValue {
  const fail = (advice?: string): ParsedValue => ({
    ok: false,
    message: `${spec.flag} must be ${describeRange(spec, profileIds)} (got ${quoteForMessage(raw)})${advice ? `: ${advice}` : ''}`,
  });
  switch (spec.kind) {
    case 'int':
    case 'number': {
      let n: number | undefined;
      if (typeof raw === 'number') n = raw;
      else if (typeof raw === 'string') n = numberFromText(raw);
      if (n === undefined) return fail(typeof raw === 'string' ? suffixAdvice(spec, raw) : undefined);
      if (!Number.isFinite(n) || n < spec.min! || n > spec.max!) return fail();
      if (spec.kind === 'int' && !Number.isInteger(n)) return fail();
      return { ok: true, value: Math.round(n * 1000) / 1000 };
    }
    case 'bool': {
      if (raw === true || raw === 'true' || raw === '1' || raw === '') return { ok: true, value: true };
      if (raw === false || raw === 'false' || raw === '0') return { ok: true, value: false };
      return fail();
    }
    case 'enum':
    case 'profile': {
      const allowed = spec.kind === 'enum' ? spec.choices! : profileIds;
      return typeof raw === 'string' && allowed.includes(raw) ? { ok: true, value: raw } : fail();
    }
    case 'version': {
      const match = typeof raw === 'string' ? /^v?1\.(\d{1,2})(\.\d{1,3})?$/.exec(raw.trim()) : null;
      if (!match) return fail();
      const minor = Number(match[1]);
      if (minor < spec.min! || minor > spec.max!) return fail();
      return { ok: true, value: `1.${minor}` };
    }
    case 'release': {
      const text = typeof raw === 'string' ? raw.trim() : '';
      if (text.length === 0 || text.length > spec.maxLength! || !releaseParts(text)) return fail();
      return { ok: true, value: text.replace(/^v/, '') };
    }
    case 'name':
    case 'text': {
      if (typeof raw !== 'string' || raw.length === 0 || raw.length > spec.maxLength! || !spec.pattern!.test(raw))
        return fail();
      return { ok: true, value: raw };
    }
  }
}
