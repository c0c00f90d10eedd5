/**
 * One run of one scenario: three stand-in pods behind a real HAProxy or nginx, steady seeded load, the
 * deletion of pod1 by the kubelet stand-in (and, in a rolling update, a replacement pod4), then
 * every request classified. Everything started here is stopped by PID in `finally`.
 */
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { zeroCounts, type Outcome } from './classify.ts';
import { startDataPlane } from './data-plane.ts';
import { deletePod, EventLog, type LabEvent } from './kubelet.ts';
import { LAG_NOISE_MS, startLagMonitor } from '../verify/lag.ts';
import { buildSchedule } from './load-mix.ts';
import { runLoad, type RequestRecord } from './load.ts';
import { startPod, waitHealthy } from './pods.ts';
import type { LabResources } from './processes.ts';
import { toModelSeconds, toWallMs } from './scale.ts';
import { LAB_STARTUP_SECONDS, type LabSetup } from './setup.ts';
import type { RunShape } from './shape.ts';

export interface RunResult {
  seed: number;
  counts: Record<Outcome, number>;
  lost: number;
  /** True when a host stall (event-loop lag) may have shifted the timings. */
  noisy: boolean;
  maxLagMs: number;
  wallMs: number;
  events: LabEvent[];
  records: RequestRecord[];
  /** The deleted pod's log lines, model seconds after the deletion. */
  podLog: LabEvent[];
  /** The proxy's account of the lost requests: HAProxy's termination states ({ "SC--": 9 }), nginx's statuses to the client and from the pod ({ "502 502": 9 }). */
  flags: Record<string, number>;
  /** When the deleted pod's process exited, model seconds after the deletion (null if it never did). */
  podExitSeconds: number | null;
}

const DELETED = 'pod1';
const SPARE = 'pod4';
/** Wall ms between the start of the load's schedule and now, so no early request is late. */
const LEAD_MS = 200;

function podOptions(setup: LabSetup, name: string, dir: string, startupSeconds = 0) {
  return {
    name,
    shutdown: setup.shutdown,
    healthPaths: setup.healthPaths,
    drainFile: join(dir, `${name}.draining`),
    startupSeconds,
    lagNoiseMs: LAG_NOISE_MS,
  };
}

export async function runOnce(
  resources: LabResources,
  setup: LabSetup,
  shape: RunShape,
  seed: number,
): Promise<RunResult> {
  const began = performance.now();
  const dir = resources.tempDir();
  const pids: number[] = [];
  let lag: ReturnType<typeof startLagMonitor> | null = null;
  const idle: Socket[] = [];
  try {
    const pods = await Promise.all(
      ['pod1', 'pod2', 'pod3'].map((name) => startPod(resources, podOptions(setup, name, dir))),
    );
    pids.push(...pods.map((p) => p.pid));
    const checkPath = setup.checks?.path ?? setup.healthPaths[0];
    for (const pod of pods)
      if (!(await waitHealthy(pod.port, checkPath, 5000))) throw new Error(`${pod.name} never became healthy`);
    const proxy = await startDataPlane(setup.proxy, resources, dir, {
      pods: pods.map((p) => ({ name: p.name, port: p.port })),
      spare: SPARE,
      checks: setup.checks,
      gatewayDrainingSeconds: setup.gatewayDrainingSeconds,
    });
    pids.push(proxy.pid);
    // A gateway's connection pool: idle keep-alive connections to the pod that will be deleted.
    for (let i = 0; i < setup.idleConnections; i++) idle.push(connect(pods[0].port, '127.0.0.1').on('error', () => {}));
    let podExit: number | null = null;
    void pods[0].exited.then((exit) => {
      podExit = exit.at;
    });
    const schedule = buildSchedule({ seed, from: -shape.warmup, to: shape.loadEnd, horizon: shape.horizon });
    const deletionAt = performance.now() + LEAD_MS + toWallMs(shape.warmup);
    const log = new EventLog(deletionAt);
    const loadStart = performance.now();
    lag = startLagMonitor();
    const load = runLoad(proxy.port, schedule, deletionAt);
    // Rolling update: start the replacement before the deletion (surge) or after the old pod exits.
    const replace = async () => {
      if (setup.rolling === 'replace-after') await pods[0].exited;
      const started = performance.now();
      const pod = await startPod(resources, podOptions(setup, SPARE, dir, LAB_STARTUP_SECONDS));
      pids.push(pod.pid);
      log.add('replacement started', started);
      if (!(await waitHealthy(pod.port, checkPath, toWallMs(LAB_STARTUP_SECONDS + 20))))
        throw new Error(`replacement ${SPARE} never became healthy`);
      await proxy.admit(SPARE, pod.port);
      log.add('replacement ready');
      if (setup.rolling === 'surge-first' && performance.now() > deletionAt)
        log.add('replacement was not ready before the deletion');
    };
    const replacement = setup.rolling ? replace() : Promise.resolve();
    const drainFile = podOptions(setup, DELETED, dir).drainFile;
    const deletion = deletePod(resources, setup, pods[0], proxy, drainFile, log, deletionAt);
    const deadline = new Promise<never>((_, reject) => {
      setTimeout(
        () => reject(new Error('the run passed its deadline')),
        LEAD_MS + toWallMs(shape.warmup + shape.deadline),
      ).unref();
    });
    const [records] = await Promise.race([Promise.all([load, deletion, replacement]), deadline]);
    for (const change of proxy.stateChanges) {
      if (change.server === DELETED || change.server === SPARE)
        log.add(`checks mark ${change.server} ${change.state}`, change.at);
    }
    const flags: Record<string, number> = {};
    const logged = proxy.requestLog();
    for (const r of records) {
      const entry = logged.get(String(r.id));
      if (entry) {
        r.flags = entry.flags;
        r.pod ??= entry.server;
      }
      if (r.outcome !== 'ok' && r.flags) flags[r.flags] = (flags[r.flags] ?? 0) + 1;
    }
    const counts = zeroCounts();
    for (const r of records) counts[r.outcome]++;
    const maxLagMs = Math.round(Math.max(lag.max(), ...pods.map((p) => p.maxLagMs(loadStart))));
    const since = (t: number) => Math.round(toModelSeconds(t - deletionAt) * 100) / 100;
    return {
      seed,
      counts,
      lost: counts.refused + counts.cut + counts.aborted,
      noisy: maxLagMs > LAG_NOISE_MS,
      maxLagMs,
      wallMs: Math.round(performance.now() - began),
      events: [...log.events].sort((a, b) => a.at - b.at),
      records,
      podLog: pods[0].logs.map((l) => ({ at: since(l.at), what: l.line })),
      flags,
      podExitSeconds: podExit === null ? null : since(podExit),
    };
  } finally {
    lag?.stop();
    for (const socket of idle) socket.destroy();
    await resources.release(pids, [dir]);
  }
}
