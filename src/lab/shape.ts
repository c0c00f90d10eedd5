/**
 * How long a run lasts, from its setup and prediction (model seconds after the deletion): load runs
 * from the warmup until 10 s after the pod stops getting requests (or, in a replace-after rolling
 * update, until 10 s after the replacement is up); requests that would outlast the run are left out.
 */
import { terminationTimes } from './kubelet-rules.ts';
import { LAB_WARMUP_SECONDS, longestSeconds } from './load-mix.ts';
import { serverGivesUp, type Prediction } from './predict.ts';
import { LAB_STARTUP_SECONDS, type LabSetup } from './setup.ts';

export interface RunShape {
  /** Load starts this many model seconds before the deletion. */
  warmup: number;
  /** No request starts at or after this. */
  loadEnd: number;
  /** No request streams past this. */
  horizon: number;
  /** When the pod is expected to be gone (its own exit, or SIGKILL). */
  expectedExit: number;
  /** The run is stopped as failed if it is still going at this time. */
  deadline: number;
}

/** Model seconds of load after the pod stops getting requests, so the chart shows the other pods carrying on. */
const TAIL_SECONDS = 10;

/** Model seconds of slack after everything should be over before a run counts as hung. */
const DEADLINE_SLACK_SECONDS = 20;

export function runShape(setup: LabSetup, prediction: Prediction): RunShape {
  const times = terminationTimes(setup.preStopSeconds, setup.graceSeconds);
  const longest = longestSeconds();
  const sigterm = times.sigterm;
  const lastAccepted = Math.min(prediction.routeStop.max, sigterm);
  const givesUp = serverGivesUp(setup, sigterm);
  // A server held by an idle connection (prediction.upUntil) drains until its bound whatever runs.
  const drainEnd = Math.min(givesUp.at, Math.max(sigterm, lastAccepted + longest, prediction.upUntil ?? 0));
  const expectedExit = Math.min(
    times.sigkill,
    drainEnd + (setup.shutdown.mode === 'drain' ? setup.shutdown.teardownSeconds : 0),
  );
  let loadEnd = Math.max(prediction.routeStop.max, sigterm) + TAIL_SECONDS;
  if (setup.rolling === 'replace-after') loadEnd = Math.max(loadEnd, expectedExit + LAB_STARTUP_SECONDS + TAIL_SECONDS);
  const horizon = Math.max(loadEnd + TAIL_SECONDS, lastAccepted + longest);
  const deadline = Math.max(horizon, times.sigkill) + DEADLINE_SLACK_SECONDS;
  return { warmup: LAB_WARMUP_SECONDS, loadEnd, horizon, expectedExit, deadline };
}
