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
 * contain `sleep N`); the probes with Kubernetes' defaults; and, for vLLM, `--shutdown-timeout` in the command line.
 */
import type { Plan } from '../../model/plan.ts';
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

/** Where each rule is explained (the checker page lists every rule by code). */
export function ruleLink(code: string): string {
  return `https://hitless.invalid/checker/#${code}`;
}

const T = 'object.spec.template';

/** The variables the rules read, in evaluation order (a variable may use those before it). */
export function policyVariables(): PolicyVariable[] {
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
    {
      name: 'isVllm',
      expression:
        "variables.engine == 'vllm' && (variables.server.image.indexOf('vllm-openai') >= 0 || variables.commandLine.indexOf('vllm') >= 0)",
    },
    { name: 'shutdownText', expression: "variables.commandLine.replace('--shutdown_timeout', '--shutdown-timeout')" },
    {
      name: 'shutdownWord',
      expression:
        "variables.shutdownText.indexOf('--shutdown-timeout') < 0 ? '' : variables.shutdownText.substring(variables.shutdownText.indexOf('--shutdown-timeout') + 18).replace('=', ' ').trim().split(' ')[0]",
    },
    // Seconds vLLM drains: its default 0 when the flag is absent, -1 when the value is not a whole number.
    {
      name: 'shutdownNow',
      expression:
        "variables.shutdownText.indexOf('--shutdown-timeout') < 0 ? 0 : variables.shutdownWord.replace('\"', '').replace(\"'\", '').matches('^[0-9]{1,9}$') ? int(variables.shutdownWord.replace('\"', '').replace(\"'\", '')) : -1",
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
export function policyRules(plan: Plan, inputs: DrainInputs): PolicyRule[] {
  const removal = Math.ceil(plan.removalSeconds);
  const longest = Math.ceil(plan.maxRequestSeconds);
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
      expression: `variables.preStopNow > variables.grace || variables.grace - (variables.preStopNow >= ${preStop} ? variables.preStopNow : ${preStop}) >= ${longest}`,
      message: `terminationGracePeriodSeconds must leave at least ${longest} seconds (the longest request) after the preStop sleep; ${plan.terminationGracePeriodSeconds} is recommended`,
      arithmetic: `error when grace - max(preStop, ${preStop}) < ${s(plan.maxRequestSeconds)} longest request; recommended ${s(preStop)} preStop + ${s(plan.drainSeconds)} drain + ${s(plan.teardownSeconds)} teardown = ${s(plan.terminationGracePeriodSeconds)}`,
    },
    {
      code: 'drain-aborts-in-flight',
      expression: '!variables.isVllm || variables.shutdownNow != 0',
      message: `vLLM needs --shutdown-timeout greater than 0 (its default, 0, aborts in-flight requests at SIGTERM); ${plan.drainSeconds} is recommended`,
      arithmetic: `recommended drain ${formulaText(plan)}`,
    },
    {
      code: 'drain-flag-too-short',
      expression: `!variables.isVllm || variables.shutdownNow <= 0 || variables.shutdownNow >= ${longest}`,
      message: `vLLM's --shutdown-timeout must be at least ${longest} seconds (the longest request); ${plan.drainSeconds} is recommended`,
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

function formulaText(plan: Plan): string {
  const step = plan.derivation.find((d) => d.field === 'drainSeconds');
  return step ? `${step.formula} = ${s(plan.drainSeconds)}` : s(plan.drainSeconds);
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
