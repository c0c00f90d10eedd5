/** Rules on the model server's drain flag (vLLM --shutdown-timeout, Triton --exit-timeout-secs). */
import { formatSeconds as s } from '../../seconds.ts';
import { flagEdit } from '../command-line.ts';
import { formulaOf, rebase, report, type WorkloadContext } from '../context.ts';
import type { Fix } from '../findings.ts';
import { quote, type Segment } from '../path.ts';

function flagFix(ctx: WorkloadContext, flag: string, seconds: number, why: string): Fix {
  const { object, container } = ctx;
  const anchor = container.line.tokens.find((t) => t.inScript && (t.text.includes(ctx.server.id) || (ctx.server.command ?? []).includes(t.text)));
  const edit = rebase(object, flagEdit(container.line, 0, container.path, flag, String(seconds), anchor));
  edit.document = object.document;
  if (!container.line.script) edit.comment = ` ${why}`;
  return { text: `${flag}=${seconds} in the ${container.name} container's ${edit.op === 'append' ? (edit.path.at(-1) as string) : 'command line'}`, edits: [edit] };
}

/** Check the drain flag of a server that has one. */
export function checkDrainFlag(ctx: WorkloadContext): void {
  const { check, object, container, plan, server, targets: t } = ctx;
  const f = t.flag;
  if (!f) return;
  const where: Segment[] = f.use
    ? [...container.path, f.use.flag.list, f.use.flag.index]
    : [...container.path, container.line.hasArgs || !container.line.hasCommand ? 'args' : 'command'];
  const drainWhy = `drain: ${formulaOf(plan, 'drainSeconds')}`;
  if (f.now === undefined) {
    report(check, object, 'value-unreadable', 'info', where,
      `${f.flag} is ${quote(f.use?.value ?? '')}, not a whole number of seconds, so the checker cannot tell how long ${server.name} drains; it should be ${plan.drainSeconds}.`);
    return;
  }
  if (f.now === 0 && server.drain.zeroAborts) {
    report(check, object, 'drain-aborts-in-flight', 'error', where,
      `${server.name} runs ${f.use ? `with ${f.flag}=0` : `without ${f.flag}`}, so at SIGTERM it aborts every in-flight request instead of `
      + `draining (${f.use ? '0' : 'its default, 0,'} means no drain); the preStop sleep and the ${s(t.graceNow)} grace period do not help.`,
      flagFix(ctx, f.flag, f.target, drainWhy));
    return;
  }
  const how = f.use ? `drains for at most ${s(f.now)} (${f.flag}=${f.now})` : `runs without ${f.flag}, so it drains for only its default ${s(f.now)}`;
  if (f.now < plan.maxRequestSeconds) {
    report(check, object, 'drain-flag-too-short', 'error', where,
      `${server.name} ${how} and then ends what is still running, but requests can take ${s(plan.maxRequestSeconds)}: long requests are cut at every rollout.`,
      flagFix(ctx, f.flag, f.target, drainWhy));
  } else if (f.now < plan.drainSeconds) {
    report(check, object, 'drain-flag-too-short', 'warning', where,
      `${server.name} ${how}: that covers the ${s(plan.maxRequestSeconds)} longest request but not the ${s(plan.drainSeconds)} drain budget `
      + `(${formulaOf(plan, 'drainSeconds')}), so a request slower than the estimate is cut.`,
      flagFix(ctx, f.flag, f.target, drainWhy));
  } else if (f.now > f.target) {
    report(check, object, 'drain-flag-exceeds-grace', 'warning', where,
      `${f.flag}=${f.now} lets ${server.name} drain past SIGKILL: the ${s(t.graceTarget)} grace period leaves ${s(f.target)} after the `
      + `${s(t.preStopTarget)} preStop sleep and ${s(plan.teardownSeconds)} teardown, so the kubelet, not the server, ends the last requests and the teardown is cut.`,
      flagFix(ctx, f.flag, f.target, `${s(t.graceTarget)} grace - ${s(t.preStopTarget)} preStop - ${s(plan.teardownSeconds)} teardown`));
  }
}
