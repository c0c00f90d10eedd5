/**
 * value-rejected: whole-number fields of a workload that the API server refuses as written: a quoted number
 * (`replicas: "3"`), a negative count, a fraction. Numbers are read as the API server reads YAML (1.1: `0130`
 * is octal 88, `1_0` is 10), so only values it refuses are reported. A quoted plain decimal is fixed by
 * unquoting it; anything else is left to the reader.
 */
import { quote, valueAt, type Segment } from '../../read/path.ts';
import { containersOf } from '../../workload/pod.ts';
import { setEdit } from '../context.ts';
import type { Workload } from '../../workload/locate.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'value-rejected',
  order: 350,
  scope: 'manifest',
  severity: 'error',
  summary: 'A whole-number field the API server refuses as written (a quoted number, a negative count, a fraction).',
  remediation: 'Write the field as an unquoted whole number in range.',
  remedy: 'applied',
  check: (ctx) =>
    ctx.located.workloads.flatMap((workload) =>
      fieldsOf(workload).flatMap(([path, min]) => {
        const object = workload.object;
        const raw = valueAt(object.value, path);
        const why = rejection(raw, min);
        if (!why) return [];
        const decimal = typeof raw === 'string' && /^(0|[1-9]\d{0,8})$/.test(raw) ? Number(raw) : undefined;
        const fixable = decimal !== undefined && decimal >= min;
        // Another rule that writes this field writes a number too: its edit removes the quotes as well.
        const full = JSON.stringify([...object.base, ...path]);
        const other = ctx.findings
          .flatMap((f) => f.fix?.edits ?? [])
          .find((e) => e.op === 'set' && e.document === object.document && JSON.stringify(e.path) === full);
        const key = String(path.at(-1));
        return [
          {
            severity: 'error' as const,
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
              : { text: `Manual: write ${key} as a whole number of at least ${min}.`, edits: [] },
          },
        ];
      }),
    ),
  fix: (_ctx, verdict) => verdict.planned,
});

/** Why the API server refuses a value for a whole-number field, or undefined when it accepts it. */
function rejection(raw: unknown, min: number): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw) || !Number.isInteger(raw)) return `${raw} is not a whole number`;
    return raw < min ? `${raw} is below ${min}` : undefined;
  }
  if (typeof raw === 'string') return `${quote(raw)} is a string, not a number`;
  return `it is a ${Array.isArray(raw) ? 'list' : typeof raw}, not a number`;
}

/** The whole-number fields of a workload the checker reads, with the least value each accepts. */
function fieldsOf(workload: Workload): [Segment[], number][] {
  const fields: [Segment[], number][] = [[['spec', 'replicas'], 0]];
  if (workload.kind === 'Deployment') fields.push([['spec', 'progressDeadlineSeconds'], 1]);
  if (workload.kind === 'LeaderWorkerSet') fields.push([['spec', 'leaderWorkerTemplate', 'size'], 1]);
  for (const template of [workload.serving, ...(workload.workers ? [workload.workers] : [])]) {
    fields.push([[...template.specPath, 'terminationGracePeriodSeconds'], 0]);
    for (const c of containersOf(template)) {
      fields.push([[...c.path, 'lifecycle', 'preStop', 'sleep', 'seconds'], 0]);
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
        for (const key of ['periodSeconds', 'failureThreshold', 'timeoutSeconds', 'initialDelaySeconds'])
          fields.push([[...c.path, probe, key], key === 'initialDelaySeconds' ? 0 : 1]);
      }
    }
  }
  return fields;
}
