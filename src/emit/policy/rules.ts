/**
 * The checker's single-object error rules as CEL, for admission policies (ValidatingAdmissionPolicy, Kyverno).
 *
 * Each rule admits exactly the workloads the checker does not report at error severity for the same code, with
 * the plan's numbers written in as constants. The expressions use only standard CEL and the strings extension
 * (`indexOf`, `substring`, `split`, `trim`, `join`, `replace`), which Kubernetes (1.30+) and Kyverno (1.11+)
 * provide, and which `@bufbuild/cel` evaluates in the tests.
 *
 * What the policy reads, as the checker does: the pod template of a Deployment or StatefulSet; its model-server
 * container (the one named by the `kubectl.kubernetes.io/default-container` annotation, else the first);
 * `terminationGracePeriodSeconds` (30 when unset); the preStop hook (a `sleep` action, or an `exec` whose words
 * contain `sleep N`); the probes with Kubernetes' defaults; and, for each model server whose data file gives a drain
 * flag (vLLM `--shutdown-timeout`, TGI `--graceful-termination-timeout`, …), that flag in the command line, for the
 * server the pod's engine-type label names and its image or command confirms.
 */
import type { ModelServerProfile } from '../../facts/profiles.ts';
import { formulaOf, type Plan } from '../../model/plan.ts';
import type { DrainInputs } from '../../model/resolve.ts';
import { formatSeconds as s } from '../../model/seconds.ts';
import { ENGINE_TYPE_LABEL } from '../bundle.ts';

/** A named CEL expression the rules share (`variables.<name>`). */
export interface PolicyVariable {
  name: string;
  expression: string;
}

/** One rule: true admits. `code` is the checker's rule code; `message` names the field and the value needed. */
export interface PolicyRule {
  code: string;
  expression: string;
  message: string;
  /** The arithmetic behind the rule's numbers, for a comment beside it. */
  arithmetic: string;
}

/** The annotation `kubectl` uses for a pod's main container; the policy takes it as the model server's. */
const DEFAULT_CONTAINER_ANNOTATION = 'kubectl.kubernetes.io/default-container';

/** Where each rule is explained: `hitless rules` lists every rule by code (so does the checker page). */
export function ruleLink(code: string): string {
  return `hitless rules explains ${code}`;
}

const T = 'object.spec.template';

/** A CEL string literal: single-quoted, with backslashes and quotes escaped. */
function celString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A CEL map literal from engine type to a value already written as CEL. */
function celMap(entries: [string, string][]): string {
  return `{${entries.map(([k, v]) => `${celString(k)}: ${v}`).join(', ')}}`;
}

/** The servers with a drain flag, as the data files give them. */
function flagServers(servers: readonly ModelServerProfile[]) {
  return servers.flatMap((m) => (m.drain.kind === 'flag' && m.drain.flag ? [{ m, flag: m.drain.flag }] : []));
}

/** The last part of the server's image repository (`vllm-openai`), which confirms it beside its label. */
function imageWord(m: ModelServerProfile): string {
  return m.image.split('@')[0].split(':')[0].split('/').pop() ?? '';
}

/** The programs that start the server, from its data file: `vllm`, `text-generation-launcher`, a `python3 -m` module. */
function programWords(m: ModelServerProfile): string[] {
  const command = m.command ?? [];
  const program = command[0]?.startsWith('python') ? command[command.indexOf('-m') + 1] : command[0];
  const entries = m.entryPoints.map((e) => e.binary ?? e.module ?? '');
  return [...new Set([program ?? '', ...entries].filter((w) => w !== ''))];
}

/** The variables the rules read, in evaluation order (a variable may use those before it). */
export function policyVariables(servers: readonly ModelServerProfile[]): PolicyVariable[] {
  const withFlag = flagServers(servers);
  const probeWindow = (p: string) =>
    `(has(${p}.initialDelaySeconds) ? ${p}.initialDelaySeconds : 0) + `
    + `(has(${p}.periodSeconds) && ${p}.periodSeconds > 0 ? ${p}.periodSeconds : 10) * `
    + `(has(${p}.failureThreshold) && ${p}.failureThreshold > 0 ? ${p}.failureThreshold : 3)`;
  return [
    { name: 'pod', expression: `${T}.spec` },
    { name: 'labels', expression: `has(${T}.metadata) && has(${T}.metadata.labels) ? ${T}.metadata.labels : {}` },
    {
      name: 'engine',
      expression: `'${ENGINE_TYPE_LABEL}' in variables.labels ? variables.labels['${ENGINE_TYPE_LABEL}'] : ''`,
    },
    {
      name: 'mainName',
      expression: `has(${T}.metadata) && has(${T}.metadata.annotations) && '${DEFAULT_CONTAINER_ANNOTATION}' in ${T}.metadata.annotations ? ${T}.metadata.annotations['${DEFAULT_CONTAINER_ANNOTATION}'] : ''`,
    },
    {
      name: 'server',
      expression:
        'variables.pod.containers.exists(c, c.name == variables.mainName) ? variables.pod.containers.filter(c, c.name == variables.mainName)[0] : variables.pod.containers[0]',
    },
    {
      name: 'grace',
      expression: 'has(variables.pod.terminationGracePeriodSeconds) ? variables.pod.terminationGracePeriodSeconds : 30',
    },
    { name: 'hasHook', expression: 'has(variables.server.lifecycle) && has(variables.server.lifecycle.preStop)' },
    { name: 'hasSleepAction', expression: 'variables.hasHook && has(variables.server.lifecycle.preStop.sleep)' },
    // The exec command's words joined, so that `["/bin/sleep", "30"]` and `["sh", "-c", "sleep 30"]` read alike.
    {
      name: 'execText',
      expression:
        "variables.hasHook && has(variables.server.lifecycle.preStop.exec) && has(variables.server.lifecycle.preStop.exec.command) ? ' ' + variables.server.lifecycle.preStop.exec.command.join(' ') : ''",
    },
    // A loop that polls (`while …; do sleep 5; done`) cannot be timed: its sleep is the poll interval.
    {
      name: 'execSleepWord',
      expression:
        "variables.execText.indexOf('while ') >= 0 || variables.execText.indexOf('until ') >= 0 ? '' : variables.execText.indexOf(' sleep ') >= 0 ? variables.execText.substring(variables.execText.indexOf(' sleep ') + 7).trim().split(' ')[0] : variables.execText.indexOf('/sleep ') >= 0 ? variables.execText.substring(variables.execText.indexOf('/sleep ') + 7).trim().split(' ')[0] : ''",
    },
    {
      name: 'execSleepDigits',
      expression: "variables.execSleepWord.replace('\"', '').replace(\"'\", '').replace(';', '').replace('s', '')",
    },
    // Seconds the hook holds SIGTERM back: 0 without a hook, -1 when it cannot be timed.
    {
      name: 'preStopNow',
      expression:
        "!variables.hasHook ? 0 : variables.hasSleepAction ? (has(variables.server.lifecycle.preStop.sleep.seconds) ? variables.server.lifecycle.preStop.sleep.seconds : -1) : variables.execSleepDigits.matches('^[0-9]{1,9}$') ? int(variables.execSleepDigits) : -1",
    },
    // The command line as one text, for flags written as list items or inside a shell script.
    {
      name: 'commandLine',
      expression:
        "' ' + (has(variables.server.command) ? variables.server.command.join(' ') : '') + ' ' + (has(variables.server.args) ? variables.server.args.join(' ') : '') + ' '",
    },
    // The drain flag of the server the engine-type label names, confirmed by its image or command ('' otherwise).
    {
      name: 'drainFlags',
      expression: celMap(withFlag.map(({ m, flag }) => [m.engineType, celString(flag)])),
    },
    { name: 'serverImages', expression: celMap(withFlag.map(({ m }) => [m.engineType, celString(imageWord(m))])) },
    {
      name: 'serverPrograms',
      expression: celMap(withFlag.map(({ m }) => [m.engineType, `[${programWords(m).map(celString).join(', ')}]`])),
    },
    {
      name: 'drainFlag',
      expression:
        "variables.engine in variables.drainFlags && (variables.server.image.indexOf(variables.serverImages[variables.engine]) >= 0 || variables.serverPrograms[variables.engine].exists(w, variables.commandLine.indexOf(w) >= 0)) ? variables.drainFlags[variables.engine] : ''",
    },
    // The servers read flags as argparse and clap do: `--shutdown_timeout` is `--shutdown-timeout`.
    {
      name: 'drainText',
      expression:
        "variables.drainFlag == '' ? '' : variables.commandLine.replace('--' + variables.drainFlag.substring(2).replace('-', '_'), variables.drainFlag)",
    },
    {
      name: 'drainWord',
      expression:
        "variables.drainFlag == '' || variables.drainText.indexOf(variables.drainFlag) < 0 ? '' : variables.drainText.substring(variables.drainText.indexOf(variables.drainFlag) + variables.drainFlag.size()).replace('=', ' ').trim().split(' ')[0]",
    },
    // Seconds the server drains: its default when the flag is absent, -1 when the value is not a whole number.
    {
      name: 'drainNow',
      expression: `variables.drainFlag == '' ? -1 : variables.drainWord == '' ? ${celMap(withFlag.map(({ m }) => [m.engineType, String(m.drain.defaultSeconds ?? -1)]))}[variables.engine] : variables.drainWord.replace('"', '').replace("'", '').matches('^[0-9]{1,9}$') ? int(variables.drainWord.replace('"', '').replace("'", '')) : -1`,
    },
    // Whether the server aborts in-flight requests when the flag is 0 (vLLM's default).
    {
      name: 'zeroAborts',
      expression: `variables.drainFlag != '' && variables.engine in [${withFlag
        .filter(({ m }) => m.drain.zeroAborts)
        .map(({ m }) => celString(m.engineType))
        .join(', ')}]`,
    },
    {
      name: 'livenessWindow',
      expression: `has(variables.server.livenessProbe) ? ${probeWindow('variables.server.livenessProbe')} : 0`,
    },
    {
      name: 'startupWindow',
      expression: `has(variables.server.startupProbe) ? ${probeWindow('variables.server.startupProbe')} : 0`,
    },
  ];
}

/** The rules for a plan, each with its numbers written in. */
export function policyRules(plan: Plan, inputs: DrainInputs, servers: readonly ModelServerProfile[]): PolicyRule[] {
  const withFlag = flagServers(servers);
  const flags = withFlag.map(({ m, flag }) => `${m.name} ${flag}`).join(', ');
  const aborting = withFlag.filter(({ m }) => m.drain.zeroAborts).map(({ m, flag }) => `${m.name} ${flag}`);
  const removal = Math.ceil(plan.removalSeconds);
  const longest = Math.ceil(plan.maxRequestSeconds);
  // What the grace period must leave after the preStop sleep: the longest request, unless the server does not drain
  // (its plan has no drain budget: llama.cpp exits at SIGTERM, so nothing waits for the request).
  const afterPreStop = plan.drainSeconds === 0 ? 0 : longest;
  const preStop = plan.preStopSeconds;
  const startup = inputs.startupSeconds;
  const rules: PolicyRule[] = [];
  if (plan.preStopAction !== 'none') {
    rules.push({
      code: 'prestop-missing',
      expression: 'variables.hasHook',
      message: `the model-server container needs lifecycle.preStop: a sleep of at least ${preStop} seconds, so gateways stop routing to the pod before SIGTERM`,
      arithmetic: `${s(plan.removalSeconds)} removal p99 + ${s(inputs.removalMarginSeconds)} margin = ${s(preStop)}`,
    });
  }
  if (plan.preStopAction === 'exec') {
    rules.push({
      code: 'prestop-sleep-unsupported',
      expression: '!variables.hasSleepAction',
      message: `lifecycle.preStop.sleep is not enabled before Kubernetes 1.30 (this policy is for ${inputs.kubernetesVersion}); use exec: command: ["/bin/sleep", "${preStop}"]`,
      arithmetic: `Kubernetes ${inputs.kubernetesVersion} < 1.30`,
    });
  }
  // Where the sleep action is not enabled, a sleep hook is reported as unsupported and not timed further.
  const untimedSleep = plan.preStopAction === 'exec' ? 'variables.hasSleepAction || ' : '';
  rules.push(
    {
      code: 'prestop-too-short',
      expression: `${untimedSleep}variables.preStopNow < 0 || !variables.hasHook || variables.preStopNow >= ${removal}`,
      message: `lifecycle.preStop must sleep at least ${removal} seconds (the gateway's removal p99); ${preStop} is recommended`,
      arithmetic: `error below the ${s(plan.removalSeconds)} removal p99; recommended ${s(plan.removalSeconds)} + ${s(inputs.removalMarginSeconds)} margin = ${s(preStop)}`,
    },
    {
      code: 'prestop-exceeds-grace',
      expression: `${untimedSleep}variables.preStopNow <= variables.grace`,
      message:
        'terminationGracePeriodSeconds must be at least the preStop sleep (30 when unset): the kubelet kills the container mid-sleep, or the API server rejects the pod',
      arithmetic: 'preStop sleep <= terminationGracePeriodSeconds',
    },
    {
      code: 'grace-too-short',
      expression: `variables.preStopNow > variables.grace || variables.grace - (variables.preStopNow >= ${preStop} ? variables.preStopNow : ${preStop}) >= ${afterPreStop}`,
      message: `terminationGracePeriodSeconds must leave at least ${afterPreStop} seconds (${afterPreStop === 0 ? 'the server does not drain' : 'the longest request'}) after the preStop sleep; ${plan.terminationGracePeriodSeconds} is recommended`,
      arithmetic: `error when grace - max(preStop, ${preStop}) < ${s(plan.maxRequestSeconds)} longest request; recommended ${s(preStop)} preStop + ${s(plan.drainSeconds)} drain + ${s(plan.teardownSeconds)} teardown = ${s(plan.terminationGracePeriodSeconds)}`,
    },
    {
      code: 'drain-aborts-in-flight',
      expression: '!variables.zeroAborts || variables.drainNow != 0',
      message: `the model server's drain flag (${aborting.join(', ')}) must be greater than 0: its default, 0, aborts in-flight requests at SIGTERM; ${plan.drainSeconds} is recommended`,
      arithmetic: `recommended drain ${formulaText(plan)}`,
    },
    {
      code: 'drain-flag-too-short',
      expression: `variables.drainNow < 0 || (variables.drainNow == 0 && variables.zeroAborts) || variables.drainNow >= ${longest}`,
      message: `the model server's drain flag (${flags}; its default when unset) must be at least ${longest} seconds (the longest request); ${plan.drainSeconds} is recommended`,
      arithmetic: `error below the ${s(plan.maxRequestSeconds)} longest request; recommended ${formulaText(plan)}`,
    },
    {
      code: 'readiness-missing',
      expression: 'has(variables.server.readinessProbe) || has(variables.server.startupProbe)',
      message:
        'the model-server container needs a readinessProbe (and a startupProbe): without either the pod counts as ready while its model still loads',
      arithmetic: 'no readiness and no startup probe',
    },
    {
      code: 'startup-missing',
      expression: `has(variables.server.startupProbe) || !has(variables.server.livenessProbe) || variables.livenessWindow >= ${startup}`,
      message: `the model-server container needs a startupProbe that allows ${startup} seconds: its liveness probe restarts the container before the model loads`,
      arithmetic: `liveness initialDelaySeconds + periodSeconds × failureThreshold < ${s(startup)} model load`,
    },
    {
      code: 'startup-too-short',
      expression: `!has(variables.server.startupProbe) || variables.startupWindow >= ${startup}`,
      message: `startupProbe must allow at least ${startup} seconds (initialDelaySeconds + periodSeconds × failureThreshold) for the model to load`,
      arithmetic: `startup initialDelaySeconds + periodSeconds × failureThreshold >= ${s(startup)} model load`,
    },
  );
  return rules;
}

/** The drain budget's arithmetic and value. */
function formulaText(plan: Plan): string {
  return `${formulaOf(plan, 'drainSeconds')} = ${s(plan.drainSeconds)}`;
}

/** The codes the policies cover: the checker's single-object rules at error severity. */
export const POLICY_CODES = [
  'prestop-missing',
  'prestop-sleep-unsupported',
  'prestop-too-short',
  'prestop-exceeds-grace',
  'grace-too-short',
  'drain-aborts-in-flight',
  'drain-flag-too-short',
  'readiness-missing',
  'startup-missing',
  'startup-too-short',
] as const;
