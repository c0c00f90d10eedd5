/** `hitless policy`: admission policies (ValidatingAdmissionPolicy or Kyverno) that enforce the drain plan. */
import { resolveInputs } from '../model/resolve.ts';
import { plan } from '../model/plan.ts';
import { emitPolicy, type PolicyAction, type PolicyFormat } from '../emit/policy/policy.ts';
import { readProfiles } from '../facts/read-files.ts';
import { choiceOption, noPositional, parseArgs, UsageError } from './args.ts';

const FORMATS: readonly PolicyFormat[] = ['vap', 'kyverno'];
const LABEL_KEY = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$/;
const DNS_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

/** Read `key=value[,key=value]` into labels, naming the option in every error; a key given twice is refused. */
export function readNamespaceSelector(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of text.split(',')) {
    const eq = pair.indexOf('=');
    const key = eq === -1 ? pair : pair.slice(0, eq);
    const value = eq === -1 ? undefined : pair.slice(eq + 1);
    if (value === undefined || !LABEL_KEY.test(key) || !LABEL_VALUE.test(value)) {
      throw new UsageError(
        `--namespace-selector takes label=value pairs separated by commas, such as team=inference (got ${JSON.stringify(pair)})`,
      );
    }
    if (Object.hasOwn(labels, key))
      throw new UsageError(`--namespace-selector gives the label ${key} twice; a namespace has one value for a label`);
    labels[key] = value;
  }
  return labels;
}

export const POLICY_HELP = `Usage: hitless policy [--format vap|kyverno] [--deny] [--namespace-selector KEY=VALUE,...]
                      [--policy-name NAME] [--<input> VALUE ...]

Prints admission policies that hold every Deployment and StatefulSet whose pods carry the InferencePool's
engine-type label to the drain plan for the inputs: a ValidatingAdmissionPolicy and its binding (vap, Kubernetes
1.30 and later) or a Kyverno ClusterPolicy. They warn and audit; --deny rejects. --namespace-selector narrows them
to namespaces with those labels. Exit 0, or 2 for a bad input or flag.`;

export async function runPolicy(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['format', 'namespace-selector', 'policy-name'], ['deny']);
  noPositional(args, 'policy');
  const format = choiceOption(args, 'format', FORMATS, 'vap');
  const name = args.options['policy-name'] ?? 'hitless-drain';
  if (!DNS_NAME.test(name))
    throw new UsageError(
      `--policy-name must be a DNS subdomain name: lower-case letters, digits, "-" and "." (got ${JSON.stringify(name)})`,
    );
  const namespaceLabels =
    args.options['namespace-selector'] === undefined ? {} : readNamespaceSelector(args.options['namespace-selector']);
  const profiles = readProfiles();
  const resolved = resolveInputs(args.inputs, profiles);
  if (resolved.errors.length > 0) throw new UsageError(resolved.errors.map((e) => `--${e.message}`).join('\n  '));
  const planned = plan(resolved.inputs, profiles);
  const actions: PolicyAction[] = args.options.deny === 'true' ? ['Deny', 'Audit'] : ['Warn', 'Audit'];
  process.stdout.write(
    emitPolicy(planned, resolved.inputs, {
      format,
      actions,
      namespaceLabels,
      name,
      servers: profiles.modelServers,
    }),
  );
  return 0;
}
