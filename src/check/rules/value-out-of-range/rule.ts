import { fieldFor } from '../../../model/fields.ts';
import { quote } from '../../read/path.ts';
import { defineRule } from '../rule.ts';

/** Inputs that name things rather than size the drain. */
const NAMES: ReadonlySet<string> = new Set(['image', 'model', 'name', 'namespace']);

export const rule = defineRule({
  code: 'value-out-of-range',
  order: 200,
  scope: 'workload',
  severity: {
    warning: 'a value the drain model computes with (replicas, a probe period)',
    info: 'a name only the generator link carries (the image, the model, the object name): a placeholder a template fills in',
  },
  summary:
    'A value the manifest states that is outside the range the drain model reads (5000 replicas), so the check could not use it.',
  remediation: 'Check that setting by hand: the drain model cannot use the value as written.',
  remedy: 'manual',
  check: ({ unused, inputs }) =>
    unused.map((value) => {
      const spec = fieldFor(value.flag);
      const range =
        spec && spec.min !== undefined && spec.max !== undefined
          ? ` (the drain model reads ${spec.min}\u2013${spec.max})`
          : '';
      const used = quote(String((spec ? inputs[spec.key] : undefined) ?? 'its default'));
      // The image, model and names reach only the generator link and its labels; the rules read the container itself.
      if (NAMES.has(value.flag))
        return {
          severity: 'info' as const,
          path: [],
          message: `${value.from} gives ${value.flag} ${quote(value.value)}, which is not one the generator can write (a placeholder a template fills in?), so the generator link uses ${used}; no finding rests on it.`,
        };
      return {
        severity: 'warning' as const,
        path: [],
        message: `${value.from} gives ${value.flag} ${quote(value.value)}, outside what the checker can model${range}, so the check used ${used} instead; check that setting by hand.`,
      };
    }),
});
