/**
 * Reports of scenario results: the JSON shape (also what content/lab/results.json holds per
 * scenario) and the text the CLI prints.
 */
import { OUTCOMES } from './classify.ts';
import { standInGatewayLabel, standInLogLabel } from './labels.ts';
import type { Range } from './predict.ts';
import type { ScenarioResult, Verdict } from './suite.ts';

const round1 = (n: number) => (Number.isFinite(n) ? Math.round(n * 10) / 10 : null);
const range = (r: Range) => ({ min: round1(r.min), max: round1(r.max) });

export function scenarioJson(result: ScenarioResult) {
  const { prepared: p } = result;
  const s = p.setup;
  return {
    id: p.id,
    scenario: p.spec.name,
    title: p.spec.title,
    summary: p.spec.summary,
    gateway: s.gateway,
    gatewayName: p.names.gateway,
    /** What stood in for the gateway, e.g. "nginx with Istio's removal delay". */
    gatewayLabel: standInGatewayLabel(s.mechanism, p.names.gateway, s.proxy),
    /** The data plane that stood in for the gateway. */
    proxy: s.proxy,
    modelServer: s.modelServer,
    modelServerName: p.names.modelServer,
    mechanism: s.mechanism,
    plan: {
      removalSeconds: p.plan.removalSeconds,
      preStopSeconds: p.plan.preStopSeconds,
      drainSeconds: p.plan.drainSeconds,
      terminationGracePeriodSeconds: p.plan.terminationGracePeriodSeconds,
      drainFlag: s.plan.drainFlag,
      strategy: p.plan.strategy,
      warnings: p.plan.warnings.map((w) => w.code),
    },
    applied: {
      preStopSeconds: s.preStopSeconds,
      preStopFailsHealth: s.preStopFailsHealth,
      terminationGracePeriodSeconds: s.graceSeconds,
      removalPushSeconds: s.pushSeconds,
      gatewayDrainingSeconds: s.gatewayDrainingSeconds,
      healthChecks: s.checks,
      shutdown: { mode: s.shutdown.mode, boundSeconds: s.shutdown.boundSeconds, newRequests: s.shutdown.newRequests },
      rolling: s.rolling,
      changes: s.changes,
    },
    prediction: {
      expect: p.prediction.expect,
      routeStopSeconds: range(p.prediction.routeStop),
      sigtermSeconds: p.prediction.stopAccepting,
      sigkillSeconds: p.prediction.sigkill,
      refused: range(p.prediction.refused),
      back: p.prediction.back
        ? {
            atSeconds: round1(p.prediction.back.at),
            outcome: p.prediction.back.outcome,
            count: range(p.prediction.back.count),
          }
        : null,
      lost: range(p.prediction.lost),
      podUpUntilSeconds: p.prediction.upUntil,
    },
    runs: result.runs,
    median: result.median,
    verdict: result.verdict,
    timeline: result.timeline,
    events: result.events,
    podLog: result.podLog,
    /** The pod log is the stand-in's own output; this says whose log, at which release, it is shaped like. */
    podLogLabel: standInLogLabel(s.shutdown.log?.follows, p.names.modelServer),
  };
}

const VERDICT_TEXT: Record<Verdict, string> = {
  pass: 'PASS: as the model predicts',
  contradiction: 'FAIL: contradicts the model',
  'not-asserted': 'not asserted: the model gives a range that includes 0',
  'lab-error': 'LAB ERROR: no usable run',
};

/** A range in whole numbers: "3" or "2–5". */
const span = (r: Range) =>
  Math.round(r.min) === Math.round(r.max) ? `${Math.round(r.min)}` : `${Math.round(r.min)}–${Math.round(r.max)}`;

function expectation(result: ScenarioResult): string {
  const p = result.prepared.prediction;
  if (p.expect === 'none') return 'the model predicts 0 lost';
  const parts: string[] = [];
  if (p.refused.max > 0) parts.push(`${span(p.refused)} refused`);
  if (p.back && p.back.count.max > 0) parts.push(`${span(p.back.count)} ${p.back.outcome} at ${round1(p.back.at)} s`);
  return `the model predicts about ${parts.join(' + ')} (lost ${p.expect === 'loss' ? '> 0' : '≥ 0'})`;
}

export function scenarioText(result: ScenarioResult): string {
  const { prepared: p } = result;
  const s = p.setup;
  const lines = [
    `${p.spec.name} — ${p.spec.title} (${standInGatewayLabel(s.mechanism, p.names.gateway, s.proxy)}; ${p.names.modelServer} stand-in)`,
    `  plan: removal ${p.plan.removalSeconds} s, preStop ${p.plan.preStopSeconds} s, drain ${p.plan.drainSeconds} s`
      + `${s.plan.drainFlag ? ` (${s.plan.drainFlag})` : ''}, grace ${p.plan.terminationGracePeriodSeconds} s`,
  ];
  for (const change of s.changes) lines.push(`  applied: ${change}`);
  lines.push(`  ${expectation(result)}`);
  result.runs.forEach((r, i) => {
    const counts = OUTCOMES.map((o) => `${o} ${r.counts[o]}`).join(', ');
    const notes = [`seed ${r.seed}`, `${(r.wallMs / 1000).toFixed(1)} s`, `lag ${r.maxLagMs} ms`];
    if (r.noisy) notes.push('NOISY');
    if (r.attempts > 1) notes.push(`${r.attempts} attempts`);
    lines.push(`  run ${i + 1}: ${r.error ? `error: ${r.error}` : counts}  (${notes.join(', ')})`);
  });
  const m = result.median;
  lines.push(`  median: ${OUTCOMES.map((o) => `${o} ${m[o]}`).join(', ')}; lost ${m.lost}`);
  const pr = p.prediction;
  lines.push(`  predicted lost ${span(pr.lost)}, measured ${m.lost} (median)`);
  if (pr.upUntil !== null) {
    lines.push(
      `  predicted: the pod is up until at least ${pr.upUntil} s; it exited at ${result.runs.map((r) => (r.podExitSeconds === null ? '?' : `${r.podExitSeconds} s`)).join(', ')}`,
    );
  }
  lines.push(`  ${VERDICT_TEXT[result.verdict]}`);
  return lines.join('\n');
}
