/**
 * Helpers the lab page's components share: the shape of content/lab/results.json they read, outcome
 * names and patterns, what stood in for the gateway and whose log the stand-in's is shaped like, and
 * sentences that describe a run's outcomes in words (the charts' text alternative).
 */
import { profiles } from '../../facts/site.ts';
import { standInGatewayLabel, standInLogLabel } from '../../lab/labels.ts';

/** The outcomes the lab counts, in display order (error is the lab's own failure; it stays 0 in published data). */
export const OUTCOME_KEYS = ['ok', 'refused', 'cut', 'aborted'] as const;

export type OutcomeKey = (typeof OUTCOME_KEYS)[number];

/** How each outcome is named and drawn: every lost kind has its own pattern and label, so colour is never needed. */
export const OUTCOME_STYLE: Record<OutcomeKey, { label: string; meaning: string }> = {
  ok: { label: 'ok', meaning: 'streamed to the end' },
  refused: { label: 'refused', meaning: 'a 503/502 before any token: sent to a pod that no longer accepted' },
  cut: { label: 'cut', meaning: 'the stream broke off: the pod was killed, or the gateway closed it' },
  aborted: { label: 'aborted', meaning: 'the server ended the stream with an error at shutdown' },
};

/** A bucket of the median run's timeline: from when, and a count per outcome. */
export type LabBucket = { from: number } & Record<OutcomeKey, number>;

/** A timeline event (model seconds after the deletion). */
export interface LabEventData {
  at: number;
  what: string;
}

/** The part of a scenario's results the components read. */
export interface LabScenarioData {
  id: string;
  scenario: string;
  /** The data plane that stood in for the gateway (absent in results from before nginx: HAProxy). */
  proxy?: string;
  title: string;
  summary: string;
  gateway: string;
  gatewayName?: string;
  gatewayLabel?: string;
  modelServer: string;
  modelServerName?: string;
  mechanism: string;
  plan: {
    removalSeconds: number;
    preStopSeconds: number;
    drainSeconds: number;
    terminationGracePeriodSeconds: number;
    drainFlag: string | null;
  };
  applied: { changes: string[] };
  prediction: {
    expect: string;
    refused: LabRange;
    back: { atSeconds: number | null; outcome: string; count: LabRange } | null;
    lost?: LabRange;
    /** The pod is still up at this time, when the model says so (Triton held by an idle connection). */
    podUpUntilSeconds?: number | null;
  };
  runs: {
    seed: number;
    counts: Record<string, number>;
    noisy: boolean;
    attempts: number;
    podExitSeconds?: number | null;
  }[];
  median: Record<string, number>;
  verdict: string;
  timeline: { width: number; buckets: LabBucket[] };
  events: LabEventData[];
  podLog: LabEventData[];
  podLogLabel?: string;
}

/** A predicted count: a lower and an upper bound (null when unbounded). */
export interface LabRange {
  min: number | null;
  max: number | null;
}

/** The path of a scenario's own page: "recommended@gke/vllm" → /lab/recommended-gke-vllm/. */
export function scenarioPath(id: string): string {
  return `/lab/${id.replace(/[^a-z0-9]+/g, '-')}/`;
}

/** What stood in for the scenario's gateway: "HAProxy with Istio's removal delay" (results before it was recorded too). */
function gatewayLabel(s: LabScenarioData): string {
  return s.gatewayLabel ?? standInGatewayLabel(s.mechanism, s.gatewayName ?? s.gateway, s.proxy);
}

/** The proxy's display name: "HAProxy" or "nginx". */
export function proxyName(s: LabScenarioData): string {
  return s.proxy === 'nginx' ? 'nginx' : 'HAProxy';
}

/** Each scenario run on HAProxy, with the same scenario on nginx when the lab ran it there too. */
export function byProxy(
  scenarios: readonly LabScenarioData[],
): { haproxy: LabScenarioData; nginx?: LabScenarioData }[] {
  const nginx = new Map(scenarios.filter((s) => s.proxy === 'nginx').map((s) => [s.id, s]));
  return scenarios.filter((s) => s.proxy !== 'nginx').map((s) => ({ haproxy: s, nginx: nginx.get(`${s.id}/nginx`) }));
}

/** The same scenario on the other proxy, if the results hold it. */
export function counterpart(s: LabScenarioData, scenarios: readonly LabScenarioData[]): LabScenarioData | undefined {
  const id = s.proxy === 'nginx' ? s.id.replace(/\/nginx$/, '') : `${s.id}/nginx`;
  return scenarios.find((x) => x.id === id);
}

/** The label of the deleted pod's log: stand-in output, shaped like which server's log at which release. */
export function podLogLabel(s: LabScenarioData): string {
  const follows = profiles.modelServers.find((m) => m.id === s.modelServer)?.shutdownLog?.follows;
  return s.podLogLabel ?? standInLogLabel(follows, s.modelServerName ?? s.modelServer);
}

/** A scenario's name with its gateway and model server, unique on the page (for region labels). */
export function scenarioLabel(s: LabScenarioData): string {
  return `${s.title}, ${gatewayLabel(s)}, ${s.modelServerName ?? s.modelServer}`;
}

/** A predicted count as text: "0", "about 6", "10 to 30". */
export function rangeText(r: LabRange | undefined): string {
  if (!r) return 'not recorded';
  const lo = Math.round(r.min ?? 0);
  const hi = Math.round(r.max ?? 0);
  if (lo === hi) return lo === 0 ? '0' : `about ${lo}`;
  return `${lo} to ${hi}`;
}

/** What the model predicts per run for each lost kind and in all, beside what the lab measured (median). */
export function predictedVersusMeasured(s: LabScenarioData): { kind: string; predicted: string; measured: string }[] {
  const p = s.prediction;
  const zero = { min: 0, max: 0 };
  const back = (kind: 'cut' | 'aborted') => (p.back && p.back.outcome === kind ? p.back.count : zero);
  const rows = [
    { kind: 'refused', predicted: rangeText(p.refused), measured: String(s.median.refused ?? 0) },
    { kind: 'cut', predicted: rangeText(back('cut')), measured: String(s.median.cut ?? 0) },
    { kind: 'aborted', predicted: rangeText(back('aborted')), measured: String(s.median.aborted ?? 0) },
    { kind: 'lost in all', predicted: rangeText(p.lost), measured: String(s.median.lost ?? 0) },
  ];
  if (typeof p.podUpUntilSeconds === 'number') {
    const exits = s.runs
      .map((r) => r.podExitSeconds)
      .filter((x): x is number => typeof x === 'number')
      .sort((a, b) => a - b);
    const mid = exits[Math.floor((exits.length - 1) / 2)];
    rows.push({
      kind: 'pod exits',
      predicted: `at ${secondsText(p.podUpUntilSeconds)} or later`,
      measured: mid === undefined ? 'not recorded' : `at ${secondsText(mid)}`,
    });
  }
  return rows;
}

/** Seconds for prose: 35, 12.5. */
function secondsText(n: number): string {
  return `${Math.round(n * 10) / 10} s`;
}

/** "between 2 s and 8 s" / "at 35 s" for the first and last bucket holding an outcome. */
function spanText(buckets: readonly LabBucket[], key: OutcomeKey, width: number): string {
  const hits = buckets.filter((b) => b[key] > 0);
  if (hits.length === 0) return '';
  const first = hits[0].from;
  const last = hits[hits.length - 1].from + width;
  return hits.length === 1
    ? `between ${secondsText(first)} and ${secondsText(last)}`
    : `from ${secondsText(first)} to ${secondsText(last)}`;
}

/** The chart in one paragraph: totals per outcome and when the losses happened. */
export function describeTimeline(s: LabScenarioData): string {
  const { buckets, width } = s.timeline;
  const total = (key: OutcomeKey) => buckets.reduce((sum, b) => sum + b[key], 0);
  const all = OUTCOME_KEYS.reduce((sum, k) => sum + total(k), 0);
  const parts = [`Median run: ${all} requests, ${total('ok')} ok.`];
  for (const key of ['refused', 'cut', 'aborted'] as const) {
    const n = total(key);
    if (n > 0) parts.push(`${n} ${key} ${spanText(buckets, key, width)} after the deletion.`);
  }
  if (all === total('ok')) parts.push('No request was lost.');
  const events = s.events.map((e) => `${e.what} at ${secondsText(e.at)}`).join('; ');
  if (events) parts.push(`Events: ${events}.`);
  return parts.join(' ');
}

export function verdictText(verdict: string): string {
  if (verdict === 'pass') return 'as the model predicts';
  if (verdict === 'contradiction') return 'contradicts the model';
  if (verdict === 'not-asserted') return 'not asserted (the model allows 0 or more)';
  return 'lab error';
}

export function predictionText(s: LabScenarioData): string {
  const p = s.prediction;
  if (p.expect === 'none') return 'The model predicts no lost request.';
  const span = (r: LabRange) => {
    const lo = Math.round(r.min ?? 0);
    const hi = Math.round(r.max ?? 0);
    return lo === hi ? `about ${lo}` : `about ${lo} to ${hi}`;
  };
  const parts: string[] = [];
  if ((p.refused.max ?? 0) > 0) parts.push(`${span(p.refused)} refused`);
  if (p.back && (p.back.count.max ?? 0) > 0)
    parts.push(`${span(p.back.count)} ${p.back.outcome} at ${secondsText(p.back.atSeconds ?? 0)}`);
  return `The model predicts ${parts.join(' and ')} per run.`;
}
