/**
 * GIE's inferencepool chart as every output form installs it (content/outputs/gie-inferencepool.yaml holds its facts at
 * the release). Installed as release R, the chart creates the InferencePool R and its Endpoint Picker (Deployment,
 * Service `<R cut to 40>-epp`, ServiceAccount and RBAC); the forms write only what the chart does not. One list of
 * values ties the chart's pool to the pods the forms write: the helm-values form writes it as values.yaml, the bundle,
 * lws and patch forms as flags on one `helm install` line at their top.
 */
import type { ChartFacts, Profiles } from '../facts/profiles.ts';
import { gatewayById, modelServerById, type DrainInputs } from '../model/resolve.ts';
import { shellWord } from './shell.ts';
import { OutputError } from './files.ts';

/** One chart value: its dotted path in the chart's values and what the forms set it to. */
export type ChartValue = readonly [path: string, value: unknown];

/** The Endpoint Picker's name as the chart renders it: the release name cut to the chart's limit, then `-epp`. */
export function chartEppName(release: string, chart: ChartFacts): string {
  return `${release.slice(0, chart.eppNameReleaseChars)}-epp`;
}

/** The chart's provider for a gateway: its own id when the chart knows it and Hitless emits no policies of its own. */
export function chartProvider(inputs: DrainInputs, profiles: Profiles, chart: ChartFacts): string {
  const gateway = gatewayById(profiles, inputs.gateway);
  return chart.providers.includes(gateway.id) && gateway.extraManifests.length === 0
    ? gateway.id
    : chart.defaults.provider;
}

/** Whether the chart has a modelServerType for the inputs' model server (else it stays at the chart's default). */
export function chartKnowsServer(inputs: DrainInputs, profiles: Profiles, chart: ChartFacts): boolean {
  return chart.modelServerTypes.includes(modelServerById(profiles, inputs.modelServer).engineType);
}

/**
 * The values the forms set, in order: the pool's selector (the `app` label of the pods the forms write), its target
 * port, the model-server type where the chart knows it, the Endpoint Picker's port and failure mode, and the provider.
 */
export function chartValues(inputs: DrainInputs, profiles: Profiles, chart: ChartFacts): ChartValue[] {
  const v = chart.values;
  const server = modelServerById(profiles, inputs.modelServer);
  return [
    [v.selector, { app: inputs.name }],
    [v.targetPorts, [{ number: inputs.port }]],
    ...(chartKnowsServer(inputs, profiles, chart) ? [[v.modelServerType, server.engineType] as const] : []),
    [v.extProcPort, inputs.eppPort],
    [v.failureMode, inputs.failureMode],
    [v.provider, chartProvider(inputs, profiles, chart)],
  ];
}

/**
 * The --set flags for a value, one per leaf: maps by dotted keys, lists by `[index]`. Text goes by --set-string, so
 * that Helm never reads a name such as `true`, `null` or `123` as another type (a `null` would drop the key); numbers
 * by --set.
 */
function setFlags(path: string, value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => setFlags(`${path}[${i}]`, item));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => {
      if (!/^[A-Za-z0-9_-]+$/.test(key)) throw new Error(`chart value key ${key} needs escaping for --set`);
      return setFlags(`${path}.${key}`, item);
    });
  }
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error(`chart value ${path} is not a whole number: ${value}`);
    return ['--set', shellWord(`${path}=${value}`)];
  }
  if (typeof value !== 'string') throw new Error(`chart value ${path} has no text or number: ${String(value)}`);
  // Helm's --set reads a comma as the start of another value: a backslash goes before each comma and backslash.
  return ['--set-string', shellWord(`${path}=${value.replace(/[\\,]/g, (c) => `\\${c}`)}`)];
}

/**
 * The release name: the inputs' name, refused (naming the flag) when it starts with a digit. Kubernetes validates a
 * Service's name as an RFC 1035 label, which starts with a letter (unless the alpha gate RelaxedServiceNameValidation,
 * from 1.34, is on), and the chart names its picker Service after the release: the install would fail there.
 */
function releaseName(inputs: DrainInputs, chart: ChartFacts): string {
  if (!/^[a-z]/.test(inputs.name))
    throw new OutputError(
      'name',
      `name must start with a letter for this output: it is the release of GIE\u2019s ${chart.chart} chart, which names its Endpoint Picker Service ${chartEppName(inputs.name, chart)}, and a Service\u2019s name must start with a letter`,
    );
  return inputs.name;
}

/**
 * The `helm install` line for the inputs, as one shell line: release and namespace from the inputs, then either a
 * values file (`-f`) or every value of `chartValues` as a --set flag. Throws `OutputError` for a name the chart's
 * Service cannot take.
 */
export function installCommand(
  inputs: DrainInputs,
  profiles: Profiles,
  chart: ChartFacts,
  valuesFile?: string,
): string {
  const release = shellWord(releaseName(inputs, chart));
  const namespace = shellWord(inputs.namespace);
  const head = `helm install ${release} ${chart.repository} --version ${chart.release} --namespace ${namespace}`;
  const values = valuesFile
    ? ['-f', shellWord(valuesFile)]
    : chartValues(inputs, profiles, chart).flatMap(([path, value]) => setFlags(path, value));
  return [head, ...values].join(' ');
}

/**
 * The comment lines that state the install at the top of a form: what the chart creates and the one command, the
 * provider's reason, and the model-server type where the chart has none. `pods` names the pods the pool selects.
 */
export function installLines(inputs: DrainInputs, profiles: Profiles, chart: ChartFacts, pods: string): string[] {
  const gateway = gatewayById(profiles, inputs.gateway);
  const server = modelServerById(profiles, inputs.modelServer);
  const provider = chartProvider(inputs, profiles, chart);
  const lines = [
    ` Install GIE\u2019s ${chart.chart} chart ${chart.release} as release ${inputs.name}: it creates the InferencePool ${inputs.name} over ${pods}`,
    ` and its Endpoint Picker (Deployment and Service ${chartEppName(inputs.name, chart)}, ServiceAccount, RBAC). With this one command:`,
    `   ${installCommand(inputs, profiles, chart)}`,
  ];
  if (provider !== chart.defaults.provider)
    lines.push(` provider.name ${provider}: the chart adds what ${gateway.name} needs to reach the Endpoint Picker.`);
  else if (chart.providers.includes(gateway.id) && gateway.extraManifests.length > 0)
    lines.push(
      ` provider.name ${provider} on purpose: the chart\u2019s ${gateway.id} provider would add its own ${gateway.extraManifests.map((e) => e.kind).join(' and ')},`,
      ` with the same names and a fixed ${chart.hardCoded.gkeBackendTimeoutSeconds}s backend timeout; this file has Hitless\u2019s own, sized by the plan.`,
    );
  if (!chartKnowsServer(inputs, profiles, chart))
    lines.push(
      ` The chart has no modelServerType for ${server.name}, so it stays ${chart.defaults.modelServerType}: the Endpoint Picker then reads vLLM\u2019s metric names.`,
    );
  return lines;
}
