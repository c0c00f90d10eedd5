/**
 * The fix for a model server's drain flag (vLLM --shutdown-timeout, Triton --exit-timeout-secs), shared by the drain-flag
 * rules. The flag is written only into the server's own invocation and only for an image whose release has it
 * (releases.ts); anything less certain is a manual fix that says exactly what to add and where.
 */
import { drainFlagAt, imageRelease, isServerImage } from '../../../facts/releases.ts';
import { CHECK_RENDERED_POD } from '../../workload/locate.ts';
import { containersOf } from '../../workload/pod.ts';
import { computeTargets } from '../../workload/targets.ts';
import { formulaOf, type WorkloadContext } from '../context.ts';
import { manualFix, type Fix, type Severity } from '../findings.ts';
import type { Verdict } from '../rule.ts';
import { quote, type Segment } from '../../read/path.ts';
import { findInvocation, flagEdit, invocationText } from '../../workload/server-invocation.ts';
import { fileName } from '../../workload/script-file.ts';

/** Where the flag goes, in words: "the vllm container's args", "the vllm statement of the container's script". */
function placeOf(ctx: WorkloadContext): string {
  const { container, invocation } = ctx;
  if (invocation?.found && invocation.how === 'file' && container.line.file)
    return `the end of the \u2018${invocationText(invocation)} \u2026\u2019 command in ${fileName(container.line.file)}`;
  if (invocation?.found && invocation.how === 'script')
    return `the end of the \u2018${invocationText(invocation)} \u2026\u2019 command in the ${container.name} container's script`;
  return `the ${container.name} container's ${container.line.hasArgs || !container.line.hasCommand ? 'args' : 'command'}`;
}

/** The fix for the flag: an edit when the invocation is found and the release has the flag, else what to do by hand. */
export function flagFix(ctx: WorkloadContext, flag: string, seconds: number, why: string): Fix {
  const { object, container, server, invocation } = ctx;
  const release = workloadRelease(ctx);
  const at = drainFlagAt(server, release);
  const setting = `${flag}=${seconds}`;
  // The flag already written is changed, not added a second time.
  const act = ctx.targets.flag?.use ? `set ${setting} in` : `add ${setting} to`;
  // Seconds worked out from huge values (a preStop near int64's end) lose their units in a double, and can come out
  // negative; a negative drain aborts the in-flight requests or stops the server at start: never written.
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    return manualFix(
      `the checker worked out ${setting}, which is no drain a server accepts, from values too large to add exactly; bring the grace period and preStop into a real range, then check again.`,
    );
  }
  if (at.kind === 'too-old') {
    return manualFix(
      `${server.name} ${release} predates ${flag} (first in ${at.since}), and an unknown option stops the server at start. `
        + `Move the image to ${at.since} or later, then ${act} ${placeOf(ctx)}.`,
    );
  }
  if (at.kind === 'unknown-release') {
    return manualFix(
      `the image tag ${quote(container.image)} names no ${server.name} release, so the checker cannot tell that it has ${flag} `
        + `(first in ${at.since ?? 'a release the data does not name'}). On such a release, ${act} ${placeOf(ctx)}; on an older one, move the image first.`,
    );
  }
  // A KServe LLMInferenceService container that writes neither command nor args runs the preset's (the controller
  // merges the CR's container over the preset's of the same name, and a list such as args is replaced whole): args
  // written here would drop the preset's own arguments, so the checker cannot write the flag where it belongs.
  if (ctx.workload.kind === 'LLMInferenceService' && !container.line.hasCommand && !container.line.hasArgs) {
    return manualFix(
      `the ${container.name} container takes its command and args from the controller's preset, and an args list written here `
        + `would replace the preset's. Add ${setting} to the server's command line where the preset lets you extend it, then check `
        + `the rendered pod (${CHECK_RENDERED_POD}).`,
    );
  }
  if (!invocation?.found) {
    return manualFix(
      `${act} the command that starts ${server.name} in the ${container.name} container; the checker did not edit it because ${invocation?.reason ?? 'it found no invocation'}.`,
    );
  }
  const written = flagEdit(container.line, invocation, container.path, flag, String(seconds));
  if (!written.ok)
    return manualFix(
      `set ${setting} ${placeOf(ctx).startsWith('the end') ? 'at' : 'in'} ${placeOf(ctx)}; the checker did not edit it because ${written.reason}.`,
    );
  const edit = { ...written.edit, document: object.document, path: [...object.base, ...written.edit.path] };
  if (invocation.how !== 'script') edit.comment = ` ${why}`;
  return { text: `${setting} in ${placeOf(ctx)}`, edits: [edit] };
}

/** The server's release: model-server-version when given (for an image whose tag names none), else the image's tag. */
export function workloadRelease(ctx: WorkloadContext): string | undefined {
  if (ctx.plan.modelServerReleaseSource === 'given' && ctx.plan.modelServerRelease !== null)
    return ctx.plan.modelServerRelease;
  return imageRelease(ctx.server, ctx.container.image);
}

/** Why the drain flag's fix writes the plan's drain: its formula. */
export function drainWhy(ctx: WorkloadContext): string {
  return `drain: ${formulaOf(ctx.plan, 'drainSeconds')}`;
}

/** Where a drain-flag finding points: the flag where it is set, else the args (or command) it belongs in. */
export function flagPath(ctx: WorkloadContext): Segment[] {
  const { container } = ctx;
  const use = ctx.targets.flag?.use;
  return use
    ? [...container.path, use.flag.list, use.flag.index]
    : [...container.path, container.line.hasArgs || !container.line.hasCommand ? 'args' : 'command'];
}

/** The drain flag's setting when the invocation is found and its value read; undefined otherwise. */
export function readFlag(ctx: WorkloadContext) {
  const f = ctx.targets.flag;
  return f?.invocation.found && f.now !== undefined ? { ...f, now: f.now } : undefined;
}

/**
 * The model-server container's context, then one for each other container of the pod that runs the same server
 * (its image is the server's own, or its command starts it): each drains on its own flag, so each is checked and
 * fixed. A server the checker does not know has no flag to check.
 */
export function serverContainers(ctx: WorkloadContext): WorkloadContext[] {
  if (!ctx.serverKnown) return [ctx];
  const out = [ctx];
  for (const c of containersOf(ctx.workload.serving)) {
    if (c.index === ctx.container.index) continue;
    const image = isServerImage(ctx.server, c.image);
    const invocation = findInvocation(c.line, ctx.server, image);
    if (!image && !(invocation.found && invocation.how !== 'entrypoint')) continue;
    const targets = computeTargets(c, ctx.workload.serving.spec, ctx.server, invocation, ctx.plan);
    out.push({ ...ctx, container: c, invocation, targets });
  }
  return out;
}

/** A drain-flag verdict on one of the pod's server containers (see `serverContainers`). */
export interface OnContainer extends Verdict {
  at: WorkloadContext;
}

/** A verdict on the flag of container `at`; its message names the container when it is not the pod's first server. */
export function onContainer(
  first: WorkloadContext,
  at: WorkloadContext,
  severity: Severity,
  message: string,
): OnContainer {
  return {
    severity,
    at,
    path: flagPath(at),
    message: at === first ? message : `In the ${at.container.name} container: ${message}`,
  };
}

/** The drain flag's fix in the container a verdict is about. */
export function fixOnContainer(_ctx: WorkloadContext, verdict: OnContainer): Fix | undefined {
  const f = readFlag(verdict.at);
  return f && flagFix(verdict.at, f.flag, f.target, drainWhy(verdict.at));
}
