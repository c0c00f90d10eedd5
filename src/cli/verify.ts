/**
 * `hitless verify`: stream completions from your own OpenAI-compatible endpoint at a set rate and
 * classify every request as the lab does; optionally restart one Deployment mid-run and put its pods'
 * changes on the timeline. Exit codes: 0 nothing lost, 1 something lost (or the rollout did not
 * complete), 2 bad flags or a Deployment kubectl cannot read.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { startLagMonitor } from '../verify/lag.ts';
import { reportHtml } from '../verify/html.ts';
import { jobYaml } from '../verify/job.ts';
import { MAX_ARRIVALS, startLoad } from '../verify/load.ts';
import { mergeReports, parseReportText } from '../verify/merge.ts';
import type { VerifyOptions } from '../verify/options.ts';
import { parseVerifyOptions, RANGES } from './verify-options.ts';
import { buildReport, reportUrl, summaryText, type VerifyEvent, type VerifyReport } from '../verify/report.ts';
import { reportJsonPieces } from '../verify/report-json.ts';
import {
  readDeploymentSelector,
  restartDeployment,
  restartPlan,
  RestartError,
  watchPods,
  type PodWatch,
  type RolloutEnd,
} from '../verify/restart.ts';
import { startStatus } from '../verify/status.ts';
import { UsageError } from './args.ts';
import { readFlagFile } from './read-input.ts';
import { checkReportPath, writeReport } from './report-file.ts';
import { writeInPieces } from './write-pieces.ts';

/** The largest shard `--merge` reads: about 1.5 million requests, short of the longest string Node can hold. */
const MAX_REPORT_BYTES = 256 * 2 ** 20;

const range = (flag: keyof typeof RANGES, unit = '') =>
  `${RANGES[flag][0]}–${RANGES[flag][1]}${unit}, default ${RANGES[flag][2]}${unit}`;

export const VERIFY_HELP = `hitless verify: stream requests to your OpenAI-compatible endpoint and count every request's fate

Usage:
  hitless verify --url URL --model NAME [options]
  hitless verify --url URL --model NAME --restart deployment/NAME -n NAMESPACE [--context CTX] [options]
  hitless verify --url URL --model NAME --emit-job --image IMAGE -n NAMESPACE [--shards N] [options]
  hitless verify --merge a.json b.json … [--format text|json] [--report FILE.html]

Load:
  --url URL            the endpoint's base URL; verify appends /v1/completions or /v1/chat/completions;
                       a query (?api-version=…) is sent with every request, and saved without its values
  --api completions|chat   which API to call (default completions)
  --model NAME         the model the endpoint serves (required)
  --rate N             requests per second (${range('rate')})
  --concurrency N      most requests in flight; an arrival beyond it is skipped and counted (${range('concurrency')})
  --duration S         seconds of sending (${range('duration', ' s')}); with --restart, at least this long
  --max-tokens N       max_tokens of each request (${range('max-tokens')})
  --prompt TEXT | --prompt-file FILE   the prompt (default: one that asks for a long answer)
  --header Name:value  an extra header, e.g. for auth; repeatable; never printed or saved
                       (also read from $HITLESS_VERIFY_HEADERS, one Name:value a line)
  --timeout S          per request (${range('timeout', ' s')}); a request still running then is a timeout
  --id-header NAME     send each request's number in this header, to find it in the gateway's logs

Output:
  --format text|json   json prints { requests, outcomes, lost, events, perRequest, … } on stdout
  --report FILE.html   also write a self-contained page: outcomes over time and the events
  --quiet              no status line
  --exit-zero          exit 0 even when requests were lost (the emitted Job's shards use it)

Rollout (kubectl on PATH, your kubeconfig):
  --restart deployment/NAME -n NAMESPACE [--context CTX]
                       after --warmup S (${range('warmup', ' s')}), kubectl rollout restart that Deployment,
                       list its pods every second as events, wait for the rollout (--rollout-timeout S,
                       ${range('rollout-timeout', ' s')}), keep the load on for the longest request, then stop.

In the cluster:
  --emit-job --image IMAGE -n NAMESPACE [--shards N] [--job-name NAME] [--header-secret SECRET]
                       print an Indexed Job running N shards (${range('shards')}) of this test, each printing
                       its JSON report to its log; combine them with --merge.

Outcomes: ok (streamed to [DONE] or a finish reason), refused (no connection or an HTTP error),
cut (the stream ended without a finish), aborted (an error event or an abort finish reason), unreadable (an
event's data was not JSON), timeout. lost = refused + cut + aborted + unreadable + timeout. Exit 0 when nothing was lost, 1 when something was, 2 for usage.
Ctrl-C stops sending and waits for requests in flight; a second Ctrl-C stops them too.`;

export async function runVerify(argv: string[]): Promise<number> {
  const o = parseVerifyOptions(argv);
  if (o.mode === 'help') {
    process.stdout.write(`${VERIFY_HELP}\n`);
    return 0;
  }
  if (o.mode === 'emit-job') {
    process.stdout.write(jobYaml(o));
    return 0;
  }
  // Before the first request: a run whose report could not be written would be lost at its end.
  checkReportPath(o.reportFile);
  if (o.mode === 'merge') {
    const reports = o.mergeFiles.map((file) => {
      // JSON never holds a raw NUL: /dev/zero or a binary file is refused at its first chunk, not at the cap.
      const text = readFlagFile(file, MAX_REPORT_BYTES, `--merge: ${file}`, (piece) =>
        piece.includes('\0') ? 'holds a NUL byte, so it is not a JSON report' : undefined,
      );
      try {
        return parseReportText(text, file);
      } catch (error) {
        throw new UsageError((error as Error).message);
      }
    });
    return await finish(mergeReports(reports), o);
  }
  return runLoadTest(o);
}

/**
 * Print the report as asked (the summary, or the JSON written in pieces), then write the HTML page, and pick the exit
 * code: a page that cannot be written is said on stderr and leaves the run's own exit code.
 */
async function finish(report: VerifyReport, o: VerifyOptions, rollout: RolloutEnd | null = null): Promise<number> {
  if (o.format === 'json') await writeInPieces(process.stdout, reportJsonPieces(report));
  else process.stdout.write(`${summaryText(report)}\n`);
  if (o.reportFile) writeReport(o.reportFile, () => reportHtml(report));
  if (rollout !== null && rollout !== 'complete') {
    const how = { failed: 'did not complete', 'not-started': 'was not started', interrupted: 'was interrupted' }[
      rollout
    ];
    process.stderr.write(`hitless verify: the rollout ${how}, so this run does not show a whole rollout\n`);
    return 1;
  }
  return report.lost > 0 && !o.exitZero ? 1 : 0;
}

function requestBody(o: VerifyOptions): string {
  const common = { model: o.model, max_tokens: o.maxTokens, stream: true };
  return JSON.stringify(
    o.api === 'chat' ? { ...common, messages: [{ role: 'user', content: o.prompt }] } : { ...common, prompt: o.prompt },
  );
}

const sleep = (ms: number, cancel: Promise<void>) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    void cancel.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });

async function runLoadTest(o: VerifyOptions): Promise<number> {
  let selector = '';
  if (o.restart) {
    try {
      selector = await readDeploymentSelector(o.restart);
    } catch (error) {
      if (error instanceof RestartError) throw new UsageError(`--restart: ${error.message}`);
      throw error;
    }
    process.stderr.write(`${restartPlan(o.restart, selector)}\n`);
  }
  const url = o.url!;
  const agent = url.protocol === 'https:' ? new HttpsAgent({ keepAlive: false }) : new HttpAgent({ keepAlive: false });
  const startedAt = new Date();
  const lag = startLagMonitor();
  const load = startLoad({
    target: {
      url,
      body: requestBody(o),
      headers: o.headers,
      idHeader: o.idHeader ?? undefined,
      timeoutMs: o.timeoutSeconds * 1000,
      agent,
    },
    ratePerSecond: o.ratePerSecond,
    concurrency: o.concurrency,
    onLimit: () => event(`sending stopped at ${MAX_ARRIVALS} requests, the most one run keeps`),
  });
  const events: VerifyEvent[] = [];
  const event = (what: string) =>
    events.push({ atSeconds: Math.round((performance.now() - load.zeroMs) / 10) / 100, what });
  events.push({ atSeconds: 0, what: `load starts: ${o.ratePerSecond} requests/s, at most ${o.concurrency} in flight` });
  const stopStatus = o.quiet ? () => {} : startStatus(process.stderr, load.stats, load.zeroMs);
  const { promise: interrupted, resolve: interrupt } = Promise.withResolvers<void>();
  let sigints = 0;
  const onSigint = () => {
    sigints++;
    if (sigints === 1) {
      event('Ctrl-C: sending stopped');
      process.stderr.write(
        '\nhitless verify: stopped sending; waiting for the requests in flight (Ctrl-C again to stop them)\n',
      );
      load.stopSending();
      interrupt();
    } else {
      event('second Ctrl-C: requests in flight stopped');
      load.cancelInFlight();
    }
  };
  process.on('SIGINT', onSigint);
  let rollout: RolloutEnd | null = null;
  let watch: PodWatch | null = null;
  try {
    const began = performance.now();
    if (o.restart) {
      const r = o.restart;
      watch = watchPods(r, selector, event);
      await sleep(r.warmupSeconds * 1000, interrupted);
      if (sigints > 0) {
        event('interrupted before the restart: the Deployment was not touched');
      } else {
        const abort = new AbortController();
        void interrupted.then(() => abort.abort());
        rollout = await restartDeployment(r, event, abort.signal);
        if (rollout === 'complete') {
          const tailMs = Math.max(load.stats.longestOkMs, 1000);
          event(`keeping the load on for the longest request seen (${(tailMs / 1000).toFixed(1)} s)`);
          await sleep(tailMs, interrupted);
        }
      }
      if (o.durationSeconds !== null)
        await sleep(Math.max(0, began + o.durationSeconds * 1000 - performance.now()), interrupted);
    } else {
      await sleep(o.durationSeconds! * 1000, interrupted);
    }
    if (sigints === 0) event('sending stops');
    load.stopSending();
    const results = await load.finished;
    event('last request ended');
    if (watch) await watch.stop();
    stopStatus();
    const report = buildReport({
      startedAt,
      settings: {
        url: reportUrl(url),
        api: o.api,
        model: o.model,
        ratePerSecond: o.ratePerSecond,
        concurrency: o.concurrency,
        durationSeconds: o.durationSeconds,
        maxTokens: o.maxTokens,
        timeoutSeconds: o.timeoutSeconds,
      },
      results,
      events,
      skipped: load.stats.skipped,
      clientMaxLagMs: lag.max(),
    });
    return await finish(report, o, o.restart ? (rollout ?? 'not-started') : null);
  } finally {
    lag.stop();
    process.off('SIGINT', onSigint);
    agent.destroy();
  }
}
