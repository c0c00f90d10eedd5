/**
 * `hitless lab`: replay a pod deletion against a real HAProxy or nginx on 127.0.0.1 and count every
 * request's fate. Exit codes: 0 every outcome as the model predicts, 1 an outcome contradicts the
 * model (or the lab could not run), 2 bad flags.
 */
import { LabInputError, checkSet, prepare, publishSet, type Prepared } from '../lab/prepare.ts';
import { PROXY_BINARIES, proxyVersion } from '../lab/data-plane.ts';
import { PROXIES, PROXY_NAMES } from '../lab/proxy.ts';
import { LabResources, stopOnSignals } from '../lab/processes.ts';
import { machineInfo, resultsDocument, writeResults, RESULTS_FILE } from '../lab/publish.ts';
import { scenarioJson, scenarioText } from '../lab/report.ts';
import { SCENARIOS } from '../lab/scenarios.ts';
import { runScenario, type ScenarioResult } from '../lab/suite.ts';
import { readProfiles } from '../facts/read-files.ts';
import { choiceOption, noPositional, numberOption, parseArgs, UsageError } from './args.ts';

export const LAB_HELP = `hitless lab: replay a pod deletion behind a real HAProxy or nginx on 127.0.0.1 and count every request's fate

Usage:
  hitless lab [--scenario NAME] [--gateway ID] [--model-server ID] [--proxy haproxy|nginx] [--runs N] [--seed N] [--format text|json] [--<input> VALUE ...]
  hitless lab --check     the short CI check: the plan for each detection mechanism, no-prestop, vllm-abort; the plan and no-prestop on nginx
  hitless lab --publish   every scenario ${3} times, on HAProxy and on nginx; writes content/lab/results.json

Scenarios:
${SCENARIOS.map((s) => `  ${s.name.padEnd(16)} ${s.summary}`).join('\n')}

--proxy is the data plane standing in for the gateway (default haproxy; nginx reloads on each endpoint change, as
NGINX Gateway Fabric does). --runs is 1 to 10 (default 3; the median is reported), --seed 0 to 4294967295 (default 42; run i uses seed + i).
Drain-model inputs (see "hitless inputs") change the plan the scenario starts from. Time is scaled:
1 model second = 100 ms. Exits 1 when an outcome contradicts what the drain model predicts.`;

const FORMATS = ['text', 'json'];
const DEFAULT_SEED = 42;
/**
 * Repeats of noisy runs the check may spend in all (about 7 s each), so that it stays near 2 minutes on a busy
 * machine. A noisy run that contradicts the model is repeated regardless (up to 3 attempts).
 */
const CHECK_REPEAT_BUDGET = 4;
/**
 * Scenarios the check runs at once. Each run has its own stand-ins, HAProxy, ports (chosen by the system) and temp
 * dir, so two never share anything but this process's event loop, whose stalls each run's lag monitor sees (a
 * stalled run is flagged noisy and repeated as before). A run is mostly waiting on timers (3.8 CPU-s for a run of
 * about 8 s, the stand-ins' start included), so two at once fit on 2 cores: on a machine shared with other work
 * (load average 9-13) the check took 134 s this way and 175 s one at a time, both all as predicted. --publish stays
 * one at a time, so that the published timings are each of a run alone.
 */
const CHECK_LANES = 2;

/** Model seconds one run of a scenario lasts: its load's warmup, then until the last request or the pod's exit. */
function runSeconds(p: Prepared): number {
  return p.shape.warmup + Math.max(p.shape.horizon, p.shape.expectedExit);
}

export async function runLab(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['scenario', 'runs', 'seed', 'format', 'proxy'], ['check', 'publish']);
  noPositional(args, 'lab');
  const format = choiceOption(args, 'format', FORMATS, 'text');
  const proxy = choiceOption(args, 'proxy', PROXIES, 'haproxy');
  const check = args.options.check === 'true';
  const publish = args.options.publish === 'true';
  if (check && publish) throw new UsageError('--check and --publish cannot be combined');
  const seed = numberOption(args.options.seed, 'seed', [0, 4294967295, DEFAULT_SEED]);
  const runs = numberOption(args.options.runs, 'runs', [1, 10, 3]);
  const { gateway, 'model-server': modelServer, ...inputs } = args.inputs;
  const fixed = args.options.scenario || args.options.runs || args.options.proxy || Object.keys(args.inputs).length > 0;
  if ((check || publish) && fixed) {
    throw new UsageError(`--${check ? 'check' : 'publish'} runs a fixed set; it takes only --seed and --format`);
  }
  const profiles = readProfiles();
  let prepared: Prepared[];
  try {
    prepared = check
      ? checkSet(profiles)
      : publish
        ? publishSet(profiles)
        : [prepare(args.options.scenario ?? 'recommended', profiles, { gateway, modelServer, inputs, proxy })];
  } catch (error) {
    if (error instanceof LabInputError) throw new UsageError(error.message);
    throw error;
  }
  for (const needed of PROXIES.filter((p) => prepared.some((x) => x.setup.proxy === p))) {
    if (proxyVersion(needed)) continue;
    const where = PROXY_BINARIES[needed];
    process.stderr.write(
      `hitless lab: ${PROXY_NAMES[needed]} was not found at ${where.path} (install the ${where.debian} package, or set ${where.env})\n`,
    );
    return 1;
  }
  return execute(prepared, { check, publish, seed, runs: check || publish ? 3 : runs, format });
}

async function execute(
  prepared: Prepared[],
  o: { check: boolean; publish: boolean; seed: number; runs: number; format: string },
): Promise<number> {
  const resources = new LabResources();
  const removeHandlers = stopOnSignals(resources, (signal) =>
    process.stderr.write(`\nhitless lab: ${signal}: stopped every process the lab started\n`),
  );
  const startedAt = new Date();
  const began = performance.now();
  const machine = machineInfo();
  const results: ScenarioResult[] = [];
  const repeatBudget = o.check ? { left: CHECK_REPEAT_BUDGET } : undefined;
  const lanes = Math.min(o.check ? CHECK_LANES : 1, prepared.length);
  try {
    process.stderr.write(
      `hitless lab: ${prepared.length} scenario(s) × ${o.runs} runs on ${machine.cores} cores${lanes > 1 ? `, ${lanes} at once` : ''}, HAProxy ${machine.haproxy}, nginx ${machine.nginx}, Node ${machine.node}\n`,
    );
    // Each lane takes the next scenario not yet started, with several lanes the longest first (so that they end
    // together); reports come out in the set's order all the same.
    const order = prepared.map((_, i) => i);
    if (lanes > 1) order.sort((a, b) => runSeconds(prepared[b]) - runSeconds(prepared[a]));
    let next = 0;
    let reported = 0;
    const runLane = async () => {
      try {
        while (next < prepared.length) {
          const index = order[next++];
          results[index] = await runScenario(resources, prepared[index], {
            runs: o.runs,
            seed: o.seed,
            repeatBudget,
            onRun: (pp, i, r) =>
              process.stderr.write(
                `  ${pp.id} run ${i + 1}: ${r.error ? `error: ${r.error}` : `lost ${r.lost} of ${Object.values(r.counts).reduce((a, b) => a + b, 0)}`}${r.noisy ? ' (noisy)' : ''}\n`,
              ),
          });
          for (; reported < prepared.length && results[reported]; reported++)
            if (o.format === 'text') process.stdout.write(`\n${scenarioText(results[reported])}\n`);
        }
      } catch (error) {
        next = prepared.length; // the other lanes start nothing more
        throw error;
      }
    };
    // Every lane ends its current scenario before the resources are released (a lane that failed stops the others
    // from starting another); then the first failure is the lab's.
    const lanesEnded = await Promise.allSettled(Array.from({ length: lanes }, runLane));
    const failed = lanesEnded.find((lane) => lane.status === 'rejected');
    if (failed) throw failed.reason;
  } finally {
    resources.releaseAll();
    removeHandlers();
  }
  const wallMs = performance.now() - began;
  if (o.publish) {
    const command = `npm run lab:publish${o.seed === DEFAULT_SEED ? '' : ` -- --seed ${o.seed}`}`;
    writeResults(resultsDocument(results, { seed: o.seed, runs: o.runs, command, startedAt, wallMs, machine }));
    process.stderr.write(`hitless lab: wrote ${RESULTS_FILE}\n`);
  }
  if (o.format === 'json')
    process.stdout.write(
      `${JSON.stringify({ wallSeconds: Math.round(wallMs / 100) / 10, scenarios: results.map(scenarioJson) }, null, 2)}\n`,
    );
  const bad = results.filter((r) => r.verdict === 'contradiction' || r.verdict === 'lab-error');
  process.stderr.write(
    `hitless lab: ${results.length - bad.length} of ${results.length} as predicted in ${(wallMs / 1000).toFixed(1)} s`
      + `${bad.length ? `; ${bad.map((r) => `${r.prepared.id} ${r.verdict}`).join(', ')}` : ''}\n`,
  );
  // The plain closing line CI reads: each scenario is one check, passed when its outcome matches the model.
  if (o.format === 'text') process.stdout.write(`lab: ${results.length - bad.length} passed, ${bad.length} failed\n`);
  return bad.length > 0 ? 1 : 0;
}
