/**
 * The drain timeline: what happens to a deleted pod, second by second, for a plan or for the values a
 * reader actually deployed. Pure: it reads a Plan and the profiles and returns events, windows and the
 * fate of example requests; the timeline island only draws them.
 *
 * The rules, from the race on the site's page "The drain model" (content/docs/drain-model.mdx):
 * - at t = 0 the pod is deleted; each routing path keeps sending new requests until its removal time;
 *   a load balancer that only health-checks starts noticing only at SIGTERM, when the server stops passing;
 * - the kubelet sleeps (preStop), sends SIGTERM, and sends SIGKILL at terminationGracePeriodSeconds;
 * - after SIGTERM the server refuses new requests and lets running ones finish for up to its drain bound
 *   (0 aborts them at once), then tears down;
 * - a request that reaches the pod at or after SIGTERM is refused (front); one still running when the
 *   server stops serving (drain bound or SIGKILL, whichever is first) is cut (back).
 */
import type { Plan } from './plan.ts';
import type { Profiles } from '../facts/profiles.ts';
import { gatewayById, modelServerById } from './resolve.ts';
import { ceilSeconds, formatSeconds as fmt, roundMs } from './seconds.ts';

/** One routing path that sends new requests to the pod until its removal time. */
export interface RemovalPath {
  id: string;
  label: string;
  /** When the path's clock starts: at deletion, or at SIGTERM for checks the server passes until then. */
  from: 'deletion' | 'sigterm';
  /** Seconds after `from` until the path sends no new request. */
  seconds: number;
  /** How the number is known: a profile basis, `given`, or `watch` for the Endpoint Picker's next pod event. */
  basis: string;
}

/** How long the server serves in-flight requests after SIGTERM. */
export type DrainBound = { kind: 'seconds'; seconds: number } | { kind: 'unbounded' };

/** The values a timeline is drawn for. */
export interface TimelineSettings {
  paths: RemovalPath[];
  preStopSeconds: number;
  drain: DrainBound;
  /** How the drain bound is set, for labels: `--shutdown-timeout=75`, `fixed 90s`, `no drain`, `until done`. */
  drainSetting: string;
  teardownSeconds: number;
  terminationGracePeriodSeconds: number;
  maxRequestSeconds: number;
}

/** Values a reader deployed instead of the plan's. Absent means the plan's own value. */
export interface TimelineOverrides {
  preStopSeconds?: number;
  /** The server's drain flag value; only servers with a drain flag take it. */
  drainSeconds?: number;
  terminationGracePeriodSeconds?: number;
}

export type EventId = 'deletion' | 'removal' | 'sigterm' | 'drain-deadline' | 'sigkill';

/** A moment on the timeline. */
export interface TimelineEvent {
  id: EventId;
  atSeconds: number;
  label: string;
  /** The routing path, for `removal` events. */
  pathId?: string;
}

export type WindowId = 'prestop' | 'drain' | 'teardown' | 'front';

/** A stretch of time on the timeline. */
export interface TimelineWindow {
  id: WindowId;
  startSeconds: number;
  endSeconds: number;
  label: string;
}

/** A request that reaches the pod at `arrivalSeconds` and needs `durationSeconds` to finish. */
export interface ExampleRequest {
  id: string;
  label: string;
  arrivalSeconds: number;
  durationSeconds: number;
}

export type Fate = 'ok' | 'refused' | 'cut';

/** What happens to one request. */
export interface RequestOutcome {
  request: ExampleRequest;
  fate: Fate;
  /** When the request would finish if nothing stopped it. */
  wouldEndSeconds: number;
  /** When it actually ends: its arrival (refused), the cut, or its finish. */
  endSeconds: number;
  reason: string;
}

export type ProblemCode =
  | 'prestop-exceeds-grace'
  | 'front-window'
  | 'server-aborts'
  | 'drain-past-sigkill'
  | 'teardown-past-sigkill';

/** A setting that drops requests or is rejected, and what to change. */
export interface TimelineProblem {
  code: ProblemCode;
  message: string;
}

/** Everything the timeline island draws and lists. */
export interface Timeline {
  settings: TimelineSettings;
  /** When each path stops sending new requests, in path order. */
  removals: { path: RemovalPath; atSeconds: number }[];
  /** The last moment any path still sends a new request. */
  lastRemovalSeconds: number;
  sigtermSeconds: number;
  sigkillSeconds: number;
  /** When the server stops serving in-flight requests: the drain bound or SIGKILL, whichever is first. */
  stopServingSeconds: number;
  /** When the drain would end if SIGKILL did not come first, and when teardown would end after it. */
  drainEndSeconds: number;
  teardownEndSeconds: number;
  events: TimelineEvent[];
  windows: TimelineWindow[];
  requests: RequestOutcome[];
  problems: TimelineProblem[];
  /** The end of the drawn time axis: every event and every request's would-be end fits before it. */
  spanSeconds: number;
}

/** The kubelet sends SIGTERM when the preStop sleep ends, or at the grace deadline if that comes first. */
function sigtermAt(settings: TimelineSettings): number {
  return Math.min(settings.preStopSeconds, settings.terminationGracePeriodSeconds);
}

/** When the server stops serving in-flight requests: SIGTERM plus its drain bound, never after SIGKILL. */
function stopServingAt(settings: TimelineSettings): number {
  const sigterm = sigtermAt(settings);
  const grace = settings.terminationGracePeriodSeconds;
  return settings.drain.kind === 'unbounded' ? grace : Math.min(roundMs(sigterm + settings.drain.seconds), grace);
}

/**
 * The fate of one request: refused if it reaches the pod at or after SIGTERM (the server no longer accepts);
 * cut if it would still be running when the server stops serving; otherwise it finishes.
 */
export function fateOf(request: ExampleRequest, settings: TimelineSettings): RequestOutcome {
  const sigterm = sigtermAt(settings);
  const stop = stopServingAt(settings);
  const wouldEnd = roundMs(request.arrivalSeconds + request.durationSeconds);
  const outcome = (fate: Fate, endSeconds: number, reason: string): RequestOutcome => ({
    request,
    fate,
    wouldEndSeconds: wouldEnd,
    endSeconds,
    reason,
  });
  if (request.arrivalSeconds >= sigterm) {
    const reason = `reaches the pod at ${fmt(request.arrivalSeconds)}, after SIGTERM at ${fmt(sigterm)}: the server no longer accepts it`;
    return outcome('refused', request.arrivalSeconds, reason);
  }
  if (wouldEnd > stop) {
    const by =
      stop >= settings.terminationGracePeriodSeconds
        ? `SIGKILL comes at ${fmt(stop)}`
        : stop === sigterm
          ? `the server does not drain and aborts it at SIGTERM (${fmt(stop)})`
          : `the drain ends at ${fmt(stop)}`;
    return outcome('cut', stop, `needs until ${fmt(wouldEnd)}, but ${by}`);
  }
  return outcome('ok', wouldEnd, `ends at ${fmt(wouldEnd)}, before the server stops serving at ${fmt(stop)}`);
}

/**
 * Three requests that expose each failure window:
 * - the longest request, arriving at deletion: cut if the server does not drain long enough;
 * - the longest request, arriving one second before the pod stops accepting and being routed
 *   (whichever of SIGTERM and the last removal is first): cut if the grace period is too short;
 * - a short request (a fifth of the longest, at least 1 s) routed late: inside the front window when there
 *   is one (at its middle), otherwise one second before the last removal.
 */
function exampleRequests(settings: TimelineSettings, lastRemovalSeconds: number): ExampleRequest[] {
  const sigterm = sigtermAt(settings);
  const longest = settings.maxRequestSeconds;
  const short = Math.max(1, ceilSeconds(longest / 5));
  const lastAccepted = Math.max(0, roundMs(Math.min(sigterm, lastRemovalSeconds) - 1));
  const late =
    lastRemovalSeconds > sigterm
      ? roundMs((sigterm + lastRemovalSeconds) / 2)
      : Math.max(0, roundMs(lastRemovalSeconds - 1));
  return [
    {
      id: 'longest-at-deletion',
      label: `Longest request (${fmt(longest)}), arriving at deletion`,
      arrivalSeconds: 0,
      durationSeconds: longest,
    },
    {
      id: 'longest-last-accepted',
      label: `Longest request (${fmt(longest)}), the last one accepted`,
      arrivalSeconds: lastAccepted,
      durationSeconds: longest,
    },
    {
      id: 'short-routed-late',
      label: `Short request (${fmt(short)}), routed late`,
      arrivalSeconds: late,
      durationSeconds: short,
    },
  ];
}

/** The timeline for a set of settings. */
export function buildTimeline(settings: TimelineSettings): Timeline {
  const grace = settings.terminationGracePeriodSeconds;
  const sigterm = sigtermAt(settings);
  const stop = stopServingAt(settings);
  // Each path stops sending new requests its seconds after deletion, or after SIGTERM.
  const removals = settings.paths.map((path) => ({
    path,
    atSeconds: roundMs((path.from === 'sigterm' ? sigterm : 0) + path.seconds),
  }));
  const lastRemoval = Math.max(0, ...removals.map((r) => r.atSeconds));
  const requests = exampleRequests(settings, lastRemoval).map((r) => fateOf(r, settings));
  // A bounded drain may last its whole bound; an unbounded one lasts until the last accepted request ends.
  // SIGKILL may come first: `drainEnd` is when the drain would end, not when it is stopped.
  const drainEnd =
    settings.drain.kind === 'seconds'
      ? roundMs(sigterm + settings.drain.seconds)
      : Math.max(sigterm, ...requests.filter((r) => r.fate !== 'refused').map((r) => r.wouldEndSeconds));
  const teardownEnd = roundMs(Math.min(drainEnd, grace) + settings.teardownSeconds);

  const events: TimelineEvent[] = [
    { id: 'deletion', atSeconds: 0, label: 'Pod deleted: endpoint removal and the preStop sleep start together' },
    ...removals.map(({ path, atSeconds }) => ({
      id: 'removal' as const,
      atSeconds,
      pathId: path.id,
      label: `${path.label}: no new requests after ${fmt(atSeconds)}`,
    })),
    {
      id: 'sigterm',
      atSeconds: sigterm,
      label:
        sigterm < settings.preStopSeconds
          ? 'SIGTERM (the grace period ended the sleep)'
          : 'SIGTERM: the preStop sleep ends and the server stops accepting',
    },
  ];
  if (settings.drain.kind === 'seconds' && drainEnd < grace) {
    events.push({
      id: 'drain-deadline',
      atSeconds: drainEnd,
      label:
        settings.drain.seconds === 0
          ? 'The server aborts in-flight requests (no drain)'
          : `Drain deadline: the server aborts what is still running (${settings.drainSetting})`,
    });
  }
  events.push({
    id: 'sigkill',
    atSeconds: grace,
    label: `SIGKILL: terminationGracePeriodSeconds (${fmt(grace)}) after deletion`,
  });
  events.sort((a, b) => a.atSeconds - b.atSeconds);

  const windows: TimelineWindow[] = [
    { id: 'prestop', startSeconds: 0, endSeconds: sigterm, label: `preStop sleep, ${fmt(settings.preStopSeconds)}` },
    {
      id: 'drain',
      startSeconds: sigterm,
      endSeconds: Math.min(drainEnd, grace),
      label:
        settings.drain.kind === 'unbounded'
          ? `Drain until the last request ends (${settings.drainSetting})`
          : `Drain, up to ${fmt(settings.drain.seconds)} (${settings.drainSetting})`,
    },
    {
      id: 'teardown',
      startSeconds: Math.min(drainEnd, grace),
      endSeconds: Math.min(teardownEnd, grace),
      label: `Teardown, ${fmt(settings.teardownSeconds)}`,
    },
  ];
  if (lastRemoval > sigterm) {
    windows.push({
      id: 'front',
      startSeconds: sigterm,
      endSeconds: lastRemoval,
      label: `Refused window: routed here after SIGTERM, ${fmt(roundMs(lastRemoval - sigterm))}`,
    });
  }

  const problems = problemsOf(settings, { sigterm, lastRemoval, drainEnd, teardownEnd });
  const spanSeconds = Math.max(1, grace, lastRemoval, teardownEnd, ...requests.map((r) => r.wouldEndSeconds));
  return {
    settings,
    removals,
    lastRemovalSeconds: lastRemoval,
    sigtermSeconds: sigterm,
    sigkillSeconds: grace,
    stopServingSeconds: stop,
    drainEndSeconds: drainEnd,
    teardownEndSeconds: teardownEnd,
    events,
    windows,
    requests,
    problems,
    spanSeconds,
  };
}

function problemsOf(
  s: TimelineSettings,
  t: { sigterm: number; lastRemoval: number; drainEnd: number; teardownEnd: number },
): TimelineProblem[] {
  const grace = s.terminationGracePeriodSeconds;
  const problems: TimelineProblem[] = [];
  if (s.preStopSeconds > grace) {
    problems.push({
      code: 'prestop-exceeds-grace',
      message: `Kubernetes rejects this pod: the ${fmt(s.preStopSeconds)} preStop sleep is longer than the ${fmt(grace)} grace period.`,
    });
  }
  if (t.lastRemoval > t.sigterm) {
    const fromSigterm = s.paths.some((p) => p.from === 'sigterm' && roundMs(t.sigterm + p.seconds) === t.lastRemoval);
    problems.push({
      code: 'front-window',
      message:
        `Requests routed here between ${fmt(t.sigterm)} (SIGTERM) and ${fmt(t.lastRemoval)} (the last removal) are refused: `
        + (fromSigterm
          ? 'health checks only start failing at SIGTERM, so a longer sleep moves this window without closing it.'
          : `the sleep ends ${fmt(roundMs(t.lastRemoval - t.sigterm))} too early.`),
    });
  }
  if (s.drain.kind === 'seconds' && s.drain.seconds === 0) {
    problems.push({
      code: 'server-aborts',
      message: `The server does not drain (${s.drainSetting}): every request still running at SIGTERM is aborted.`,
    });
  }
  if (t.drainEnd > grace && !(s.drain.kind === 'seconds' && s.drain.seconds === 0)) {
    problems.push({
      code: 'drain-past-sigkill',
      message: `The drain may run until ${fmt(t.drainEnd)}, but SIGKILL comes at ${fmt(grace)}: raise the grace period by ${fmt(roundMs(t.drainEnd + s.teardownSeconds - grace))}.`,
    });
  } else if (t.teardownEnd > grace) {
    problems.push({
      code: 'teardown-past-sigkill',
      message: `If the drain uses its whole bound, teardown runs until ${fmt(t.teardownEnd)}, after SIGKILL at ${fmt(grace)}: the process may be killed before it exits cleanly.`,
    });
  }
  return problems;
}

/** The routing paths for a plan's gateway: the Endpoint Picker's pod watch, then the gateway's slowest path. */
function pathsFor(plan: Plan, profiles: Profiles): RemovalPath[] {
  const gateway = gatewayById(profiles, plan.gateway);
  const epp: RemovalPath = {
    id: 'epp',
    label: 'Endpoint Picker (pod watch)',
    from: 'deletion',
    seconds: 0,
    basis: 'watch',
  };
  const removal = { seconds: plan.removalSeconds, basis: plan.removalBasis };
  if (plan.warnings.some((w) => w.code === 'health-check-only'))
    return [epp, { id: 'health-check', label: `${gateway.name}: health checks`, from: 'sigterm', ...removal }];
  const label =
    gateway.mechanism === 'endpoint-view'
      ? `${gateway.name}: slowest path (removal p99)`
      : `${gateway.name}: picked requests in transit (removal p99)`;
  return [epp, { id: 'gateway', label, from: 'deletion', ...removal }];
}

/** The timeline settings for a plan, with any values the reader deployed instead. */
export function settingsFor(plan: Plan, profiles: Profiles, overrides: TimelineOverrides = {}): TimelineSettings {
  const server = modelServerById(profiles, plan.modelServer);
  let drain: DrainBound;
  let drainSetting: string;
  switch (server.drain.kind) {
    case 'flag': {
      if (plan.drainFlag === null && overrides.drainSeconds === undefined) {
        // A release without the flag: the server does what its default does (vLLM's 0 aborts at once).
        const seconds = server.drain.zeroAborts ? 0 : (server.drain.defaultSeconds ?? 0);
        drain = { kind: 'seconds', seconds };
        drainSetting = `${server.name} ${plan.modelServerRelease ?? ''}: no ${server.drain.flag}`.replace('  ', ' ');
        break;
      }
      const seconds = overrides.drainSeconds ?? plan.drainFlag!.seconds;
      drain = { kind: 'seconds', seconds };
      drainSetting = `${server.drain.flag}=${seconds}`;
      break;
    }
    case 'fixed':
      drain = { kind: 'seconds', seconds: server.drain.fixedSeconds! };
      drainSetting = `${server.name}: fixed ${fmt(server.drain.fixedSeconds!)}`;
      break;
    case 'none':
      drain = { kind: 'seconds', seconds: 0 };
      drainSetting = `${server.name}: no drain`;
      break;
    default:
      drain = { kind: 'unbounded' };
      drainSetting = `${server.name} drains until done`;
  }
  return {
    paths: pathsFor(plan, profiles),
    preStopSeconds: overrides.preStopSeconds ?? plan.preStopSeconds,
    drain,
    drainSetting,
    teardownSeconds: plan.teardownSeconds,
    terminationGracePeriodSeconds: overrides.terminationGracePeriodSeconds ?? plan.terminationGracePeriodSeconds,
    maxRequestSeconds: plan.maxRequestSeconds,
  };
}

/**
 * The span of an enlarged view of the front of the race (deletion, SIGTERM, the last routing path), for a timeline
 * whose drain makes that part too small to read: twice the later of SIGTERM and the last removal, at least 10 s.
 * Undefined when the whole timeline is less than three times that, so the full chart already shows it.
 */
export function frontZoomSeconds(timeline: Timeline): number | undefined {
  const zoom = Math.max(10, Math.ceil(2 * Math.max(timeline.sigtermSeconds, timeline.lastRemovalSeconds)));
  return timeline.spanSeconds > 3 * zoom ? zoom : undefined;
}
