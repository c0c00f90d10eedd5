/**
 * The `lws` output form: a LeaderWorkerSet (content/outputs/lws.yaml holds its API at a release) for a replica
 * that spans several nodes, one pod per node. The leader is the bundle's model-server pod, its server started
 * across the group as the model server's multi-node launch says; the workers hold SIGTERM back with a preStop
 * sleep for the leader's preStop and drain, and get the leader's grace period, so no worker exits while the
 * leader still serves a request. GIE's chart, installed as the header says, creates the InferencePool over the leaders
 * only (the workers serve no HTTP; they carry no `app` label) and its Endpoint Picker.
 */
import { Document } from 'yaml';
import { formulaOf, type Plan } from '../model/plan.ts';
import type { ChartFacts, LwsFacts, Profiles } from '../facts/profiles.ts';
import { gatewayById, modelServerById, type DrainInputs } from '../model/resolve.ts';
import { ENGINE_TYPE_LABEL, manifestDocuments, podDisruptionBudgetDocument, routeTimeoutNote } from './bundle.ts';
import { installLines } from './chart-install.ts';
import { shellWord } from './shell.ts';
import { DOCUMENT_OPTIONS } from './options.ts';
import { fileOf, OutputError, type OutputFile } from './files.ts';
import { annotatePodAnnotations, commentOn, keyAt, preStopHook, preStopSecondsPath } from './pod.ts';

const LWS_FILE = 'leaderworkerset.yaml';

/** The label the LWS controller puts on every pod of a set, with the set's name. */
export const LWS_NAME_LABEL = 'leaderworkerset.sigs.k8s.io/name';

// biome-ignore lint/suspicious/noExplicitAny: the bundle's own objects, read by paths the emitter wrote; the tests validate the result with kubernetes-models
type Obj = Record<string, any>;

/** Tensor-parallel flags the bundle may carry for one pod; the multi-node launch sets its own. */
const PARALLEL_FLAGS = ['--tensor-parallel-size', '-tp', '--tp', '--tp-size', '--pipeline-parallel-size', '-pp'];

/** The server's command line from the bundle's container, without the one-pod parallelism flags. */
function serverWords(container: Obj): string[] {
  const args: string[] = [...(container.args ?? [])];
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = args[i].split('=')[0];
    if (PARALLEL_FLAGS.includes(name)) {
      if (!args[i].includes('=')) i++;
      continue;
    }
    kept.push(args[i]);
  }
  return [...(container.command ?? []), ...kept];
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{([A-Za-z]+)\}/g, (whole, key: string) => {
    if (!(key in values)) throw new Error(`lws facts: unknown placeholder ${whole}`);
    return values[key];
  });
}

function checkInputs(inputs: DrainInputs, profiles: Profiles, facts: LwsFacts): void {
  const server = modelServerById(profiles, inputs.modelServer);
  if (!facts.multiNode[server.id]) {
    const known = Object.keys(facts.multiNode)
      .map((id) => modelServerById(profiles, id).name)
      .join(' and ');
    throw new OutputError(
      'model-server',
      `output lws needs a model server that runs one replica over several nodes; Hitless knows how for ${known}, not for ${server.name}`,
    );
  }
  if (inputs.nodesPerReplica < 2) {
    throw new OutputError(
      'nodes-per-replica',
      'output lws is for replicas that span nodes: set nodes-per-replica to 2 or more (one node per replica is the bundle form)',
    );
  }
  if (inputs.gpusPerReplica % inputs.nodesPerReplica !== 0) {
    throw new OutputError(
      'nodes-per-replica',
      `gpus-per-replica (${inputs.gpusPerReplica}) must split evenly over nodes-per-replica (${inputs.nodesPerReplica}): each node's pod requests the same GPUs`,
    );
  }
}

function withShm(pod: Obj, container: Obj): void {
  const mounts: Obj[] = container.volumeMounts ?? [];
  if (mounts.some((m) => m.mountPath === '/dev/shm')) return;
  container.volumeMounts = [...mounts, { name: 'dshm', mountPath: '/dev/shm' }];
  pod.volumes = [...(pod.volumes ?? []), { name: 'dshm', emptyDir: { medium: 'Memory' } }];
}

/** How a worker holds SIGTERM through the leader's preStop and drain: by exec where the leader does, else by sleep. */
function workerPreStop(plan: Plan): Plan['preStopAction'] {
  if (plan.preStopAction === 'exec') return 'exec';
  return plan.preStopSeconds + plan.drainSeconds > 0 ? 'sleep' : 'none';
}

function leaderWorkerSet(plan: Plan, inputs: DrainInputs, profiles: Profiles, facts: LwsFacts, deployment: Obj): Obj {
  const server = modelServerById(profiles, inputs.modelServer);
  const launch = facts.multiNode[server.id];
  // Each pod of a group requests the replica's GPUs split evenly over its nodes.
  const perPod = inputs.gpusPerReplica / inputs.nodesPerReplica;
  const values = {
    server: serverWords(deployment.spec.template.spec.containers[0]).map(shellWord).join(' '),
    gpus: String(inputs.gpusPerReplica),
    gpusPerPod: String(perPod),
    nodes: String(inputs.nodesPerReplica),
  };
  // The gateway's pod annotations (Istio's sidecar settings) go on leaders and workers alike: a classic sidecar that
  // exits early in a worker cuts the group's traffic as surely as one in the leader.
  const annotations: Obj | undefined = deployment.spec.template.metadata.annotations;
  const leaderPod: Obj = structuredClone(deployment.spec.template.spec);
  const leader: Obj = leaderPod.containers[0];
  delete leader.args;
  leader.command = ['/bin/sh', '-c', fill(launch.leaderShell, values)];
  leader.resources = { limits: { 'nvidia.com/gpu': perPod } };
  withShm(leaderPod, leader);
  const holdSeconds = plan.preStopSeconds + plan.drainSeconds;
  const worker: Obj = {
    name: leader.name,
    image: leader.image,
    command: ['/bin/sh', '-c', fill(launch.workerShell, values)],
    resources: { limits: { 'nvidia.com/gpu': perPod } },
  };
  const hold = workerPreStop(plan);
  if (hold !== 'none') worker.lifecycle = preStopHook(hold, holdSeconds);
  const workerPod: Obj = {
    terminationGracePeriodSeconds: plan.terminationGracePeriodSeconds,
    enableServiceLinks: false,
    containers: [worker],
  };
  withShm(workerPod, worker);
  return {
    apiVersion: facts.apiVersion,
    kind: 'LeaderWorkerSet',
    metadata: { name: inputs.name, namespace: inputs.namespace, labels: { app: inputs.name } },
    spec: {
      replicas: inputs.replicas,
      rolloutStrategy: { type: 'RollingUpdate', rollingUpdateConfiguration: { ...plan.strategy } },
      leaderWorkerTemplate: {
        size: inputs.nodesPerReplica,
        restartPolicy: facts.restartPolicy,
        leaderTemplate: {
          metadata: {
            labels: { app: inputs.name, [ENGINE_TYPE_LABEL]: server.engineType },
            ...(annotations ? { annotations: structuredClone(annotations) } : {}),
          },
          spec: leaderPod,
        },
        workerTemplate: {
          ...(annotations ? { metadata: { annotations: structuredClone(annotations) } } : {}),
          spec: workerPod,
        },
      },
    },
  };
}

function annotate(doc: Document, plan: Plan, inputs: DrainInputs, facts: LwsFacts, serverName: string): void {
  const lwt = ['spec', 'leaderWorkerTemplate'];
  const leader = [...lwt, 'leaderTemplate', 'spec'];
  const worker = [...lwt, 'workerTemplate', 'spec'];
  const comment = (path: (string | number)[], text: string) => commentOn(doc, path, text);
  doc.commentBefore = [
    ` Generated by Hitless for ${serverName} over ${inputs.nodesPerReplica} nodes per replica (LeaderWorkerSet ${facts.release}, ${facts.apiVersion}).`,
    ` Each replica is a group: the leader serves HTTP and runs the server; ${inputs.nodesPerReplica - 1} worker pod${inputs.nodesPerReplica === 2 ? ' lends its' : 's lend their'} GPUs.`,
    ` Drain: ${plan.preStopSeconds}s preStop, ${plan.drainSeconds}s drain, ${plan.teardownSeconds}s teardown = ${plan.terminationGracePeriodSeconds}s grace, for leader and workers alike.`,
  ].join('\n');
  comment([...lwt, 'size'], 'pods per replica, one per node, the leader included');
  comment(
    [...lwt, 'restartPolicy'],
    'a pod that restarts recreates its whole group: a failed worker takes the leader and its requests down too',
  );
  comment(
    ['spec', 'rolloutStrategy', 'rollingUpdateConfiguration', 'maxSurge'],
    `groups, not pods: ${formulaOf(plan, 'strategy')}`,
  );
  comment([...leader, 'terminationGracePeriodSeconds'], formulaOf(plan, 'terminationGracePeriodSeconds'));
  comment(
    [...leader, 'containers', 0, 'command', 2],
    plan.drainFlag
      ? `drain: ${plan.drainFlag.flag}=${plan.drainFlag.seconds} (${formulaOf(plan, 'drainSeconds')}); exec, so SIGTERM reaches the server`
      : 'exec, so SIGTERM reaches the server',
  );
  if (plan.preStopAction !== 'none')
    comment(preStopSecondsPath([...leader, 'containers', 0], plan.preStopAction), formulaOf(plan, 'preStopSeconds'));
  comment(
    [...worker, 'terminationGracePeriodSeconds'],
    'the leader\u2019s grace period: a worker killed earlier takes the group down mid-request',
  );
  const hold = `the leader\u2019s ${plan.preStopSeconds}s preStop + ${plan.drainSeconds}s drain: the worker stays until the leader has drained`;
  const action = workerPreStop(plan);
  if (action !== 'none') comment(preStopSecondsPath([...worker, 'containers', 0], action), hold);
}

/** The LeaderWorkerSet's budget: every pod of the set, leaders and workers, by the set's name label. */
function budgetFor(plan: Plan, inputs: DrainInputs): Document | undefined {
  return podDisruptionBudgetDocument(plan, inputs, {
    matchLabels: { [LWS_NAME_LABEL]: inputs.name },
    why: [
      ' Node drains and autoscaler scale-downs evict one pod of the set at a time; evicting a worker recreates its group,',
      ' and the budget then waits for that group to be back before the next eviction. Leave it out (pod-disruption-budget=false)',
      ' if another budget already selects these pods.',
    ],
  });
}

/**
 * The lws form's file: the LeaderWorkerSet, the gateway's objects and the budget, its header stating the chart install
 * that creates the InferencePool over the leaders.
 */
export function lwsFiles(
  plan: Plan,
  inputs: DrainInputs,
  profiles: Profiles,
  facts: LwsFacts,
  chart: ChartFacts,
): OutputFile[] {
  checkInputs(inputs, profiles, facts);
  const server = modelServerById(profiles, inputs.modelServer);
  const bundle = manifestDocuments(plan, inputs, profiles);
  const set = new Document(leaderWorkerSet(plan, inputs, profiles, facts, bundle[0].toJS() as Obj), DOCUMENT_OPTIONS);
  annotate(set, plan, inputs, facts, server.name);
  const gateway = gatewayById(profiles, inputs.gateway);
  const routeNote = routeTimeoutNote(plan, inputs, gateway);
  const pods = `the leader pods of LeaderWorkerSet ${inputs.name} (label app: ${inputs.name})`;
  set.commentBefore = [
    set.commentBefore,
    ...installLines(inputs, profiles, chart, pods),
    ...(routeNote ? [routeNote] : []),
  ].join('\n');
  const lwt = ['spec', 'leaderWorkerTemplate'];
  for (const template of ['leaderTemplate', 'workerTemplate'])
    annotatePodAnnotations(set, [...lwt, template, 'metadata'], plan, inputs, gateway);
  const note = facts.multiNode[server.id].note;
  if (note) keyAt(set, [...lwt, 'workerTemplate', 'spec', 'containers', 0], 'command').commentBefore = ` ${note}`;
  if (server.engineTypeNote)
    keyAt(set, [...lwt, 'leaderTemplate', 'metadata', 'labels'], ENGINE_TYPE_LABEL).commentBefore =
      ` ${server.engineTypeNote.summary}`;
  const rest = bundle.slice(1).filter((doc) => doc.get('kind') !== 'PodDisruptionBudget');
  const budget = budgetFor(plan, inputs);
  return [
    fileOf(LWS_FILE, 'the LeaderWorkerSet and the objects beside it', [set, ...rest, ...(budget ? [budget] : [])]),
  ];
}
