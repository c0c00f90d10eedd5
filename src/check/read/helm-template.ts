/**
 * Helm (Go template) syntax in a manifest: `{{ .Values.x }}`, `{{- if … }}`, `{{ include … }}`. Such a file is a
 * chart's template, not what the API server receives: a value the template fills in, an `if` that drops a block,
 * a `toYaml` that inserts one are all decided at render time, so any finding on the raw text could be wrong.
 */
import { positionOf, type InputProblem } from './guard-input.ts';

/**
 * A Go template action as Helm charts write it: `{{` (with optional `-` trim marker), then one of Helm's built-in
 * objects (`.Values`, `.Release`, `.Chart`, `.Capabilities`, `.Files`, `.Template`), a variable (`$name`), or a
 * template keyword or Helm function. Jinja (vLLM chat templates inside args) writes `{{ message }}` or `{% if %}`,
 * never these, so it is not matched. Neither is a controller's own template in a field it fills when it builds the
 * pod (`{{.Name}}` in a KServe ServingRuntime, `{{ .Spec.Model.Name }}` in an LLMInferenceServiceConfig,
 * `{{ .ModelPath }}` in an llmaz BackendRuntime): such a file is applied as it is.
 */
const ACTION =
  /\{\{-?\s*(?:\.(?:Values|Release|Chart|Capabilities|Files|Template)\b|\$|(?:if|else|end|range|with|define|template|include|block|toYaml|tpl|required|printf|default|quote|nindent|indent)\b)[^\n]*?\}\}/;

/** A problem naming the first Helm template action in the text, or undefined when it has none. */
export function helmTemplateProblem(text: string): InputProblem | undefined {
  const match = ACTION.exec(text);
  if (!match) return undefined;
  const at = positionOf(text, match.index);
  const action = match[0].length > 60 ? `${match[0].slice(0, 57)}...` : match[0];
  return {
    message:
      `This is a Helm template, not a Kubernetes manifest: line ${at.line} has the template action ${JSON.stringify(action)}, `
      + 'whose value is only known once the chart is rendered, so it cannot be checked as written: render it first '
      + '(helm template RELEASE CHART -f values.yaml | hitless check -) and check the output.',
    ...at,
  };
}
