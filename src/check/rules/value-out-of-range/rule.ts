import { fieldFor } from '../../../model/fields.ts';
import { quote } from '../../read/path.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'value-out-of-range',
  order: 200,
  scope: 'workload',
  severity: 'warning',
  summary:
    'A value the manifest states that is outside the range the drain model reads (readiness failureThreshold 600), so the check could not use it.',
  remediation: 'Check that setting by hand: the drain model cannot use the value as written.',
  remedy: 'manual',
  check: ({ unused, inputs }) =>
    unused.map((value) => {
      const spec = fieldFor(value.flag);
      const range =
        spec && spec.min !== undefined && spec.max !== undefined
          ? ` (the drain model reads ${spec.min}\u2013${spec.max})`
          : '';
      return {
        severity: 'warning',
        path: [],
        message: `${value.from} gives ${value.flag} ${quote(value.value)}, outside what the checker can model${range}, so the check used ${quote(String((spec ? inputs[spec.key] : undefined) ?? 'its default'))} instead; check that setting by hand.`,
      };
    }),
});
