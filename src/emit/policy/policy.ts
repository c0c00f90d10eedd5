/**
 * Admission policies from a plan: a ValidatingAdmissionPolicy with its binding (admissionregistration.k8s.io/v1),
 * or a Kyverno ClusterPolicy with the same CEL. Each rule carries a comment with its arithmetic.
 */
import { Document, isMap, isScalar, isSeq, type YAMLMap, type YAMLSeq } from 'yaml';
import type { ModelServerProfile } from '../../facts/profiles.ts';
import type { Plan } from '../../model/plan.ts';
import type { DrainInputs } from '../../model/resolve.ts';
import { DOCUMENT_OPTIONS } from '../options.ts';
import { documentText } from '../files.ts';
import { ENGINE_TYPE_LABEL } from '../bundle.ts';
import { policyRules, policyVariables, ruleLink, type PolicyRule } from './rules.ts';

export type PolicyFormat = 'vap' | 'kyverno';
export type PolicyAction = 'Warn' | 'Audit' | 'Deny';

/** How the policy is scoped and what it does when a rule fails. */
export interface PolicyOptions {
  format: PolicyFormat;
  /** ValidatingAdmissionPolicyBinding validationActions; Kyverno uses Enforce when Deny is among them, else Audit. */
  actions: PolicyAction[];
  /** Match only namespaces with these labels (all namespaces when empty). */
  namespaceLabels: Record<string, string>;
  /** Name of the policy objects. */
  name: string;
  /** The model servers whose drain flags the policy checks (every data file's, as the checker does). */
  servers: readonly ModelServerProfile[];
}

const MATCH_EXPRESSION = `has(object.spec.template.metadata) && has(object.spec.template.metadata.labels) && '${ENGINE_TYPE_LABEL}' in object.spec.template.metadata.labels`;

/** The rule's message, naming where the rule is explained (`hitless rules`). */
function messageOf(rule: PolicyRule): string {
  return `${rule.code}: ${rule.message} (${ruleLink(rule.code)})`;
}

function headerOf(plan: Plan, inputs: DrainInputs): string {
  return [
    ` Hitless admission policy (drain model v${plan.modelVersion}) for ${plan.gateway} + ${plan.modelServer}.`,
    ' It checks Deployments and StatefulSets whose pod template carries the label',
    ` ${ENGINE_TYPE_LABEL} (the pods an InferencePool serves), as \`hitless check\` does at error severity.`,
    ` Numbers from the plan: preStop ${plan.preStopSeconds}s, longest request ${plan.maxRequestSeconds}s, drain ${plan.drainSeconds}s,`,
    ` grace ${plan.terminationGracePeriodSeconds}s, model load ${inputs.startupSeconds}s. Reproduce: hitless generate with the same inputs.`,
  ].join('\n');
}

/** Put each rule's arithmetic as a comment before its item in a sequence of rules. */
function commentRules(seq: unknown, rules: PolicyRule[]): void {
  if (!isSeq(seq)) return;
  (seq as YAMLSeq).items.forEach((item, i) => {
    if (rules[i] && (isMap(item) || isScalar(item))) (item as YAMLMap).commentBefore = ` ${rules[i].arithmetic}`;
  });
}

function vapDocuments(plan: Plan, inputs: DrainInputs, options: PolicyOptions): Document[] {
  const rules = policyRules(plan, inputs, options.servers);
  const policy = new Document(
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: options.name },
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: {
          resourceRules: [
            {
              apiGroups: ['apps'],
              apiVersions: ['v1'],
              operations: ['CREATE', 'UPDATE'],
              resources: ['deployments', 'statefulsets'],
            },
          ],
        },
        matchConditions: [{ name: 'serves-an-inference-pool', expression: MATCH_EXPRESSION }],
        variables: policyVariables(options.servers),
        validations: rules.map((rule) => ({
          expression: rule.expression,
          message: messageOf(rule),
          reason: 'Invalid',
        })),
      },
    },
    DOCUMENT_OPTIONS,
  );
  policy.commentBefore = headerOf(plan, inputs);
  commentRules(policy.getIn(['spec', 'validations'], true), rules);
  const binding = new Document(
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: options.name },
      spec: {
        policyName: options.name,
        validationActions: options.actions,
        ...(Object.keys(options.namespaceLabels).length > 0
          ? { matchResources: { namespaceSelector: { matchLabels: options.namespaceLabels } } }
          : {}),
      },
    },
    DOCUMENT_OPTIONS,
  );
  binding.commentBefore = options.actions.includes('Deny')
    ? ' Deny: the API server rejects a workload that breaks a rule.'
    : ' Warn + Audit: the API server admits the workload, warns the client and records an audit annotation. Add Deny (hitless policy --deny) to reject.';
  return [policy, binding];
}

function kyvernoDocuments(plan: Plan, inputs: DrainInputs, options: PolicyOptions): Document[] {
  const rules = policyRules(plan, inputs, options.servers);
  const enforce = options.actions.includes('Deny');
  const resources: Record<string, unknown> = {
    kinds: ['apps/v1/Deployment', 'apps/v1/StatefulSet'],
    operations: ['CREATE', 'UPDATE'],
  };
  if (Object.keys(options.namespaceLabels).length > 0)
    resources.namespaceSelector = { matchLabels: options.namespaceLabels };
  const policy = new Document(
    {
      apiVersion: 'kyverno.io/v1',
      kind: 'ClusterPolicy',
      metadata: {
        name: options.name,
        annotations: {
          'policies.kyverno.io/title':
            'Hitless: roll out and drain InferencePool model servers without dropping requests',
          'policies.kyverno.io/description':
            "preStop, grace period, the model server's drain flag and probes sized by the Hitless drain plan.",
        },
      },
      spec: {
        validationFailureAction: enforce ? 'Enforce' : 'Audit',
        background: true,
        rules: [
          {
            name: 'drain-pattern',
            match: { any: [{ resources }] },
            celPreconditions: [{ name: 'serves-an-inference-pool', expression: MATCH_EXPRESSION }],
            validate: {
              cel: {
                variables: policyVariables(options.servers),
                expressions: rules.map((rule) => ({ expression: rule.expression, message: messageOf(rule) })),
              },
            },
          },
        ],
      },
    },
    DOCUMENT_OPTIONS,
  );
  policy.commentBefore = `${headerOf(plan, inputs)}\n Kyverno 1.12 or later (CEL validation with celPreconditions); Kyverno 1.17 deprecated ClusterPolicy. ${enforce ? 'Enforce: violations are rejected.' : 'Audit: violations are reported in policy reports, not rejected. Add --deny to enforce.'}`;
  commentRules(policy.getIn(['spec', 'rules', 0, 'validate', 'cel', 'expressions'], true), rules);
  return [policy];
}

/** The policy documents for a plan. */
export function policyDocuments(plan: Plan, inputs: DrainInputs, options: PolicyOptions): Document[] {
  return options.format === 'vap' ? vapDocuments(plan, inputs, options) : kyvernoDocuments(plan, inputs, options);
}

/** The policy as YAML text, documents separated by `---`. */
export function emitPolicy(plan: Plan, inputs: DrainInputs, options: PolicyOptions): string {
  return policyDocuments(plan, inputs, options).map(documentText).join('---\n');
}
