/**
 * shell-swallows-sigterm: the container's PID 1 is a shell running a `-c` script that starts the model server
 * without `exec`. The kubelet's SIGTERM goes to PID 1; a shell waiting on a child does not pass it on, so the
 * server never starts its drain and is killed at the end of the grace period.
 *
 * Except where bash replaces itself: `bash -c` runs the last command of its string without a fork when it is a simple
 * command, with no redirection, not negated, and no trap set (bash's `should_suppress_fork`, builtins/evalstring.c,
 * the same at the bash-4.4, bash-5.0 and bash-5.2 tags: https://github.com/bminor/bash/blob/bash-5.2/builtins/evalstring.c),
 * so the server is PID 1 and gets SIGTERM. `sh` is not relied on: it is dash on Debian and Ubuntu images, which
 * forks for the last command too (dash 0.5.12, tried), and bash on RHEL and UBI images; the checker cannot tell which
 * an image has, so where bash would replace itself the finding is a warning, not an error. `exec` is right for both.
 */
import type { WorkloadContext } from '../context.ts';
import { defineRule, type Verdict } from '../rule.ts';
import { manualFix, type Fix } from '../findings.ts';
import { fileName } from '../../workload/script-file.ts';
import type { ScriptCall } from '../../workload/shell/parse-script.ts';
import { invocationText } from '../../workload/server-invocation.ts';
import { keepsAlive } from '../../workload/command-line.ts';
import { entrypointForks, imageRelease, releaseInImageName } from '../../../facts/releases.ts';

export const rule = defineRule({
  code: 'shell-swallows-sigterm',
  order: 370,
  scope: 'workload',
  severity: {
    error:
      'the shell forks for the server whatever it is, or PID 1 ends by only keeping the container alive (tail -f, sleep infinity) while the server runs in the background',
    warning: 'sh, where bash as /bin/sh would replace itself with the server and dash would fork',
  },
  summary:
    'A shell is PID 1 and starts the model server without exec (or in the background, then keeps the container alive with tail -f), so SIGTERM never reaches the server.',
  remediation: 'Start the server with exec as the script\u2019s last command, or forward SIGTERM with a trap.',
  remedy: 'applied',
  check: (ctx): (Verdict & { planned?: Fix })[] => {
    const inImage = imageForks(ctx);
    if (inImage) return [inImage];
    const parked = keepAlive(ctx);
    if (parked) return [parked];
    const inFile = fileExecless(ctx);
    if (inFile) return [inFile];
    const found = execless(ctx);
    if (!found) return [];
    const { container, server } = ctx;
    return [
      {
        severity: found.bashWouldExec ? 'warning' : 'error',
        path: found.path,
        message: found.bashWouldExec
          ? `${found.script.shell} is PID 1 of the ${container.name} container and starts ${server.name} without exec as its last command. `
            + `Where ${found.script.shell} is dash (Debian and Ubuntu images) it forks: SIGTERM reaches the shell, not ${server.name}, so the server never drains `
            + 'and is killed when the grace period ends. Where it is bash (RHEL and UBI images) it replaces itself with the command. '
            + 'The checker cannot tell which the image has; exec is right for both.'
          : `${found.script.shell} is PID 1 of the ${container.name} container and starts ${server.name} without exec: SIGTERM reaches the shell, not ${server.name}, `
            + 'so the server never drains and is killed when the grace period ends.',
      },
    ];
  },
  fix: (ctx, verdict) => {
    if (verdict.planned) return verdict.planned;
    const found = execless(ctx);
    if (!found) return undefined;
    const { call, script, first, path } = found;
    if (call.lastAlone && !call.piped && !call.background && !script.parsed.traps && first.editable) {
      return {
        text: `exec ${first.text} \u2026 (the script\u2019s last command replaces the shell)`,
        edits: [
          {
            op: 'splice',
            document: ctx.object.document,
            path: [...ctx.object.base, ...path],
            value: 'exec ',
            start: first.start,
            end: first.start,
          },
        ],
      };
    }
    const why = !first.editable
      ? `its first word comes from a $(VAR) the kubelet puts in place`
      : call.background
        ? 'it runs in the background'
        : call.piped
          ? 'it is part of a pipeline'
          : script.parsed.traps
            ? 'the script sets a trap'
            : 'other commands follow it';
    return manualFix(
      `make ${ctx.server.name} PID 1\u2019s direct child receive SIGTERM: start it with exec as the script\u2019s last command, or forward the signal with a trap; `
        + `the checker did not edit the script because ${why}.`,
    );
  },
});

/** The server's own call in a PID 1 shell script when it is not exec'd: the call, the script and where it is. */
function execless(ctx: WorkloadContext) {
  const { container, invocation } = ctx;
  const script = container.line.script;
  if (!script?.parsed.ok || !invocation?.found || invocation.how !== 'script' || !invocation.call) return undefined;
  const call = invocation.call;
  // An exec in a `( )` subshell replaces the subshell: the shell that runs the script stays and keeps SIGTERM.
  if (call.exec && !call.subshell) return undefined;
  const bashWouldExec =
    call.lastAlone && !call.piped && !call.background && !call.redirectedOrNegated && !script.parsed.traps;
  if (bashWouldExec && /(^|\/)bash$/.test(script.shell)) return undefined;
  return {
    bashWouldExec: bashWouldExec && /(^|\/)sh$/.test(script.shell),
    call,
    script: { ...script, parsed: script.parsed },
    first: invocation.words[0],
    path: [...container.path, script.list, script.index],
  };
}

/** A call that only keeps PID 1 alive: `tail -f FILE`, `sleep infinity` (with exec or without). */
function callKeepsAlive(call: ScriptCall): boolean {
  const words = call.words.map((w) => w.literal);
  return keepsAlive(call.exec ? words.slice(1) : words);
}

/**
 * PID 1 runs a script whose last statement only keeps the container alive (`tail -f /dev/null`, `sleep infinity`),
 * so whatever serves was started before it in the background (a launcher that returns after spawning the server):
 * the kubelet's SIGTERM goes to PID 1, which has no trap to pass it on, and the server never drains. Whatever the
 * server, known or not; the fix is by hand (the script decides how the server is started).
 */
function keepAlive(ctx: WorkloadContext): (Verdict & { planned: Fix }) | undefined {
  const { container, serverKnown, server } = ctx;
  const { script, file } = container.line;
  // The script PID 1 interprets: a ConfigMap's file it runs itself, else its `-c` string.
  const pid1File = file?.runs === 'pid1' ? file : undefined;
  const runs = pid1File?.parsed ?? script?.parsed;
  if (!runs?.ok || runs.traps) return undefined;
  const last = runs.calls.find((c) => c.lastAlone);
  if (!last || !callKeepsAlive(last)) return undefined;
  const where = pid1File ? fileName(pid1File) : `the ${container.name} container's script`;
  const named = serverKnown ? server.name : 'the model server';
  const line = last.words.map((w) => w.source).join(' ');
  return {
    severity: 'error',
    ...(pid1File
      ? { object: pid1File.configMap, path: ['data', pid1File.key] }
      : { path: [...container.path, script!.list, script!.index] }),
    message:
      `${where[0].toUpperCase()}${where.slice(1)} ends with \`${line}\`, which only keeps the container running, so ${named} runs in the background, started before it. `
      + `The kubelet's SIGTERM goes to PID 1, which passes it to no one: ${named} never drains and is killed when the grace period ends.`,
    planned: manualFix(
      `start ${named} in the foreground as the script's last command with exec (exec SERVER ARGS…), in place of ${line}; or forward SIGTERM to it with a trap and wait.`,
    ),
  };
}

/**
 * The server started by the image's own entrypoint, a shell script that runs it without exec at this release (the
 * model-server data's `entrypointForks`, read from the image's published entrypoint): the container's PID 1 is that
 * shell. Only where the container keeps the entrypoint (no `command`) and the image names its release.
 */
function imageForks(ctx: WorkloadContext): (Verdict & { planned: Fix }) | undefined {
  const { container, invocation, server } = ctx;
  if (!invocation?.found || invocation.how !== 'entrypoint' || container.value.command !== undefined) return undefined;
  const release = imageRelease(server, container.image);
  const forks = release === undefined ? undefined : entrypointForks(server, container.image, release);
  if (!forks) return undefined;
  return {
    severity: 'error',
    path: [...container.path, 'image'],
    message:
      `The entrypoint of ${container.image} (${server.name} ${release}, read from the image ${releaseInImageName(server, container.image) ? 'name' : 'tag'}) is a shell script that starts ${server.name} without exec: `
      + `the shell stays the ${container.name} container's PID 1, and the kubelet's SIGTERM goes to it, not to ${server.name}. A PID 1 without a SIGTERM handler `
      + 'does not even exit (the kernel drops the signal: pid_namespaces(7)), so the server never drains and everything is killed when the grace period ends.',
    planned: manualFix(
      `move to the ${forks.until} or later build of this image, whose entrypoint execs ${server.name}, `
        + `or set the ${container.name} container's command to the server itself so that it is PID 1 (the entrypoint's own steps are then skipped: check what it does first).`,
    ),
  };
}

/**
 * The server started from a script file (a ConfigMap's, script-file.ts) so that SIGTERM does not reach it: the file
 * starts it without exec (a script file is not a `-c` string: its shell forks for the last command too), or execs it
 * from a script that PID 1 runs in a child process, or as a last command only some shells replace themselves with.
 */
function fileExecless(ctx: WorkloadContext): (Verdict & { planned: Fix }) | undefined {
  const { container, invocation, server } = ctx;
  const file = container.line.file;
  if (!file?.parsed.ok || file.parsed.traps || !invocation?.found || invocation.how !== 'file' || !invocation.call)
    return undefined;
  const call = invocation.call;
  const execd = call.exec && !call.subshell && !call.piped && !call.background;
  if (execd && file.runs === 'pid1') return undefined;
  const named = fileName(file);
  const command = invocationText(invocation);
  const script = container.line.script;
  const runner = script ? [...container.path, script.list, script.index] : [...container.path, 'command'];
  if (!execd)
    return {
      severity: 'error',
      object: file.configMap,
      path: ['data', file.key],
      message:
        `${named[0].toUpperCase()}${named.slice(1)}, which the ${container.name} container runs, starts ${server.name} (${command} \u2026) without exec: the shell reading the script `
        + `waits on it, and the kubelet's SIGTERM goes to the container's PID 1, not to ${server.name}, so the server never drains and is killed when the grace period ends.`,
      planned: manualFix(
        `start ${server.name} with exec in ${named} (exec ${command} \u2026 as its last command), and run the script with exec from the container's command; the checker does not edit a ConfigMap other workloads may share.`,
      ),
    };
  return {
    severity: file.runs === 'maybe' ? 'warning' : 'error',
    path: runner,
    message:
      file.runs === 'maybe'
        ? `${named} execs ${server.name}, and the ${container.name} container's ${script?.shell ?? 'shell'} runs the script as its last command: bash 5.2 `
          + '(and bash as /bin/sh, for a lone last command) replaces itself with it, while dash and older bash fork, leaving SIGTERM at PID 1. '
          + 'The checker cannot tell which shell the image has; exec is right for both.'
        : `${named[0].toUpperCase()}${named.slice(1)} execs ${server.name}, but the ${container.name} container's PID 1 runs the script in a child process: the kubelet's SIGTERM goes to PID 1, `
          + `not to ${server.name}, so the server never drains and is killed when the grace period ends.`,
    planned: manualFix(
      `run ${file.path} with exec as the last command of the ${container.name} container's script, so that ${server.name} becomes PID 1.`,
    ),
  };
}
