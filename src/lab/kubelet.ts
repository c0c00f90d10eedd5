/**
 * The kubelet and control-plane stand-in. At the deletion it starts, in parallel: the gateway's
 * removal (after the removal delay, the data plane takes the pod out: a runtime-API command to HAProxy,
 * an upstream rewritten and reloaded in nginx; none for a health-check-only gateway) and the pod's
 * termination (preStop, SIGTERM, SIGKILL at the times kubelet-rules.ts gives).
 */
import { writeFileSync } from 'node:fs';
import { terminationTimes } from './kubelet-rules.ts';
import type { Pod } from './pods.ts';
import type { LabResources } from './processes.ts';
import type { DataPlane } from './proxy.ts';
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
  proxy: DataPlane,
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
    await proxy.remove(pod.name, setup.pushState);
    log.add(setup.mechanism === 'epp-only' ? 'Endpoint Picker drops the pod' : 'endpoint removed');
    // nginx closes them itself: its old workers stop at worker_shutdown_timeout after the reload.
    const closeSessions = proxy.closeSessions;
    if (setup.gatewayDrainingSeconds === null || closeSessions === null) return;
    // The gateway's connection draining: requests still on the pod after this long are closed.
    const closeAt = deletionAt + toWallMs(setup.pushSeconds + setup.gatewayDrainingSeconds);
    await Promise.race([pod.exited, sleepUntil(closeAt)]);
    if (gone) return;
    await closeSessions(pod.name);
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
