/**
 * A repository's `.hitless.yaml`: the gateway, the inputs (for every workload, and per workload by name, namespace,
 * kind or labels), rule severities and suppressions with a reason. Its zod schema is the one source of its type and of
 * the JSON Schema editors read (content/schemas/hitless-config.schema.json, `npm run gen:schemas`). The CLI finds and
 * reads the file (src/cli/check-config.ts); the check applies it here: its inputs count as given by the reader.
 */
import { z } from 'zod';
import type { ManifestObject } from './read/read-manifest.ts';
import { isRecord, valueAt } from './read/path.ts';
import { objectName, type CheckContext } from './rules/context.ts';
import type { Severity } from './rules/findings.ts';
import { suppress } from './suppress.ts';

const name = z.string().min(1);
const value = z.union([z.string(), z.number(), z.boolean()]);

/** Which workloads an entry is about: every field given must hold (labels: the object's or its pods'). */
const match = z
  .strictObject({
    name: name.optional(),
    namespace: name.optional(),
    kind: name.optional(),
    labels: z.record(z.string(), z.string()).optional(),
  })
  .refine((m) => Object.keys(m).length > 0, { message: 'needs at least one of name, namespace, kind, labels' });

/** What a rule's findings become: left out, a note, a warning or an error. */
export const CONFIG_LEVELS = ['off', 'note', 'warning', 'error'] as const;

export const repoConfigSchema = z.strictObject({
  /** A gateway id, as `--gateway` takes it. */
  gateway: name.optional(),
  /** Inputs for every workload, by the names `hitless check --<input>` takes (max-output-tokens, tpot-ms, …). */
  inputs: z.record(z.string(), value).default(() => ({})),
  /** Inputs for the workloads an entry matches (the first entry that matches), over the inputs above. */
  workloads: z.array(z.strictObject({ match, inputs: z.record(z.string(), value) })).default(() => []),
  /** A rule's findings at another severity, or off. */
  rules: z.record(z.string(), z.enum(CONFIG_LEVELS)).default(() => ({})),
  /** Findings of a rule shown as notes with the reason (on the workloads matched, or everywhere). */
  suppress: z
    .array(
      z.strictObject({
        rule: name,
        workload: match.optional(),
        reason: z.string().trim().min(1, 'needs a reason: why these findings do not apply here'),
      }),
    )
    .default(() => []),
});

/** A config as read, and the file it came from (for messages). */
export type RepoConfig = z.output<typeof repoConfigSchema> & { file: string };

type Match = z.output<typeof match>;

/** The labels of an object and of its pod templates. */
function labelsOf(object: ManifestObject): Record<string, unknown> {
  const own = valueAt(object.value, ['metadata', 'labels']);
  const pods = [
    ['spec', 'template', 'metadata', 'labels'],
    ['spec', 'leaderWorkerTemplate', 'leaderTemplate', 'metadata', 'labels'],
    ['spec', 'leaderWorkerTemplate', 'workerTemplate', 'metadata', 'labels'],
  ].map((path) => valueAt(object.value, path));
  return Object.assign({}, ...[...pods, own].filter(isRecord));
}

/** Whether an object is one a match names. */
function matches(m: Match, object: ManifestObject): boolean {
  if (m.name !== undefined && object.name !== m.name) return false;
  if (m.namespace !== undefined && object.namespace !== m.namespace) return false;
  if (m.kind !== undefined && object.kind !== m.kind) return false;
  if (m.labels) {
    const labels = labelsOf(object);
    if (!Object.entries(m.labels).every(([k, v]) => String(labels[k]) === v)) return false;
  }
  return true;
}

const texts = (inputs: Record<string, string | number | boolean>) =>
  Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, String(v)]));

/** The settings for every workload: the config's gateway and inputs, under the reader's. */
export function configSettings(config: RepoConfig | undefined, user: Record<string, string>): Record<string, string> {
  if (!config) return user;
  return { ...(config.gateway ? { gateway: config.gateway } : {}), ...texts(config.inputs), ...user };
}

/** The settings for one workload: its entry's inputs over the config's, the reader's over both; undefined without one. */
export function workloadSettings(
  config: RepoConfig | undefined,
  object: ManifestObject,
  user: Record<string, string>,
): Record<string, string> | undefined {
  const entry = config?.workloads.find((w) => matches(w.match, object));
  if (!config || !entry) return undefined;
  return { ...configSettings(config, {}), ...texts(entry.inputs), ...user };
}

const SEVERITY: Record<(typeof CONFIG_LEVELS)[number], Severity | undefined> = {
  off: undefined,
  note: 'info',
  warning: 'warning',
  error: 'error',
};

/** Apply the config's suppressions (notes with the reason) and rule severities to the findings. */
export function applyConfig(check: CheckContext, config: RepoConfig | undefined): void {
  if (!config) return;
  for (const entry of config.suppress) {
    const objects = entry.workload
      ? check.manifest.objects.filter((o) => matches(entry.workload!, o)).map(objectName)
      : undefined;
    for (const finding of check.findings) {
      if (finding.code !== entry.rule || finding.suppressed !== undefined) continue;
      if (objects && !objects.includes(finding.object)) continue;
      suppress(finding, config.file, entry.reason);
    }
  }
  const levels = config.rules;
  if (Object.keys(levels).length === 0) return;
  check.findings = check.findings.filter((f) => levels[f.code] !== 'off' || f.suppressed !== undefined);
  for (const finding of check.findings) {
    const level = levels[finding.code];
    const severity = level && SEVERITY[level];
    if (!severity || finding.suppressed !== undefined || finding.severity === severity) continue;
    finding.severity = severity;
    finding.message += ` (${severity === 'info' ? 'a note' : severity === 'error' ? 'an error' : 'a warning'} by ${config.file})`;
  }
}
