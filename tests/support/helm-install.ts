/**
 * Read a `helm install` line as a shell and Helm would: the words as a POSIX shell splits them (plain words, single
 * quotes, a backslash outside quotes), then the flags as Helm reads them. --set and --set-string follow Helm's
 * pkg/strvals/parser.go (read at v3.21.4 and v4.2.4): assignments split at unescaped commas, keys by `.` and `[n]`,
 * a backslash takes the next character as it is (runesUntil); --set types a value (typedVal: true, false, null,
 * whole numbers not starting with 0), --set-string never does. Only what the output forms write is supported; anything
 * else throws, so a form that writes more fails its test.
 */
import { stringify } from 'yaml';
import { renderedInferencePool } from '../fixtures/charts/gie-inferencepool-v1.5.0.ts';

/** The words of a shell line. Double quotes, `$`, backticks and globs are refused: the forms never rely on them. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unclosed quote in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '\\') {
      word = (word ?? '') + line[++i];
    } else if ('"$`*?[]{}()<>|;&#~!'.includes(c)) {
      throw new Error(`the shell would read ${c} specially in: ${line}`);
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** Split at unescaped commas, keeping each backslash escape for the key and value readers. */
function assignments(text: string): string[] {
  const parts: string[] = [''];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') parts[parts.length - 1] += text[i] + (text[++i] ?? '');
    else if (text[i] === ',') parts.push('');
    else parts[parts.length - 1] += text[i];
  }
  return parts;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

/** Helm's typedVal. */
function typed(value: string): unknown {
  const lower = value.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  if (lower === 'null') return null;
  if (value === '0') return 0;
  if (/^-?[1-9]\d*$/.test(value)) return Number(value);
  return value;
}

/** Set one `a.b[0].c=value` into `values`. */
function assign(values: Record<string, unknown>, assignment: string, asString: boolean): void {
  const eq = assignment.indexOf('=');
  if (eq < 0) throw new Error(`no = in --set ${assignment}`);
  const key = assignment.slice(0, eq);
  if (/\\/.test(key)) throw new Error(`escaped key not supported: ${key}`);
  const value = asString ? unescape(assignment.slice(eq + 1)) : typed(unescape(assignment.slice(eq + 1)));
  const steps = key.split('.').flatMap((part) => {
    const m = /^([A-Za-z0-9_-]+)((?:\[\d+\])*)$/.exec(part);
    if (!m) throw new Error(`key part not supported: ${part}`);
    return [m[1], ...[...m[2].matchAll(/\[(\d+)\]/g)].map((i) => Number(i[1]))];
  });
  let at: any = values;
  steps.forEach((step, i) => {
    const last = i === steps.length - 1;
    if (last) {
      if (value === null) delete at[step];
      else at[step] = value;
      return;
    }
    at[step] ??= typeof steps[i + 1] === 'number' ? [] : {};
    at = at[step];
  });
}

/** A `helm install` as Helm reads it. */
export interface HelmInstall {
  release: string;
  chart: string;
  version?: string;
  namespace?: string;
  valuesFiles: string[];
  values: Record<string, unknown>;
}

/** Read the words of `helm install RELEASE CHART [flags]`. */
function readHelmInstall(words: string[]): HelmInstall {
  if (words[0] !== 'helm' || words[1] !== 'install') throw new Error(`not a helm install: ${words.join(' ')}`);
  const positional: string[] = [];
  const install: Omit<HelmInstall, 'release' | 'chart'> = { valuesFiles: [], values: {} };
  for (let i = 2; i < words.length; i++) {
    const flag = words[i];
    if (!flag.startsWith('-')) {
      positional.push(flag);
      continue;
    }
    const arg = words[++i];
    if (arg === undefined) throw new Error(`${flag} has no value`);
    if (flag === '--version') install.version = arg;
    else if (flag === '--namespace' || flag === '-n') install.namespace = arg;
    else if (flag === '-f' || flag === '--values') install.valuesFiles.push(arg);
    else if (flag === '--set' || flag === '--set-string')
      for (const a of assignments(arg)) assign(install.values, a, flag === '--set-string');
    else throw new Error(`flag not supported: ${flag}`);
  }
  if (positional.length !== 2) throw new Error(`expected a release and a chart, got: ${positional.join(' ')}`);
  return { release: positional[0], chart: positional[1], ...install };
}

/** The `helm install` lines an output states in its comments (`#   helm install …`). */
export function statedInstalls(text: string): HelmInstall[] {
  return [...text.matchAll(/^# {1,3}(helm install .*)$/gm)].map((m) => readHelmInstall(shellWords(m[1])));
}

/** The InferencePool the one install a text states creates, as the chart renders it (tests/fixtures/charts). */
export function installedPool(text: string): Record<string, unknown> {
  const installs = statedInstalls(text);
  if (installs.length !== 1) throw new Error(`expected one stated install, found ${installs.length}`);
  const [install] = installs;
  return renderedInferencePool(install.values, install.release, install.namespace ?? 'default');
}

/**
 * An output's text with the InferencePool its one stated install creates appended: what the cluster holds once the
 * reader has run the install and applied the output.
 */
export function withInstalledPool(text: string): string {
  return `${text}---\n${stringify(installedPool(text))}`;
}
