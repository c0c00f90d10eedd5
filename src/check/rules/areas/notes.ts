/** Notes that are not rules about drain values: ignored objects, skipped workloads, and the plan's own warnings. */
import type { WarningCode } from '../../../model/warnings.ts';
import { objectName, report, type CheckContext, type WorkloadContext } from '../context.ts';
import { drainFlagAt } from '../../../facts/releases.ts';
import { imageRelease } from '../../workload/identify-server.ts';
import { readKinds, UNREAD_SERVING_KINDS } from '../../workload/locate.ts';
import type { Segment } from '../../read/path.ts';

/** Where a plan warning points in the workload; warnings not listed are about the settings as a whole. */
const WARNING_PATHS: Partial<Record<WarningCode, (ctx: WorkloadContext) => Segment[]>> = {
  'single-replica-outage': () => ['spec', 'replicas'],
  'drain-fixed-shorter': (ctx) => ctx.container.path,
  'no-drain': (ctx) => ctx.container.path,
  'drain-unbounded-server': (ctx) => ctx.container.path,
  'drain-flag-min-version': (ctx) => [...ctx.container.path, 'image'],
  'drain-flag-too-old': (ctx) => [...ctx.container.path, 'image'],
  'drain-flag-release-unknown': (ctx) => [...ctx.container.path, 'image'],
  'exec-sleep': (ctx) => [...ctx.container.path, 'lifecycle'],
};

/** Objects that belong beside a model-server workload and carry nothing the checker reads: no note for them. */
const COMPANION_KINDS: ReadonlySet<string> = new Set(['policy/v1 PodDisruptionBudget']);

/** Plan warnings about whether the image's release has the drain flag. */
const DRAIN_FLAG_RELEASE: ReadonlySet<WarningCode> = new Set([
  'drain-flag-min-version',
  'drain-flag-too-old',
  'drain-flag-release-unknown',
]);

/** Plan warnings the checker states as rules of its own, with a path and a fix. */
const RESTATED: ReadonlySet<WarningCode> = new Set(['liveness-faster-than-readiness']);

/** Pass on the plan's warnings for a workload: about the workload where they have a place, else once for the settings. */
export function planNotes(ctx: WorkloadContext, seen: Set<string>): void {
  for (const warning of ctx.plan.warnings) {
    if (RESTATED.has(warning.code)) continue;
    // About the drain flag of the server the plan assumes: only for a workload whose server the checker knows.
    if (DRAIN_FLAG_RELEASE.has(warning.code) && !ctx.serverKnown) continue;
    if (warning.code === 'drain-flag-min-version') {
      const release = imageRelease(ctx.server, ctx.container.image);
      const at = drainFlagAt(ctx.server, release);
      if (at.kind === 'available' || at.kind === 'no-flag') continue;
      if (at.kind === 'too-old') {
        report(
          ctx.check,
          ctx.object,
          warning.code,
          'warning',
          WARNING_PATHS[warning.code]!(ctx),
          `The image is ${ctx.server.name} ${release}, older than ${at.since}, the first release expected to have ${at.flag}: ${warning.message}`,
        );
        continue;
      }
    }
    const where = WARNING_PATHS[warning.code];
    if (warning.code === 'drain-unbounded-server') {
      // The plan's message names the plan's grace period; the manifest's (as fixed) is the one that bounds this drain.
      report(
        ctx.check,
        ctx.object,
        warning.code,
        warning.severity,
        where!(ctx),
        `${ctx.server.name} drains until no request remains; terminationGracePeriodSeconds (${ctx.targets.graceTarget}s) is the only bound.`,
      );
    } else if (where) {
      report(ctx.check, ctx.object, warning.code, warning.severity, where(ctx), warning.message);
    } else if (!seen.has(`${warning.code}\n${warning.message}`)) {
      seen.add(`${warning.code}\n${warning.message}`);
      report(ctx.check, undefined, warning.code, warning.severity, [], warning.message);
    }
  }
}

/** Notes about objects the checker ignores and documents that hold no object. */
export function objectNotes(check: CheckContext): void {
  const byKind = new Map<string, typeof check.located.ignored>();
  for (const object of check.located.ignored) {
    // The generator writes a PodDisruptionBudget beside the Deployment; it holds no drain setting to check.
    if (COMPANION_KINDS.has(`${object.apiVersion} ${object.kind}`)) continue;
    const key = `${object.apiVersion} ${object.kind}`;
    byKind.set(key, [...(byKind.get(key) ?? []), object]);
  }
  for (const objects of byKind.values()) {
    const first = objects[0];
    const servedBy = UNREAD_SERVING_KINDS[first.kind];
    if (servedBy) {
      const names =
        objects.slice(0, 3).map(objectName).join(', ') + (objects.length > 3 ? ` and ${objects.length - 3} more` : '');
      report(
        check,
        first,
        'serving-kind-unread',
        'warning',
        ['kind'],
        `${names} ${objects.length === 1 ? 'is a' : 'are'} ${servedBy} ${first.kind}${objects.length === 1 ? '' : 's'}, which the checker cannot read: its controller builds the pods from its own defaults, `
          + 'so nothing here was checked. Check the Deployment or pod template it renders (kubectl get deploy -o yaml) instead.',
      );
      continue;
    }
    const names =
      objects.slice(0, 3).map(objectName).join(', ') + (objects.length > 3 ? ` and ${objects.length - 3} more` : '');
    const kinds = readKinds(check.profiles);
    const known = kinds.includes(first.kind);
    report(
      check,
      first,
      'unknown-kind',
      'info',
      ['kind'],
      known
        ? `Ignored ${names}: the checker reads ${first.kind} only in its usual API group, not ${first.apiVersion || 'an empty apiVersion'}, or it has no pod template.`
        : `Ignored ${names}: the checker reads ${kinds.join(', ')}.`,
    );
  }
  for (const [document, what] of check.manifest.strays) {
    const start = check.manifest.documents[document]?.range[0];
    const line = start === undefined ? undefined : check.manifest.lineCounter.linePos(start).line;
    check.findings.push({
      code: 'unknown-kind',
      severity: 'info',
      object: '',
      document: document + 1,
      path: '',
      line,
      message: `Document ${document + 1} is ${what}; it was ignored.`,
      remedy: 'manual',
    });
  }
}
