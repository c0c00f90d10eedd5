/**
 * Rules on the model server's drain flag (vLLM --shutdown-timeout, Triton --exit-timeout-secs). The flag is
 * written only into the server's own invocation and only for an image whose release has it (releases.ts);
 * anything less certain is a manual fix that says exactly what to add and where.
 */
import { drainFlagAt } from '../../../facts/releases.ts';
import { imageRelease } from '../../workload/identify-server.ts';
import { formatSeconds as s } from '../../../model/seconds.ts';
import { formulaOf, rebase, report, type WorkloadContext } from '../context.ts';
import type { Fix } from '../findings.ts';
import { quote, type Segment } from '../../read/path.ts';
import { flagEdit } from '../../workload/server-invocation.ts';

/** Where the flag goes, in words: "the vllm container's args", "the vllm statement of the container's script". */
function placeOf(ctx: WorkloadContext): string {
  const { container, invocation } = ctx;
  if (invocation?.found && invocation.how === 'script') {
    const words = invocation.words
      .slice(invocation.words[0].text === 'exec' ? 1 : 0, invocation.argsFrom)
      .map((w) => w.text)
      .join(' ');
    return `the end of the \u2018${words} \u2026\u2019 command in the ${container.name} container's script`;
  }
  return `the ${container.name} container's ${container.line.hasArgs || !container.line.hasCommand ? 'args' : 'command'}`;
}

/** The fix for the flag: an edit when the invocation is found and the release has the flag, else what to do by hand. */
function flagFix(ctx: WorkloadContext, flag: string, seconds: number, why: string): Fix {
  const { object, container, server, invocation } = ctx;
  const release = imageRelease(server, container.image);
  const at = drainFlagAt(server, release);
  const setting = `${flag}=${seconds}`;
  if (at.kind === 'too-old') {
    return {
      text:
        `Manual: ${server.name} ${release} predates ${flag} (first in ${at.since}), and an unknown option stops the server at start. `
        + `Move the image to ${at.since} or later, then add ${setting} to ${placeOf(ctx)}.`,
      edits: [],
    };
  }
  if (at.kind === 'unknown-release') {
    return {
      text:
        `Manual: the image tag ${quote(container.image)} names no ${server.name} release, so the checker cannot tell that it has ${flag} `
        + `(first in ${at.since ?? 'a release the data does not name'}). On such a release, add ${setting} to ${placeOf(ctx)}; on an older one, move the image first.`,
      edits: [],
    };
  }
  if (!invocation?.found) {
    return {
      text: `Manual: add ${setting} to the command that starts ${server.name} in the ${container.name} container; the checker did not edit it because ${invocation?.reason ?? 'it found no invocation'}.`,
      edits: [],
    };
  }
  const written = flagEdit(container.line, invocation, container.path, flag, String(seconds));
  if (!written.ok)
    return {
      text: `Manual: set ${setting} in ${placeOf(ctx)}; the checker did not edit it because ${written.reason}.`,
      edits: [],
    };
  const edit = rebase(object, written.edit);
  edit.document = object.document;
  if (invocation.how !== 'script') edit.comment = ` ${why}`;
  return { text: `${setting} in ${placeOf(ctx)}`, edits: [edit] };
}

/** Check the drain flag of a server that has one. */
export function checkDrainFlag(ctx: WorkloadContext): void {
  const { check, object, container, plan, server, targets: t } = ctx;
  const f = t.flag;
  if (!f) return;
  const drainWhy = `drain: ${formulaOf(plan, 'drainSeconds')}`;
  if (!f.invocation.found) {
    report(
      check,
      object,
      'server-invocation-unknown',
      server.drain.zeroAborts ? 'warning' : 'info',
      [...container.path, container.line.hasCommand ? 'command' : 'image'],
      `The checker cannot find the command that starts ${server.name} in the ${container.name} container (${f.invocation.reason}), so it cannot tell whether ${f.flag} is set`
        + `${server.drain.zeroAborts ? `; without it ${server.name} aborts every in-flight request at SIGTERM` : ''}.`,
      flagFix(ctx, f.flag, plan.drainSeconds, drainWhy),
    );
    return;
  }
  const where: Segment[] = f.use
    ? [...container.path, f.use.flag.list, f.use.flag.index]
    : [...container.path, container.line.hasArgs || !container.line.hasCommand ? 'args' : 'command'];
  if (f.now === undefined) {
    report(
      check,
      object,
      'value-unreadable',
      'info',
      where,
      `${f.flag} is ${quote(f.use?.valueToken?.text ?? f.use?.value ?? '')}, not a whole number of seconds the checker can read, so it cannot tell how long ${server.name} drains; it should be ${plan.drainSeconds}.`,
    );
    return;
  }
  if (f.now === 0 && server.drain.zeroAborts) {
    report(
      check,
      object,
      'drain-aborts-in-flight',
      'error',
      where,
      `${server.name} runs ${f.use ? `with ${f.flag}=0` : `without ${f.flag}`}, so at SIGTERM it aborts every in-flight request instead of `
        + `draining (${f.use ? '0' : 'its default, 0,'} means no drain); the preStop sleep and the ${s(t.graceNow)} grace period do not help.`,
      flagFix(ctx, f.flag, f.target, drainWhy),
    );
    return;
  }
  const how = f.use
    ? `drains for at most ${s(f.now)} (${f.flag}=${f.now})`
    : `runs without ${f.flag}, so it drains for only its default ${s(f.now)}`;
  if (f.now < plan.maxRequestSeconds) {
    report(
      check,
      object,
      'drain-flag-too-short',
      'error',
      where,
      `${server.name} ${how} and then ends what is still running, but requests can take ${s(plan.maxRequestSeconds)}: long requests are cut at every rollout.`,
      flagFix(ctx, f.flag, f.target, drainWhy),
    );
  } else if (f.now < plan.drainSeconds) {
    report(
      check,
      object,
      'drain-flag-too-short',
      'warning',
      where,
      `${server.name} ${how}: that covers the ${s(plan.maxRequestSeconds)} longest request but not the ${s(plan.drainSeconds)} drain budget `
        + `(${formulaOf(plan, 'drainSeconds')}), so a request slower than the estimate is cut.`,
      flagFix(ctx, f.flag, f.target, drainWhy),
    );
  } else if (f.now > f.target) {
    report(
      check,
      object,
      'drain-flag-exceeds-grace',
      'warning',
      where,
      `${f.flag}=${f.now} lets ${server.name} drain past SIGKILL: the ${s(t.graceTarget)} grace period leaves ${s(f.target)} after the `
        + `${s(t.preStopTarget)} preStop sleep and ${s(plan.teardownSeconds)} teardown, so the kubelet, not the server, ends the last requests and the teardown is cut.`,
      flagFix(
        ctx,
        f.flag,
        f.target,
        `${s(t.graceTarget)} grace - ${s(t.preStopTarget)} preStop - ${s(plan.teardownSeconds)} teardown`,
      ),
    );
  }
}
