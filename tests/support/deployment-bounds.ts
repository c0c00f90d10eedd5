/**
 * Rules for the emitted Deployment that kubernetes-models' OpenAPI validators do not check (they check types
 * only: `-5` passes as a grace period) but the Kubernetes API server, the drain model or both do:
 * non-negative whole seconds, int32 ranges, the selector matching the template, probe ports naming a container
 * port, GPU limits as whole numbers, and the preStop sleep not longer than the grace period.
 */
import { DNS1123_LABEL, isQualifiedName, LABEL_VALUE } from './structural-schema.ts';

const INT32_MAX = 2 ** 31 - 1;

/** IANA service name, the format of a named container port: at most 15 characters, at least one letter. */
const IANA_SVC_NAME = /^(?=.*[a-z])[a-z0-9]([a-z0-9]|-(?!-))*[a-z0-9]$|^[a-z]$/;

type Obj = Record<string, any>;

function isWhole(value: unknown, max = Number.MAX_SAFE_INTEGER): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

/**
 * Every `...Seconds`, `...Threshold`, `replicas`, `containerPort` and `number` field anywhere in a document must
 * be a non-negative whole number; those Kubernetes declares int32 must fit int32. (The drain model writes whole
 * seconds only; a fraction or a negative value is always a bug.)
 */
export function wholeNumberFields(doc: unknown, path = ''): string[] {
  const errors: string[] = [];
  if (Array.isArray(doc)) {
    doc.forEach((item, i) => errors.push(...wholeNumberFields(item, `${path}[${i}]`)));
  } else if (doc && typeof doc === 'object') {
    for (const [key, value] of Object.entries(doc)) {
      const at = path ? `${path}.${key}` : key;
      const numeric =
        /(Seconds|Sec|Threshold)$/.test(key)
        || ['replicas', 'containerPort', 'number', 'port', 'maxSurge', 'maxUnavailable'].includes(key);
      if (numeric && typeof value !== 'string' && typeof value !== 'object') {
        // int64 fields: terminationGracePeriodSeconds, sleep.seconds; the rest are int32.
        const max =
          /^(terminationGracePeriodSeconds|seconds|activeDeadlineSeconds)$/.test(key) || /Sec$/.test(key)
            ? Number.MAX_SAFE_INTEGER
            : INT32_MAX;
        if (!isWhole(value, max))
          errors.push(
            `${at}: must be a non-negative whole number${max === INT32_MAX ? ' within int32' : ''} (got ${JSON.stringify(value)})`,
          );
      } else if (key === 'seconds' && typeof value !== 'object' && !isWhole(value)) {
        errors.push(`${at}: must be a non-negative whole number (got ${JSON.stringify(value)})`);
      } else if (typeof value === 'number' && !Number.isFinite(value)) {
        errors.push(`${at}: must be finite (got ${value})`);
      }
      if (value && typeof value === 'object') errors.push(...wholeNumberFields(value, at));
    }
  }
  return errors;
}

function checkLabels(labels: unknown, at: string, errors: string[]): void {
  if (labels === undefined) return;
  if (!labels || typeof labels !== 'object') {
    errors.push(`${at}: must be a map of strings`);
    return;
  }
  for (const [key, value] of Object.entries(labels)) {
    if (!isQualifiedName(key)) errors.push(`${at}: bad label key ${JSON.stringify(key)}`);
    if (typeof value !== 'string' || value.length > 63 || !LABEL_VALUE.test(value))
      errors.push(`${at}[${JSON.stringify(key)}]: bad label value ${JSON.stringify(value)}`);
  }
}

function checkProbe(
  probe: Obj | undefined,
  name: string,
  portNames: Set<string>,
  portNumbers: Set<number>,
  errors: string[],
): void {
  if (!probe) return;
  const at = `container.${name}`;
  for (const field of ['periodSeconds', 'timeoutSeconds', 'failureThreshold'] as const) {
    if (probe[field] !== undefined && !(isWhole(probe[field], INT32_MAX) && probe[field] >= 1))
      errors.push(`${at}.${field}: must be a whole number >= 1 (got ${probe[field]})`);
  }
  if (probe.successThreshold !== undefined && name !== 'readinessProbe' && probe.successThreshold !== 1) {
    errors.push(`${at}.successThreshold: must be 1 for ${name}`);
  }
  const handlers = ['httpGet', 'tcpSocket', 'exec', 'grpc'].filter((h) => probe[h] !== undefined);
  if (handlers.length !== 1) errors.push(`${at}: must have exactly one handler (has ${handlers.join(', ') || 'none'})`);
  const port = probe.httpGet?.port ?? probe.tcpSocket?.port;
  if (typeof port === 'string' && !portNames.has(port))
    errors.push(`${at}: port ${JSON.stringify(port)} names no container port`);
  if (typeof port === 'number' && !portNumbers.has(port)) errors.push(`${at}: port ${port} is not a container port`);
  if (probe.httpGet && !(typeof probe.httpGet.path === 'string' && probe.httpGet.path.startsWith('/')))
    errors.push(`${at}.httpGet.path: must start with /`);
}

/** Rules the Kubernetes API server applies to a Deployment beyond its OpenAPI types, plus the drain model's. */
export function deploymentBounds(deployment: Obj): string[] {
  const errors: string[] = [...wholeNumberFields(deployment)];
  const meta = deployment.metadata ?? {};
  if (typeof meta.name !== 'string' || meta.name.length > 63 || !DNS1123_LABEL.test(meta.name))
    errors.push(`metadata.name: must be a DNS-1123 label (got ${JSON.stringify(meta.name)})`);
  if (
    meta.namespace !== undefined
    && (typeof meta.namespace !== 'string' || meta.namespace.length > 63 || !DNS1123_LABEL.test(meta.namespace))
  ) {
    errors.push(`metadata.namespace: must be a DNS-1123 label (got ${JSON.stringify(meta.namespace)})`);
  }
  checkLabels(meta.labels, 'metadata.labels', errors);
  const spec = deployment.spec ?? {};
  if (spec.progressDeadlineSeconds !== undefined && spec.progressDeadlineSeconds <= (spec.minReadySeconds ?? 0)) {
    errors.push('spec.progressDeadlineSeconds: must be greater than minReadySeconds');
  }
  const rolling = spec.strategy?.rollingUpdate;
  if (rolling && rolling.maxSurge === 0 && rolling.maxUnavailable === 0)
    errors.push('spec.strategy.rollingUpdate: maxSurge and maxUnavailable may not both be 0');
  const templateLabels = spec.template?.metadata?.labels ?? {};
  checkLabels(templateLabels, 'spec.template.metadata.labels', errors);
  checkLabels(spec.selector?.matchLabels, 'spec.selector.matchLabels', errors);
  for (const [key, value] of Object.entries(spec.selector?.matchLabels ?? {})) {
    if (templateLabels[key] !== value)
      errors.push(`spec.selector.matchLabels: ${key}=${String(value)} does not match the template's labels`);
  }
  const pod = spec.template?.spec ?? {};
  const grace = pod.terminationGracePeriodSeconds;
  const containers: Obj[] = pod.containers ?? [];
  if (containers.length === 0) errors.push('spec.template.spec.containers: must have at least one container');
  const names = new Set<string>();
  for (const c of containers) {
    if (typeof c.name !== 'string' || c.name.length > 63 || !DNS1123_LABEL.test(c.name))
      errors.push(`container.name: must be a DNS-1123 label (got ${JSON.stringify(c.name)})`);
    if (names.has(c.name)) errors.push(`container.name: duplicate ${c.name}`);
    names.add(c.name);
    if (typeof c.image !== 'string' || c.image.length === 0 || /\s/.test(c.image))
      errors.push(`container.image: must be a non-empty reference without spaces (got ${JSON.stringify(c.image)})`);
    const portNames = new Set<string>();
    const portNumbers = new Set<number>();
    for (const p of c.ports ?? []) {
      if (!(isWhole(p.containerPort) && p.containerPort >= 1 && p.containerPort <= 65535))
        errors.push(`container.ports.containerPort: must be 1-65535 (got ${p.containerPort})`);
      if (p.name !== undefined && !(typeof p.name === 'string' && p.name.length <= 15 && IANA_SVC_NAME.test(p.name)))
        errors.push(`container.ports.name: must be an IANA service name (got ${JSON.stringify(p.name)})`);
      if (portNames.has(p.name)) errors.push(`container.ports.name: duplicate ${p.name}`);
      portNames.add(p.name);
      portNumbers.add(p.containerPort);
    }
    for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe'])
      checkProbe(c[probe], probe, portNames, portNumbers, errors);
    for (const [resource, amount] of Object.entries({ ...c.resources?.limits, ...c.resources?.requests })) {
      if (
        resource.includes('/')
        && !resource.startsWith('kubernetes.io/')
        && !(typeof amount === 'number' ? Number.isInteger(amount) && amount >= 1 : /^[1-9]\d*$/.test(String(amount)))
      ) {
        errors.push(
          `container.resources[${resource}]: extended resources must be whole numbers >= 1 (got ${JSON.stringify(amount)})`,
        );
      }
    }
    const preStop = c.lifecycle?.preStop;
    if (preStop) {
      const sleep =
        preStop.sleep?.seconds
        ?? (preStop.exec?.command?.[0]?.endsWith('sleep') ? Number(preStop.exec.command[1]) : undefined);
      if (sleep !== undefined) {
        if (!isWhole(sleep))
          errors.push(`container.lifecycle.preStop: sleep must be a non-negative whole number (got ${sleep})`);
        if (typeof grace === 'number' && sleep > grace)
          errors.push(
            `container.lifecycle.preStop: sleep ${sleep}s is longer than terminationGracePeriodSeconds ${grace}s`,
          );
      }
      if (
        preStop.exec
        && !(
          Array.isArray(preStop.exec.command)
          && preStop.exec.command.length > 0
          && preStop.exec.command.every((x: unknown) => typeof x === 'string')
        )
      ) {
        errors.push('container.lifecycle.preStop.exec.command: must be a non-empty list of strings');
      }
    }
    for (const list of ['command', 'args'] as const) {
      if (c[list] !== undefined && !(Array.isArray(c[list]) && c[list].every((x: unknown) => typeof x === 'string')))
        errors.push(`container.${list}: must be a list of strings`);
    }
  }
  return errors;
}
