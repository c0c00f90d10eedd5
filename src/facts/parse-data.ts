/**
 * Validate parsed data with its zod schema and word what is wrong: every problem names the file, the path of the
 * field (`knobs[0].role`) and what the value must be, with what was found (`must be one of a, b, found string "c"`).
 */
import type { z } from 'zod';

/** A data file that does not match its schema; the message has one line per problem. */
class ProfileDataError extends Error {
  constructor(file: string, problems: readonly { path: string; text: string }[]) {
    super(problems.map((p) => `${file}: ${p.path} ${p.text}`).join('\n'));
    this.name = 'ProfileDataError';
  }
}

/** A value as a message shows it: `missing`, `null`, `a list`, or its type and (the start of) its JSON. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`;
}

const EXPECTED: Record<string, string> = {
  string: 'a non-empty string',
  object: 'a mapping',
  record: 'a mapping',
  array: 'a list',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
};

/** The words for a problem zod found; a schema's own `error` (a range, a release) takes precedence over these. */
function explain(issue: z.core.$ZodRawIssue): string | undefined {
  const found = `found ${describeValue(issue.input)}`;
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${EXPECTED[issue.expected] ?? issue.expected}, ${found}`;
    case 'invalid_value':
      return `must be one of ${issue.values.join(', ')}, ${found}`;
    case 'invalid_format':
      return issue.format === 'regex' ? `must match ${issue.pattern}, found ${JSON.stringify(issue.input)}` : undefined;
    case 'too_small':
      return issue.origin === 'array' ? `must have at least ${issue.minimum} item(s)` : undefined;
    case 'unrecognized_keys': {
      const shape = (issue.inst as { shape?: object } | undefined)?.shape;
      return `is not a known field${shape ? ` (known: ${Object.keys(shape).join(', ')})` : ''}`;
    }
  }
  return undefined;
}

/** A path as the messages write it: `knobs[0].role`, `comments.spec.timeout`; the root is `(top level)`. */
function pathText(path: readonly PropertyKey[]): string {
  const text = path.reduce<string>(
    (s, key) => (typeof key === 'number' ? `${s}[${key}]` : s ? `${s}.${String(key)}` : String(key)),
    '',
  );
  return text || '(top level)';
}

/** Validate `data` (parsed from `file`) with `schema`; throws a ProfileDataError listing every problem. */
export function parseData<S extends z.ZodType>(schema: S, data: unknown, file: string): z.output<S> {
  const result = schema.safeParse(data, { error: explain });
  if (result.success) return result.data;
  throw new ProfileDataError(
    file,
    result.error.issues.flatMap((issue) =>
      issue.code === 'unrecognized_keys'
        ? issue.keys.map((key) => ({ path: pathText([...issue.path, key]), text: issue.message }))
        : [{ path: pathText(issue.path), text: issue.message }],
    ),
  );
}
