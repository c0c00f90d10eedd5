/**
 * The data file the lab page reads (content/lab/results.json): when and where the results were
 * produced, the time scale and workload, and per scenario the counts of every run, their median,
 * the verdict and the median run's timeline. Data only; the page does the presenting.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { proxyVersion } from './data-plane.ts';
import { LAG_NOISE_MS } from '../verify/lag.ts';
import {
  LAB_MIX,
  LAB_RATE_PER_SECOND,
  LAB_TPOT_MS,
  LAB_WARMUP_SECONDS,
  longestSeconds,
  requestSeconds,
} from './load-mix.ts';
import { scenarioJson } from './report.ts';
import { WALL_MS_PER_MODEL_SECOND } from './scale.ts';
import { LAB_STARTUP_SECONDS, LAB_TEARDOWN_SECONDS } from './setup.ts';
import type { ScenarioResult } from './suite.ts';

/** Where --publish writes. */
export const RESULTS_FILE = fileURLToPath(new URL('../../content/lab/results.json', import.meta.url));

export function machineInfo() {
  const cpu = cpus();
  return {
    cores: cpu.length,
    cpuModel: cpu[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    os: `${process.platform} ${release()}`,
    node: process.version,
    haproxy: proxyVersion('haproxy'),
    nginx: proxyVersion('nginx'),
    loadAverageAtStart: loadavg().map((n) => Math.round(n * 100) / 100),
  };
}

export function resultsDocument(
  results: ScenarioResult[],
  options: {
    seed: number;
    runs: number;
    command: string;
    startedAt: Date;
    wallMs: number;
    machine: ReturnType<typeof machineInfo>;
  },
) {
  return {
    schemaVersion: 1,
    generatedAt: options.startedAt.toISOString(),
    command: options.command,
    seed: options.seed,
    runsPerScenario: options.runs,
    wallSeconds: Math.round(options.wallMs / 100) / 10,
    machine: options.machine,
    timeScale: {
      wallMsPerModelSecond: WALL_MS_PER_MODEL_SECOND,
      note: 'Every time in this file is in model seconds. The lab runs them 10× faster: 1 model second takes 100 ms of wall time.',
    },
    workload: {
      ratePerModelSecond: LAB_RATE_PER_SECOND,
      pods: 3,
      warmupSeconds: LAB_WARMUP_SECONDS,
      tpotMs: LAB_TPOT_MS,
      mix: LAB_MIX.map((m) => ({ maxTokens: m.maxTokens, seconds: requestSeconds(m.maxTokens), share: m.weight })),
      longestSeconds: longestSeconds(),
      teardownSeconds: LAB_TEARDOWN_SECONDS,
      replacementStartupSeconds: LAB_STARTUP_SECONDS,
      lagNoiseMs: LAG_NOISE_MS,
    },
    scenarios: results.map(scenarioJson),
  };
}

export function writeResults(document: ReturnType<typeof resultsDocument>, file: string = RESULTS_FILE): void {
  mkdirSync(dirname(file), { recursive: true });
  // Objects holding only plain values (counts, buckets, events) go on one line each, to keep the file readable.
  const text = JSON.stringify(document, null, 2)
    .replace(/\{\n\s+([^{}[\]]*?)\n\s*\}/g, (_, inner: string) => `{ ${inner.replace(/\n\s+/g, ' ')} }`)
    .replace(/\[\n\s+([^{}[\]]*?)\n\s*\]/g, (_, inner: string) => `[${inner.replace(/\n\s+/g, ' ')}]`);
  writeFileSync(file, `${text}\n`);
}
