/**
 * How the API server's clients read YAML numbers. kubectl (and the API server for `application/yaml`) turn YAML into
 * JSON with sigs.k8s.io/yaml, whose go-yaml v2 fork resolves a plain scalar (goyaml.v2/resolve.go) by removing every
 * `_` and trying Go's `strconv.ParseInt(text, 0, 64)`, then `ParseUint`, then a float: so `0o36`, `036`, `0x1e` and
 * `0b11110` are all 30, `1e3` and `30.0` are floats that JSON writes as 1000 and 30, and the YAML 1.1 base-60 forms
 * (`1:30`) stay strings. `yaml`'s YAML 1.1 schema agrees except for `0o…` (a string there) and base 60 (a number
 * there); these options make it agree. An integer beyond 2^53, which a double cannot hold exactly, is read as the
 * nearest double on its own side of 2^63, so that a range check still tells int64's maximum from the value past it.
 */
import type { DocumentOptions, ParseOptions, ScalarTag, SchemaOptions, Tags } from 'yaml';

/** 2^63, the first integer past int64. */
const INT64_END = 2n ** 63n;
/** The largest double below 2^63. */
const BELOW_INT64_END = 2 ** 63 - 1024;

/** The value of a Go base-0 integer literal (without `_`), as a number that keeps which side of ±2^63 it is on. */
function goInteger(text: string): number {
  const negative = text.startsWith('-');
  const digits = text.replace(/^[-+]/, '');
  const body = /^0[0-7]+$/.test(digits) ? `0o${digits.slice(1)}` : digits;
  const magnitude = BigInt(body.toLowerCase());
  const value = negative ? -magnitude : magnitude;
  if (value >= INT64_END) return Math.max(Number(value), 2 ** 63);
  if (value < -INT64_END) return Math.min(Number(value), -(2 ** 63) - 2048);
  const n = Number(value);
  return n >= 2 ** 63 ? BELOW_INT64_END : n;
}

/**
 * An integer as go-yaml resolves it: a plain scalar that is a Go base-0 integer (decimal, `0` octal, `0o`, `0x`, `0b`,
 * a sign first) once every `_` is removed; go-yaml reads a scalar starting with `_` as a string.
 */
const goIntTag: ScalarTag = {
  tag: 'tag:yaml.org,2002:int',
  default: true,
  identify: () => false,
  test: /^(?:[-+]_*)?(?:0_*[oO][0-7_]*[0-7][0-7_]*|0_*[xX][0-9a-fA-F_]*[0-9a-fA-F][0-9a-fA-F_]*|0_*[bB][01_]*[01][01_]*|0[0-7_]*|[1-9][0-9_]*)$/,
  resolve: (text) => goInteger(text.replace(/_/g, '')),
};

/** The YAML 1.1 tags as go-yaml reads them: its integers first, and no base-60 numbers. */
function kubeTags(tags: Tags): Tags {
  return [goIntTag, ...tags.filter((tag) => typeof tag === 'string' || (tag as ScalarTag).format !== 'TIME')];
}

/** Parse options that read a manifest as kubectl does: YAML 1.1 with go-yaml's numbers. */
export const KUBE_YAML: ParseOptions & DocumentOptions & SchemaOptions = {
  version: '1.1',
  customTags: kubeTags,
  // The yaml package reports some readings (a mapping used as a key is made a string) through Node's process
  // warnings, which would print on the CLI's stderr beside its own output; the checker reports what it cannot read.
  logLevel: 'error',
};
