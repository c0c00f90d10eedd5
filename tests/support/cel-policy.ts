/**
 * Evaluate an emitted ValidatingAdmissionPolicy as the API server would, with @bufbuild/cel: the match
 * condition, then the variables in order, then each validation. Integers become CEL ints (as Kubernetes decodes
 * them), objects CEL maps. A validation that errors counts as a failure (the policy's failurePolicy is Fail).
 */
import { run, isCelError } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';

/** A decoded Kubernetes object as CEL input. */
function toCel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toCel);
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (value && typeof value === 'object') return new Map(Object.entries(value).map(([k, v]) => [k, toCel(v)]));
  return value;
}

function evaluate(expression: string, bindings: Record<string, unknown>): unknown {
  const result = run(expression, bindings as never, { funcs: strings });
  return isCelError(result) ? result : result;
}

/** The result of admitting one object. */
export interface Admission {
  matched: boolean;
  /** Messages of the validations that failed (or errored), in order. */
  failures: string[];
}

interface VapSpec {
  matchConditions: { expression: string }[];
  variables: { name: string; expression: string }[];
  validations: { expression: string; message: string }[];
}

/** Admit `object` under the policy spec (`spec` of a ValidatingAdmissionPolicy, or Kyverno's cel block reshaped). */
export function admit(spec: VapSpec, object: unknown): Admission {
  const celObject = toCel(object);
  for (const condition of spec.matchConditions) {
    const matched = evaluate(condition.expression, { object: celObject });
    if (matched !== true) return { matched: false, failures: [] };
  }
  const variables = new Map<string, unknown>();
  for (const v of spec.variables) {
    const value = evaluate(v.expression, { object: celObject, variables });
    if (!isCelError(value)) variables.set(v.name, value);
  }
  const failures: string[] = [];
  for (const validation of spec.validations) {
    const ok = evaluate(validation.expression, { object: celObject, variables });
    if (ok !== true)
      failures.push(isCelError(ok) ? `${validation.message} [error: ${String(ok.message ?? ok)}]` : validation.message);
  }
  return { matched: true, failures };
}
