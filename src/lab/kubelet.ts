/**
 * The kubelet and control-plane stand-in. At the deletion it starts, in parallel: the gateway's
 * removal (after the removal delay, a runtime-API command that takes the pod out of HAProxy; none for
 * a health-check-only gateway) and the pod's termination (preStop, SIGTERM, SIGKILL at the times
 * kubelet-rules.ts gives). It also brings a replacement pod into rotation for rolling updates.
 */
import { writeFileSync } from 'node:fs';
import { BACKEND } from './haproxy-config.ts';
import { runtime } from './haproxy.ts';
import { terminationTimes } from './kubelet-rules.ts';
import type { Pod } from './pods.ts';
import type { LabResources } from './processes.ts';
import { toModelSeconds, toWallMs } from './scale.ts';
import type { LabSetup } from './setup.ts';

/** A timeline event, in model seconds after the deletion. */
export interface LabEvent {
  at: number;
  what: string;
}

/** Records events relative to the deletion time. */
export class EventLog {
  readonly events: LabEvent[] = [];
  private readonly deletionAt: number;
  constructor(deletionAt: number) {
    this.deletionAt = deletionAt;
  }
  /** Record an event now, or at the given wall time. */
  add(what: string, wallTime: number = performance.now()): void {
    this.events.push({ at: Math.round(toModelSeconds(wallTime - this.deletionAt) * 100) / 100, what });
  }
}

/** Wait until a performance.now() time; timers may fire up to 1 ms early, so wait again (at most twice more). */
async function sleepUntil(wallTime: number): Promise<void> {
  for (let i = 0; i < 3 && performance.now() < wallTime; i++) {
    await new Promise((r) => setTimeout(r, Math.max(1, Math.ceil(wallTime - performance.now()))));
  }
}

/** Delete a pod: removal push and termination in parallel; resolves once the pod's process is gone. */
export async function deletePod(
  resources: LabResources,
  setup: LabSetup,
  pod: Pod,
  socket: string,
  drainFile: string,
  log: EventLog,
  deletionAt: number,
): Promise<void> {
  await sleepUntil(deletionAt);
  log.add('pod deleted', deletionAt);
  const times = terminationTimes(setup.preStopSeconds, setup.graceSeconds);
  let gone = false;
  void pod.exited.then((exit) => {
    gone = true;
    log.add(exit.signal === 'SIGKILL' ? 'pod killed' : 'pod exited', exit.at);
  });
  const push = (async () => {
    if (setup.pushSeconds === null) return;
    await sleepUntil(deletionAt + toWallMs(setup.pushSeconds));
    await runtime(socket, `set server ${BACKEND}/${pod.name} state ${setup.pushState}`);
    log.add(setup.mechanism === 'epp-only' ? 'Endpoint Picker drops the pod' : 'endpoint removed');
    if (setup.gatewayDrainingSeconds === null) return;
    // The gateway's connection draining: requests still on the pod after this long are closed.
    const closeAt = deletionAt + toWallMs(setup.pushSeconds + setup.gatewayDrainingSeconds);
    await Promise.race([pod.exited, sleepUntil(closeAt)]);
    if (gone) return;
    await runtime(socket, `shutdown sessions server ${BACKEND}/${pod.name}`);
    log.add('gateway draining timeout: sessions closed');
  })();
  // Awaited at the end; until then this keeps a failure of the push (HAProxy's runtime API slow to answer on a busy
  // machine) from being an unhandled rejection, which ends the whole lab instead of failing this run.
  push.catch(() => {});
  if (setup.preStopSeconds > 0) {
    if (setup.preStopFailsHealth) {
      writeFileSync(drainFile, 'draining\n');
      log.add('preStop: health check fails');
    }
    await sleepUntil(deletionAt + toWallMs(times.preStopEnd));
    log.add(times.preStopCut ? 'preStop cut at grace' : 'preStop ends');
  }
  if (!gone) {
    resources.signal(pod.pid, 'SIGTERM');
    log.add('SIGTERM');
  }
  const killAt = deletionAt + toWallMs(times.sigkill);
  await Promise.race([pod.exited, sleepUntil(killAt)]);
  if (!gone) {
    resources.signal(pod.pid, 'SIGKILL');
    log.add('SIGKILL');
    await Promise.race([pod.exited, sleepUntil(killAt + 2000)]);
  }
  await push;
}

/** Point the spare slot at a started replacement and put it into rotation once its health check passes. */
export async function admitReplacement(
  socket: string,
  slot: string,
  pod: Pod,
  healthy: Promise<boolean>,
  log: EventLog,
): Promise<void> {
  await runtime(socket, `set server ${BACKEND}/${slot} addr 127.0.0.1 port ${pod.port}`);
  if (!(await healthy)) throw new Error(`replacement ${slot} never became healthy`);
  await runtime(socket, `set server ${BACKEND}/${slot} state ready`);
  log.add('replacement ready');
}
