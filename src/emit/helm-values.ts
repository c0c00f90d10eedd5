/**
 * The `helm-values` output form: values for GIE's inferencepool chart (content/outputs/gie-inferencepool.yaml
 * holds the chart's facts at its release), installed as a release named after the pool, and beside it the objects
 * the chart does not create: the model-server Deployment, the gateway's own objects and the PodDisruptionBudget.
 * Where the chart writes a constant the plan needs different, the comments say what to do by hand.
 */
import { Document, type Scalar } from 'yaml';
import { formulaOf, type Plan } from '../model/plan.ts';
import type { ChartFacts, Profiles } from '../facts/profiles.ts';
import { gatewayById, modelServerById, type DrainInputs } from '../model/resolve.ts';
import { manifestDocuments } from './bundle.ts';
import {
  chartEppName,
  chartKnowsServer,
  chartProvider,
  chartValues,
  installCommand,
  type ChartValue,
} from './chart-install.ts';
import { DOCUMENT_OPTIONS } from './options.ts';
import { fileOf, type OutputFile } from './files.ts';
import { keyAt as keyIn } from './pod.ts';

const VALUES_FILE = 'values.yaml';
const MODEL_SERVER_FILE = 'model-server.yaml';

/** A nested object from dotted paths (`inferencePool.targetPorts`) and their values, in the order given. */
function nest(entries: readonly ChartValue[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [path, value] of entries) {
    const parts = path.split('.');
    let at = root;
    for (const part of parts.slice(0, -1)) {
      at[part] ??= {};
      at = at[part] as Record<string, unknown>;
    }
    at[parts[parts.length - 1]] = value;
  }
  return root;
}

/** The key node at a dotted values path (`inferencePool.targetPorts`). */
function keyAt(doc: Document, dotted: string): Scalar {
  const parts = dotted.split('.');
  return keyIn(doc, parts.slice(0, -1), parts[parts.length - 1]);
}

function valuesDocument(plan: Plan, inputs: DrainInputs, profiles: Profiles, chart: ChartFacts): Document {
  const server = modelServerById(profiles, inputs.modelServer);
  const gateway = gatewayById(profiles, inputs.gateway);
  const knownType = chartKnowsServer(inputs, profiles, chart);
  const provider = chartProvider(inputs, profiles, chart);
  const v = chart.values;
  const doc = new Document(nest(chartValues(inputs, profiles, chart)), DOCUMENT_OPTIONS);
  const epp = chartEppName(inputs.name, chart);
  const header = [
    ` Values for GIE\u2019s ${chart.chart} chart ${chart.release}, for ${gateway.name} + ${server.name}. Install it as release ${inputs.name}, the`,
    ` name of the InferencePool it creates (and of the pool the gateway\u2019s HTTPRoute refers to):`,
    `   ${installCommand(inputs, profiles, chart, VALUES_FILE)}`,
    ` The chart also creates the Endpoint Picker Deployment and Service ${epp}. Apply ${MODEL_SERVER_FILE} beside it: the chart does`,
    ' not create the model-server pods.',
  ];
  if (plan.terminationGracePeriodSeconds > chart.hardCoded.eppTerminationGracePeriodSeconds) {
    header.push(
      ` By hand: the chart gives the Endpoint Picker pods a fixed ${chart.hardCoded.eppTerminationGracePeriodSeconds}s grace period (no value sets it), below the`,
      ` model servers\u2019 ${plan.terminationGracePeriodSeconds}s. It matters only while the Endpoint Picker itself restarts; to match them, add a Helm`,
      ` --post-renderer that sets spec.template.spec.terminationGracePeriodSeconds: ${plan.terminationGracePeriodSeconds} on Deployment ${epp}`,
      ' (a kubectl patch after install is undone by the next helm upgrade).',
    );
  }
  doc.commentBefore = header.join('\n');
  keyAt(doc, v.selector).commentBefore =
    ` Required by the chart: the labels of the model-server pods in ${MODEL_SERVER_FILE}.`;
  keyAt(doc, v.targetPorts).commentBefore = ' The model server\u2019s port (the container port named http).';
  if (!knownType) {
    keyAt(doc, v.targetPorts).commentBefore +=
      `\n The chart has no modelServerType for ${server.name} (it knows ${chart.modelServerTypes.join(', ')}), so it is left at`
      + `\n ${chart.defaults.modelServerType}: the Endpoint Picker then reads vLLM\u2019s metric names. By hand: check which metrics ${server.name} exports`
      + '\n against GIE\u2019s model-server protocol before relying on load-aware picking.';
  }
  keyAt(doc, v.failureMode).commentBefore =
    inputs.failureMode === chart.defaults.failureMode
      ? ` The chart\u2019s default, ${chart.defaults.failureMode}: with the Endpoint Picker down the gateway picks pods by itself.`
      : ` Set: the chart\u2019s default is ${chart.defaults.failureMode}.`;
  keyAt(doc, v.provider).commentBefore =
    provider !== chart.defaults.provider
      ? ` ${gateway.name}: the chart adds what it needs to reach the Endpoint Picker.`
      : gateway.extraManifests.length > 0
        ? [
            ` ${chart.defaults.provider}, on purpose: provider.name ${gateway.id} would add its own policies for the pool, a backend timeout fixed at`,
            ` ${chart.hardCoded.gkeBackendTimeoutSeconds}s${plan.gatewayRequestTimeoutSeconds !== null ? ` (the plan needs ${plan.gatewayRequestTimeoutSeconds}s: ${formulaOf(plan, 'gatewayRequestTimeoutSeconds')})` : ''}`
              + ` and a health check on ${chart.hardCoded.gkeHealthCheckPath}.`,
            ` ${MODEL_SERVER_FILE} has Hitless\u2019s own ${gateway.extraManifests.map((e) => e.kind).join(' and ')}; two policies for one pool conflict.`,
          ].join('\n')
        : ` ${chart.defaults.provider}: ${gateway.name} needs no provider-specific objects from the chart.`;
  return doc;
}

/** The helm-values form's files: the chart's values, and the objects to apply beside the release. */
export function helmValuesFiles(plan: Plan, inputs: DrainInputs, profiles: Profiles, chart: ChartFacts): OutputFile[] {
  const beside = manifestDocuments(plan, inputs, profiles);
  return [
    fileOf(VALUES_FILE, `values for GIE\u2019s ${chart.chart} chart ${chart.release}`, [
      valuesDocument(plan, inputs, profiles, chart),
    ]),
    fileOf(MODEL_SERVER_FILE, 'the model-server Deployment and the objects the chart does not create', beside),
  ];
}
