/**
 * shell-swallows-sigterm: the container's PID 1 is a shell running a `-c` script that starts the model server
 * without `exec`. The kubelet's SIGTERM goes to PID 1; a shell waiting on a child does not pass it on, so the
 * server never starts its drain and is killed at the end of the grace period. Whether a shell replaces itself
 * with the last command of its script on its own depends on the shell and its version, so the checker does not
 * rely on it.
 */
import { report, type WorkloadContext } from '../context.ts';
import type { Fix } from '../findings.ts';

/** Check that the server's own invocation in a PID 1 shell script is exec'd. */
export function checkShellPid1(ctx: WorkloadContext): void {
  const { check, object, container, invocation, server } = ctx;
  const script = container.line.script;
  if (!script?.parsed.ok || !invocation?.found || invocation.how !== 'script' || !invocation.call) return;
  const call = invocation.call;
  if (call.exec) return;
  const first = invocation.words[0];
  const path = [...container.path, script.list, script.index];
  const certain = call.lastAlone && !call.piped && !call.background && !script.parsed.traps;
  let fix: Fix;
  if (certain) {
    fix = {
      text: `exec ${first.text} \u2026 (the script\u2019s last command replaces the shell)`,
      edits: [
        {
          op: 'splice',
          document: object.document,
          path: [...object.base, ...path],
          value: 'exec ',
          start: first.start,
          end: first.start,
        },
      ],
    };
  } else {
    const why = call.background
      ? 'it runs in the background'
      : call.piped
        ? 'it is part of a pipeline'
        : script.parsed.traps
          ? 'the script sets a trap'
          : 'other commands follow it';
    fix = {
      text:
        `Manual: make ${server.name} PID 1\u2019s direct child receive SIGTERM: start it with exec as the script\u2019s last command, or forward the signal with a trap; `
        + `the checker did not edit the script because ${why}.`,
      edits: [],
    };
  }
  report(
    check,
    object,
    'shell-swallows-sigterm',
    'error',
    path,
    `${script.shell} is PID 1 of the ${container.name} container and starts ${server.name} without exec: SIGTERM reaches the shell, not ${server.name}, `
      + 'so the server never drains and is killed when the grace period ends.',
    fix,
  );
}
