/**
 * Read the drain-relevant parts of a pod template: containers, grace period, preStop hook, probes,
 * ports and GPUs. Absent fields read as Kubernetes' defaults; present but malformed ones are reported.
 */
import { commandLineOf, keepsAlive, SHELLS, type CommandLine } from './command-line.ts';
import { parseScript } from './shell/parse-script.ts';
import { scriptFileOf } from './script-file.ts';
import type { PodTemplate } from './locate.ts';
import { isRecord, type Segment } from '../read/path.ts';

/** A whole-number field: unset, set, or set to something that is not a whole number. */
export type IntField =
  | { state: 'unset' }
  | { state: 'set'; value: number; quoted?: boolean }
  | { state: 'bad'; raw: unknown };

/**
 * Read a whole-number field of a mapping whose Go type is `type`; a value past the type is not decoded by the API
 * server, so it reads as malformed (value-rejected reports it).
 */
export function intField(object: unknown, key: string, type: 'int32' | 'int64' = 'int64'): IntField {
  if (!isRecord(object) || object[key] === undefined || object[key] === null) return { state: 'unset' };
  const raw = object[key];
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 && raw < 2 ** (type === 'int32' ? 31 : 63))
    return { state: 'set', value: raw };
  // A quoted plain decimal ("120") means one number only: it is read as that number, and value-rejected reports
  // (and fixes) the quotes the API server refuses.
  if (typeof raw === 'string' && /^(0|[1-9]\d{0,8})$/.test(raw))
    return { state: 'set', value: Number(raw), quoted: true };
  return { state: 'bad', raw };
}

/** A field's value, or a default when it is unset or malformed. */
export function intOr(field: IntField, fallback: number): number {
  return field.state === 'set' ? field.value : fallback;
}

/** One container of a pod template. */
export interface Container {
  index: number;
  /** Path from the object to the container. */
  path: Segment[];
  value: Record<string, unknown>;
  name: string;
  image: string;
  line: CommandLine;
  ports: { name?: string; containerPort: number }[];
  /** Accelerators the container requests (GPUs or TPU chips); 0 when it requests none or their count is unread. */
  gpus: number;
  /** An accelerator count as written when it is not a whole number (an unrendered `${GPUS}`): some, how many unknown. */
  gpusUnread?: string;
  /** What those accelerators are, for messages. */
  accelerator: (typeof ACCELERATORS)[number]['word'];
}

/**
 * Extended resources that stand for accelerators, as their device plugins name them: Ascend's differ by chip
 * (huawei.com/Ascend910, huawei.com/ascend-1980), Neuron's by what is shared (aws.amazon.com/neuron, neuroncore).
 */
const ACCELERATORS = [
  { name: /^(nvidia\.com|amd\.com)\/gpu$/, word: 'GPU' },
  { name: /^google\.com\/tpu$/, word: 'TPU chip' },
  { name: /^huawei\.com\/ascend/i, word: 'NPU' },
  { name: /^aws\.amazon\.com\/neuron(core|device)?$/, word: 'Neuron device' },
  { name: /^habana\.ai\/gaudi$/, word: 'Gaudi card' },
] as const;

/** Whether an extended resource name is an accelerator's (`nvidia.com/gpu`, `habana.ai/gaudi`, …). */
export function isAcceleratorResource(name: string): boolean {
  return ACCELERATORS.some((a) => a.name.test(name));
}

function acceleratorCount(container: Record<string, unknown>): Pick<Container, 'gpus' | 'accelerator' | 'gpusUnread'> {
  const resources = isRecord(container.resources) ? container.resources : {};
  let unread: Pick<Container, 'gpus' | 'accelerator' | 'gpusUnread'> | undefined;
  for (const kind of ['limits', 'requests']) {
    const map = resources[kind];
    if (!isRecord(map)) continue;
    for (const [name, raw] of Object.entries(map)) {
      const accelerator = ACCELERATORS.find((a) => a.name.test(name));
      if (!accelerator) continue;
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
      if (Number.isInteger(n) && n > 0) return { gpus: n, accelerator: accelerator.word };
      // A count a template fills in (a string that is no quantity): accelerators all the same, how many unknown.
      if (typeof raw === 'string' && raw.trim() !== '' && !/^[\d.]+[a-zA-Z]*$/.test(raw.trim()))
        unread ??= { gpus: 0, accelerator: accelerator.word, gpusUnread: raw };
    }
  }
  return unread ?? { gpus: 0, accelerator: 'GPU' };
}

/** Whether a container requests accelerators, counted or not (a count a template fills in). */
export function holdsAccelerators(container: Container): boolean {
  return container.gpus > 0 || container.gpusUnread !== undefined;
}

/**
 * Whether a container only idles: its command line is `sleep infinity` (or a number of seconds) or `tail -f FILE`,
 * with no port declared. Such a container serves nothing (a benchmark client or a toolbox someone execs into).
 */
export function idles(container: Container): boolean {
  if (container.ports.length > 0) return false;
  return keepsAlive(
    container.line.argv.map((t) => (t.literal ? t.text : undefined)),
    { seconds: true },
  );
}

/** The containers of a pod template (not init containers). */
export function containersOf(template: PodTemplate): Container[] {
  return listed(template, 'containers');
}

/**
 * Native sidecars: init containers with `restartPolicy: Always`, which run beside the containers for the pod's
 * whole life (serving ports, e.g. a routing proxy) and stop after them.
 */
export function sidecarsOf(template: PodTemplate): Container[] {
  return listed(template, 'initContainers').filter((c) => c.value.restartPolicy === 'Always');
}

/** Every container that runs while the pod serves: its containers and its native sidecars. */
export function runningContainersOf(template: PodTemplate): Container[] {
  return [...containersOf(template), ...sidecarsOf(template)];
}

function listed(template: PodTemplate, key: 'containers' | 'initContainers'): Container[] {
  const list = template.spec[key];
  if (!Array.isArray(list)) return [];
  return list.flatMap((value, index) => {
    if (!isRecord(value)) return [];
    const ports = Array.isArray(value.ports) ? value.ports : [];
    const line = commandLineOf(value);
    const file = template.scripts && scriptFileOf(value, line, template.spec, template.scripts);
    return [
      {
        index,
        path: [...template.specPath, key, index],
        value,
        name: typeof value.name === 'string' ? value.name : `#${index}`,
        image: typeof value.image === 'string' ? value.image : '',
        line: file ? { ...line, file } : line,
        ports: ports.flatMap((p) =>
          isRecord(p) && typeof p.containerPort === 'number'
            ? [{ name: typeof p.name === 'string' ? p.name : undefined, containerPort: p.containerPort }]
            : [],
        ),
        ...acceleratorCount(value),
      },
    ];
  });
}

/** The Kubernetes default terminationGracePeriodSeconds. */
export const DEFAULT_GRACE_SECONDS = 30;

/** How a container's preStop hook delays SIGTERM. */
export type PreStop =
  | { kind: 'none' }
  | { kind: 'sleep'; seconds: IntField; path: Segment[] }
  | { kind: 'exec-sleep'; seconds: number; path: Segment[]; item: string; start: number; end: number }
  | { kind: 'other'; how: string; path: Segment[] };

const SLEEP_BINARY = /^(\/usr)?(\/bin\/)?sleep$/;

/** Read the preStop hook: a sleep action, an exec that sleeps, or something the checker cannot time. */
export function readPreStop(container: Container): PreStop {
  const hookPath = [...container.path, 'lifecycle', 'preStop'];
  const lifecycle = container.value.lifecycle;
  const hook = isRecord(lifecycle) ? lifecycle.preStop : undefined;
  if (!isRecord(hook)) return { kind: 'none' };
  if (isRecord(hook.sleep))
    return { kind: 'sleep', seconds: intField(hook.sleep, 'seconds'), path: [...hookPath, 'sleep', 'seconds'] };
  const exec = isRecord(hook.exec) ? hook.exec : undefined;
  const command = exec && Array.isArray(exec.command) ? exec.command.map(String) : undefined;
  if (command) {
    for (let i = 0; i < command.length; i++) {
      const next = command[i + 1];
      if (SLEEP_BINARY.test(command[i]) && next !== undefined && /^\d+s?$/.test(next)) {
        return {
          kind: 'exec-sleep',
          seconds: parseInt(next, 10),
          path: [...hookPath, 'exec', 'command', i + 1],
          item: next,
          start: 0,
          end: next.replace(/s$/, '').length,
        };
      }
      if (i >= 2 && SHELLS.test(command[0]) && /^-[a-z]*c[a-z]*$/.test(command[i - 1])) {
        // A script: a plain sleep only when sleeping is all it does; a script that also polls or waits is not timed.
        const parsed = parseScript(command[i]);
        if (!parsed.ok) break;
        const sleeps = parsed.calls.filter(
          (c) =>
            c.words[0]?.literal !== undefined
            && SLEEP_BINARY.test(c.words[0].literal)
            && c.words.length === 2
            && /^\d+s?$/.test(c.words[1].literal ?? ''),
        );
        const harmless = parsed.calls.filter(
          (c) => !sleeps.includes(c) && ['echo', 'printf', 'true', ':'].includes(c.words[0]?.literal ?? ''),
        );
        if (
          sleeps.length === 1
          && parsed.calls.length === 1 + harmless.length
          && !sleeps[0].nested
          && !sleeps[0].background
        ) {
          const word = sleeps[0].words[1];
          const digits = (word.literal ?? '').replace(/s$/, '');
          const start = word.start + word.source.indexOf(digits);
          return {
            kind: 'exec-sleep',
            seconds: parseInt(digits, 10),
            path: [...hookPath, 'exec', 'command', i],
            item: command[i],
            start,
            end: start + digits.length,
          };
        }
        const first = parsed.calls[0];
        const leading =
          first && sleeps.includes(first) && !first.nested ? ` (it sleeps ${first.words[1].literal} first)` : '';
        return { kind: 'other', how: `a script that does more than sleep${leading}`, path: [...hookPath, 'exec'] };
      }
    }
    return { kind: 'other', how: 'an exec command that is not a plain sleep', path: [...hookPath, 'exec'] };
  }
  const how = isRecord(hook.httpGet)
    ? 'an httpGet call'
    : isRecord(hook.tcpSocket)
      ? 'a tcpSocket action'
      : 'an action the checker does not know';
  return { kind: 'other', how, path: hookPath };
}

/** A probe as the kubelet will run it, with Kubernetes' defaults filled in. */
export interface Probe {
  path: Segment[];
  value: Record<string, unknown>;
  periodSeconds: number;
  failureThreshold: number;
  initialDelaySeconds: number;
  timeoutSeconds: number;
}

/** Read one of a container's probes, or `undefined` when it has none. */
export function readProbe(
  container: Container,
  key: 'startupProbe' | 'readinessProbe' | 'livenessProbe',
): Probe | undefined {
  const value = container.value[key];
  if (!isRecord(value)) return undefined;
  return {
    path: [...container.path, key],
    value,
    periodSeconds: intOr(intField(value, 'periodSeconds', 'int32'), 10) || 10,
    failureThreshold: intOr(intField(value, 'failureThreshold', 'int32'), 3) || 3,
    initialDelaySeconds: intOr(intField(value, 'initialDelaySeconds', 'int32'), 0),
    timeoutSeconds: intOr(intField(value, 'timeoutSeconds', 'int32'), 1) || 1,
  };
}

/** The seconds a probe lets pass before it gives up: initial delay + period × failure threshold. */
export function probeWindowSeconds(probe: Probe): number {
  return probe.initialDelaySeconds + probe.periodSeconds * probe.failureThreshold;
}

/** The container port the server answers on: the one named `http`, else the first. */
export function servingPort(container: Container): { name?: string; containerPort: number } | undefined {
  return container.ports.find((p) => p.name === 'http') ?? container.ports[0];
}
