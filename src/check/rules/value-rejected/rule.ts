/**
 * value-rejected: whole-number fields of a workload that the API server refuses as written: a quoted number
 * (`replicas: "3"`), a value below the field's minimum or past its Go type (int32, int64), a fraction, `.nan`, a
 * rollout bound that is neither a count nor a percentage; and two fields that break a relation validation enforces
 * (progressDeadlineSeconds not above minReadySeconds, maxSurge and maxUnavailable both 0). The ranges and relations are
 * data (content/kubernetes/value-ranges.yaml), and numbers are read as kubectl reads YAML (`0o36`, `036` and `0x1e`
 * are 30, `1e3` is 1000: read/kube-yaml.ts), so only values the API server refuses are reported. A quoted plain
 * decimal in range is fixed by unquoting it; anything else is left to the reader.
 */
import { valueAt } from '../../read/path.ts';
import { allowedOf, brokenRelations, fieldsOf, rejection } from '../../workload/value-ranges.ts';
import { setEdit } from '../context.ts';
import { defineRule, type PlannedVerdict } from '../rule.ts';
import { manualFix } from '../findings.ts';

/** A value that is one template placeholder: `${VAR}`, `${VAR:-default}`, `$VAR`, `{{ … }}`. */
const PLACEHOLDER = /^(\$\{[A-Za-z_][A-Za-z0-9_]*(?::?[-=?+][^}]*)?\}|\$[A-Za-z_][A-Za-z0-9_]*|\{\{.*\}\})$/;

export const rule = defineRule({
  code: 'value-rejected',
  order: 350,
  scope: 'manifest',
  severity: {
    error: 'a value the API server refuses as written',
    info: 'a template placeholder (`${REPLICAS:-1}`, `{{ .Values.replicas }}`): the file is rendered before it is applied',
  },
  summary:
    'A whole-number field the API server refuses as written (a quoted number, a value out of its range or type, a fraction).',
  remediation: 'Write the field as an unquoted whole number in range.',
  remedy: 'applied',
  check: (ctx) =>
    ctx.located.workloads
      .flatMap((workload) =>
        fieldsOf(workload, ctx.profiles.valueRanges).flatMap(([path, range]): PlannedVerdict[] => {
          const object = workload.object;
          const raw = valueAt(object.value, path);
          const why = rejection(raw, range);
          if (!why) return [];
          const decimal = typeof raw === 'string' && /^(0|[1-9]\d{0,8})$/.test(raw) ? Number(raw) : undefined;
          const fixable = decimal !== undefined && rejection(decimal, range) === undefined;
          // Another rule that writes this field writes a number too: its edit removes the quotes as well.
          const full = JSON.stringify([...object.base, ...path]);
          const other = ctx.findings
            .flatMap((f) => f.fix?.edits ?? [])
            .find((e) => e.op === 'set' && e.document === object.document && JSON.stringify(e.path) === full);
          const key = String(path.at(-1));
          // A placeholder that envsubst or a template engine fills in: the file is a template, not what is applied.
          if (typeof raw === 'string' && PLACEHOLDER.test(raw))
            return [
              {
                severity: 'info',
                object,
                path,
                message: `${key} is a template placeholder (${raw}), so this file is rendered before it is applied; the checker checks the rest without it. Check the rendered output (envsubst < FILE | hitless check -, or helm template … | hitless check -).`,
                planned: manualFix('nothing here: render the template, then check what it renders.'),
              },
            ];
          return [
            {
              severity: 'error',
              object,
              path,
              message:
                `${key}: ${why}, so the API server rejects ${object.kind}/${object.name}; `
                + (fixable
                  ? `the checker reads it as ${decimal}.`
                  : 'the checker cannot read it and checks the rest without it.'),
              planned: fixable
                ? {
                    text: `${key}: ${other ? String(other.value) : decimal}`,
                    edits: [other ?? setEdit(object, path, decimal)],
                  }
                : manualFix(`write ${key} as ${allowedOf(range)}.`),
            },
          ];
        }),
      )
      .concat(
        ctx.located.workloads.flatMap(({ object }) =>
          brokenRelations(object.value, object.kind, ctx.profiles.valueRanges).map(({ path, message }) => ({
            severity: 'error' as const,
            object,
            path,
            message: `${message}, so the API server rejects ${object.kind}/${object.name}.`,
            planned: manualFix(`${message.slice(message.indexOf('; ') + 2)}.`),
          })),
        ),
      ),
  fix: (_ctx, verdict) => verdict.planned,
});
