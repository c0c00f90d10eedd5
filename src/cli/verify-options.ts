/**
 * `hitless verify`'s flags: parsed with the CLI's parseArgs (plus repeated `--header` and `-n`),
 * checked against their ranges. Every bad value is a UsageError naming the flag and what it allows.
 */
import { choiceOption, numberOption, parseArgs, UsageError } from './args.ts';
import { readFlagFile } from './read-input.ts';
import type { Api, VerifyOptions } from '../verify/options.ts';

/** The path each API appends to the base URL. */
const API_PATHS: Readonly<Record<Api, string>> = { completions: '/v1/completions', chat: '/v1/chat/completions' };

/** Ranges of the numeric flags: [min, max, default]. */
export const RANGES = {
  rate: [0.1, 1000, 5],
  concurrency: [1, 5000, 100],
  duration: [1, 86_400, 60],
  'max-tokens': [1, 100_000, 200],
  timeout: [1, 3600, 300],
  warmup: [0, 3600, 30],
  'rollout-timeout': [10, 7200, 900],
  shards: [1, 100, 4],
} as const satisfies Record<string, readonly [number, number, number]>;

/** The prompt when none is given: asks for a long answer, so streams last. */
const DEFAULT_PROMPT = 'Write a detailed, step-by-step guide to keeping a lighthouse running through a winter storm.';

const STRING_OPTIONS = [
  'url',
  'api',
  'rate',
  'concurrency',
  'duration',
  'max-tokens',
  'prompt',
  'prompt-file',
  'timeout',
  'id-header',
  'format',
  'report',
  'restart',
  'context',
  'warmup',
  'rollout-timeout',
  'shards',
  'job-name',
  'header-secret',
];
const BOOLEAN_OPTIONS = ['merge', 'emit-job', 'quiet', 'exit-zero', 'help'];
/** Kubernetes object names (RFC 1123 subdomain, as Deployments and Jobs use). */
const K8S_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** The largest prompt file read (a long-context prompt fits; /dev/zero stops here). */
const MAX_PROMPT_BYTES = 2 ** 20;

/** A number flag within its range (`whole`: an integer). */
const rangeOption = (value: string | undefined, flag: keyof typeof RANGES, whole: boolean) =>
  numberOption(value, flag, RANGES[flag], whole);

/** Split `--header K:V` (repeatable) and `-n NS` out of argv; the rest goes to parseArgs. */
function extractRepeated(argv: string[]): { rest: string[]; headers: string[]; namespace: string | undefined } {
  const rest: string[] = [];
  const headers: string[] = [];
  let namespace: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      // The end of options: the rest goes to parseArgs, which takes it as positional.
      rest.push(...argv.slice(i));
      break;
    }
    if (arg === '--header' || arg === '-n') {
      if (i + 1 >= argv.length) throw new UsageError(`${arg} needs a value`);
      if (arg === '-n') namespace = argv[++i];
      else headers.push(argv[++i]);
    } else if (arg.startsWith('--header=')) headers.push(arg.slice('--header='.length));
    else rest.push(arg);
  }
  return { rest, headers, namespace };
}

/**
 * Headers that frame the message or belong to one connection: verify sets the body's length itself, and one of these
 * sent as given (a second Content-Length, a Transfer-Encoding over a fixed body) is a malformed request toward a
 * keep-alive gateway. `Host` is not among them: it is how people reach a gateway by its address.
 */
const FRAMING_HEADERS = ['content-length', 'transfer-encoding', 'connection', 'upgrade', 'te', 'keep-alive'];

/** A header value HTTP allows, as verify sends it: visible ASCII, with spaces and tabs only inside. */
const HEADER_VALUE = /^(?:[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?)?$/;

/** Why `name` cannot be sent as a header chosen by the user, or undefined when it can. */
function headerNameProblem(name: string): string | undefined {
  if (FRAMING_HEADERS.includes(name.toLowerCase()))
    return `is a framing or connection header, which verify sets itself (not allowed: ${FRAMING_HEADERS.join(', ')})`;
  return undefined;
}

/** Parse `K:V` headers; the message names the header's position or name, never its value; a name given twice is refused. */
function parseHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  values.forEach((value, i) => {
    const colon = value.indexOf(':');
    const name = colon === -1 ? '' : value.slice(0, colon).trim();
    if (!HEADER_NAME.test(name))
      throw new UsageError(`--header number ${i + 1} must look like Name:value (a header name, a colon, the value)`);
    const v = value.slice(colon + 1).trim();
    if (/[\r\n\0]/.test(v)) throw new UsageError(`--header ${name} has a line break or NUL in its value`);
    if (!HEADER_VALUE.test(v))
      throw new UsageError(
        `--header ${name} has a character HTTP does not allow in a value (only visible ASCII, spaces and tabs)`,
      );
    const problem = headerNameProblem(name);
    if (problem) throw new UsageError(`--header ${name} ${problem}`);
    if (Object.hasOwn(headers, name.toLowerCase()))
      throw new UsageError(`--header ${name} is given twice (header names ignore case); give each header once`);
    headers[name.toLowerCase()] = v;
  });
  return headers;
}

function parseUrl(value: string | undefined, api: Api): URL {
  if (value === undefined)
    throw new UsageError(
      '--url is required: the base URL of the OpenAI-compatible endpoint, e.g. http://gateway.example:80',
    );
  // The URL parser drops tabs and line breaks inside a URL without a word, and trims spaces: refuse them instead, and
  // do not echo the value (its query may hold a key).
  if (/[\u0000-\u0020\u007f]/.test(value))
    throw new UsageError(
      '--url must not contain spaces or control characters (tabs, line breaks); percent-encode them',
    );
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--url must be an http:// or https:// URL (got ${JSON.stringify(value)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--url must be an http:// or https:// URL (got ${JSON.stringify(url.protocol)})`);
  if (url.username || url.password)
    throw new UsageError('--url must not carry a user or password; pass credentials with --header');
  if (/\/v1(\/|$)/.test(url.pathname))
    throw new UsageError(`--url is the base URL without /v1/…: verify appends ${API_PATHS[api]} (chosen by --api)`);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${API_PATHS[api]}`;
  return url;
}

function parseRestart(
  value: string,
  namespace: string | undefined,
  context: string | undefined,
  options: Record<string, string>,
): VerifyOptions['restart'] {
  const match = /^deployment\/(.+)$/.exec(value);
  if (!match || !K8S_NAME.test(match[1])) {
    throw new UsageError(
      `--restart must name one Deployment as deployment/NAME (got ${JSON.stringify(value)}); verify restarts nothing else`,
    );
  }
  if (namespace === undefined)
    throw new UsageError('--restart needs -n NAMESPACE: verify never guesses the namespace of what it restarts');
  return {
    deployment: match[1],
    namespace,
    context: context ?? null,
    warmupSeconds: rangeOption(options.warmup, 'warmup', true),
    rolloutTimeoutSeconds: rangeOption(options['rollout-timeout'], 'rollout-timeout', true),
  };
}

function readPrompt(options: Record<string, string>): string {
  if (options.prompt !== undefined && options['prompt-file'] !== undefined)
    throw new UsageError('--prompt and --prompt-file cannot be combined');
  if (options['prompt-file'] === undefined) {
    const prompt = options.prompt ?? DEFAULT_PROMPT;
    if (prompt.length === 0) throw new UsageError('--prompt must not be empty');
    return prompt;
  }
  const file = options['prompt-file'];
  // Bounded: a FIFO or a device (/dev/zero) stops at the cap, never read whole.
  const text = readFlagFile(file, MAX_PROMPT_BYTES, `--prompt-file ${JSON.stringify(file)}`);
  if (text.trim().length === 0) throw new UsageError('--prompt-file is empty');
  return text;
}

export function parseVerifyOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): VerifyOptions {
  const { rest, headers: headerValues, namespace: shortNamespace } = extractRepeated(argv);
  const args = parseArgs(rest, STRING_OPTIONS, BOOLEAN_OPTIONS);
  const { model, namespace: longNamespace, image, ...others } = args.inputs;
  const unknown = Object.keys(others)[0];
  if (unknown) throw new UsageError(`--${unknown} is not an option of verify (see hitless verify --help)`);
  if (shortNamespace !== undefined && longNamespace !== undefined)
    throw new UsageError('-n and --namespace are the same flag; give it once');
  const namespace = shortNamespace ?? longNamespace;
  if (namespace !== undefined && !/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(namespace)) {
    throw new UsageError(
      `-n must be a Kubernetes namespace name (lowercase letters, digits, '-'; got ${JSON.stringify(namespace)})`,
    );
  }
  const o = args.options;
  const format = choiceOption(args, 'format', ['text', 'json'], 'text');
  const base = {
    api: 'completions' as Api,
    model: model ?? '',
    ratePerSecond: 0,
    concurrency: 0,
    durationSeconds: null,
    maxTokens: 0,
    prompt: '',
    headers: {},
    timeoutSeconds: 0,
    idHeader: null,
    format,
    reportFile: o.report ?? null,
    quiet: o.quiet === 'true',
    exitZero: o['exit-zero'] === 'true',
    restart: null,
    job: null,
    mergeFiles: [],
    url: null,
  } satisfies Omit<VerifyOptions, 'mode'>;
  if (o.report !== undefined && !/\.html?$/i.test(o.report))
    throw new UsageError(`--report must name an .html file (got ${JSON.stringify(o.report)})`);
  if (o.help === 'true') return { ...base, mode: 'help' };
  if (o.merge === 'true' && o['emit-job'] === 'true') throw new UsageError('--merge and --emit-job cannot be combined');
  if (o.merge === 'true') {
    const extra = Object.keys(o).filter((k) => !['merge', 'format', 'report', 'quiet', 'exit-zero'].includes(k));
    if (extra.length > 0 || headerValues.length > 0 || model !== undefined)
      throw new UsageError(
        `--merge takes only report files, --format and --report (got --${extra[0] ?? (model !== undefined ? 'model' : 'header')})`,
      );
    if (args.positional.length === 0)
      throw new UsageError('--merge needs the JSON reports to merge: hitless verify --merge a.json b.json …');
    return { ...base, mode: 'merge', mergeFiles: args.positional };
  }
  if (args.positional.length > 0)
    throw new UsageError(
      `verify takes no file arguments except with --merge (got ${JSON.stringify(args.positional[0])})`,
    );
  const api = (o.api ?? 'completions') as Api;
  if (!(api in API_PATHS))
    throw new UsageError(`--api must be one of completions, chat (got ${JSON.stringify(o.api)})`);
  if (model === undefined || model.trim() === '')
    throw new UsageError('--model is required: the model name the endpoint serves (GET /v1/models lists them)');
  const url = parseUrl(o.url, api);
  // $HITLESS_VERIFY_HEADERS holds one `K:V` a line: the emitted Job passes them from a Secret.
  const fromEnv = (env.HITLESS_VERIFY_HEADERS ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const headers = parseHeaders([...headerValues, ...fromEnv]);
  if (o['id-header'] !== undefined && !HEADER_NAME.test(o['id-header']))
    throw new UsageError(`--id-header must be a header name (got ${JSON.stringify(o['id-header'])})`);
  const idProblem = o['id-header'] === undefined ? undefined : headerNameProblem(o['id-header']);
  if (idProblem) throw new UsageError(`--id-header ${o['id-header']} ${idProblem}`);
  const run: Omit<VerifyOptions, 'mode'> = {
    ...base,
    api,
    url,
    model,
    headers,
    ratePerSecond: rangeOption(o.rate, 'rate', false),
    concurrency: rangeOption(o.concurrency, 'concurrency', true),
    durationSeconds:
      o.duration === undefined && o.restart !== undefined ? null : rangeOption(o.duration, 'duration', true),
    maxTokens: rangeOption(o['max-tokens'], 'max-tokens', true),
    prompt: readPrompt(o),
    timeoutSeconds: rangeOption(o.timeout, 'timeout', true),
    idHeader: o['id-header']?.toLowerCase() ?? null,
  };
  if (o['emit-job'] === 'true') {
    if (o.restart !== undefined)
      throw new UsageError(
        '--emit-job and --restart cannot be combined: run the restart from one place (see the guide)',
      );
    if (headerValues.length > 0)
      throw new UsageError(
        '--header values are never written out: with --emit-job put them in a Secret and pass --header-secret NAME',
      );
    if (image === undefined)
      throw new UsageError(
        '--emit-job needs --image: an image whose entrypoint is hitless (the guide shows a three-line Dockerfile)',
      );
    const name = o['job-name'] ?? 'hitless-verify';
    if (!K8S_NAME.test(name) || name.length > 52)
      throw new UsageError(
        `--job-name must be a Kubernetes name of at most 52 characters (got ${JSON.stringify(name)})`,
      );
    const secret = o['header-secret'] ?? null;
    if (secret !== null && !K8S_NAME.test(secret))
      throw new UsageError(`--header-secret must be a Secret's name (got ${JSON.stringify(secret)})`);
    if (namespace === undefined) throw new UsageError('--emit-job needs -n NAMESPACE for the Job');
    const shards = rangeOption(o.shards, 'shards', true);
    if (run.ratePerSecond / shards < RANGES.rate[0])
      throw new UsageError(
        `--rate ${run.ratePerSecond} over --shards ${shards} is below ${RANGES.rate[0]} per shard; raise --rate or lower --shards`,
      );
    if (run.durationSeconds === null) throw new UsageError('--emit-job needs --duration');
    return { ...run, mode: 'emit-job', job: { image, shards, name, namespace, headerSecret: secret } };
  }
  for (const flag of ['image', 'shards', 'job-name', 'header-secret'] as const) {
    if ((flag === 'image' ? image : o[flag]) !== undefined) throw new UsageError(`--${flag} belongs to --emit-job`);
  }
  if (o.restart === undefined) {
    for (const flag of ['context', 'warmup', 'rollout-timeout'] as const)
      if (o[flag] !== undefined) throw new UsageError(`--${flag} belongs to --restart`);
    if (namespace !== undefined) throw new UsageError('-n belongs to --restart and --emit-job');
    return { ...run, mode: 'run' };
  }
  return { ...run, mode: 'run', restart: parseRestart(o.restart, namespace, o.context, o) };
}
