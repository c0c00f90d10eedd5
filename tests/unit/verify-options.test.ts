import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { UsageError } from '../../src/cli/args.ts';
import { reportHtml } from '../../src/verify/html.ts';
import { jobYaml } from '../../src/verify/job.ts';
import { parseVerifyOptions } from '../../src/cli/verify-options.ts';
import { statusLine } from '../../src/verify/status.ts';
import type { VerifyReport } from '../../src/verify/report.ts';

const base = ['--url', 'http://gw.example:8080/prefix/', '--model', 'llama'];
const parseArgv = (argv: string[]) => parseVerifyOptions(argv, {});
const usage = (argv: string[], message: RegExp) =>
  assert.throws(
    () => parseArgv(argv),
    (e: unknown) => e instanceof UsageError && message.test(e.message),
  );

test('defaults, the URL with the API path appended, repeated headers', () => {
  const o = parseArgv([...base, '--header', 'Authorization: Bearer s3cret', '--header=X-Team:infra', '--api', 'chat']);
  assert.equal(o.url!.href, 'http://gw.example:8080/prefix/v1/chat/completions');
  assert.deepEqual(o.headers, { authorization: 'Bearer s3cret', 'x-team': 'infra' });
  assert.deepEqual(
    [o.ratePerSecond, o.concurrency, o.durationSeconds, o.maxTokens, o.timeoutSeconds],
    [5, 100, 60, 200, 300],
  );
  assert.equal(o.restart, null);
});

test('bad values exit 2 naming the flag and its range', () => {
  usage([...base, '--rate', '0'], /^--rate must be a number from 0\.1 to 1000 \(got "0"\)$/);
  usage([...base, '--rate', 'fast'], /^--rate must be a number from 0\.1 to 1000/);
  usage([...base, '--concurrency', '5001'], /^--concurrency must be a whole number from 1 to 5000/);
  usage([...base, '--concurrency', '2.5'], /^--concurrency must be a whole number/);
  usage([...base, '--duration', '-3'], /^--duration needs a value|^--duration must be/);
  usage([...base, '--max-tokens', '0'], /^--max-tokens must be a whole number from 1 to 100000/);
  usage([...base, '--timeout', '3601'], /^--timeout must be a whole number from 1 to 3600/);
  usage([...base, '--api', 'responses'], /^--api must be one of completions, chat/);
  usage([...base, '--format', 'yaml'], /^--format must be one of text, json/);
  usage([...base, '--report', 'out.pdf'], /^--report must name an \.html file/);
  usage(['--url', 'http://gw'], /^--model is required/);
  usage(['--model', 'm'], /^--url is required/);
  usage(['--url', 'ftp://gw', '--model', 'm'], /^--url must be an http:\/\/ or https:\/\/ URL/);
  usage(['--url', 'http://gw/v1/completions', '--model', 'm'], /^--url is the base URL without \/v1/);
  usage(['--url', 'http://user:pw@gw', '--model', 'm'], /^--url must not carry a user or password/);
  usage([...base, '--gateway', 'gke'], /^--gateway is not an option of verify/);
  usage([...base, '--prompt', 'a', '--prompt-file', 'b'], /^--prompt and --prompt-file cannot be combined/);
  usage(
    [...base, '--prompt-file', '/nonexistent/prompt.txt'],
    /^--prompt-file "\/nonexistent\/prompt.txt" cannot be read: ENOENT/,
  );
});

test('a malformed header is refused without echoing its value', () => {
  assert.throws(
    () => parseArgv([...base, '--header', 'Bearer s3cret']),
    (e: unknown) => {
      assert.ok(e instanceof UsageError);
      assert.match(e.message, /^--header number 1 must look like Name:value/);
      assert.doesNotMatch(e.message, /s3cret/);
      return true;
    },
  );
});

test('--restart needs deployment/NAME and -n; -n and the rollout flags need --restart', () => {
  const o = parseArgv([
    ...base,
    '--restart',
    'deployment/vllm-llama',
    '-n',
    'models',
    '--context',
    'prod',
    '--warmup',
    '10',
  ]);
  assert.deepEqual(o.restart, {
    deployment: 'vllm-llama',
    namespace: 'models',
    context: 'prod',
    warmupSeconds: 10,
    rolloutTimeoutSeconds: 900,
  });
  assert.equal(o.durationSeconds, null, 'with --restart and no --duration the rollout decides');
  usage(
    [...base, '--restart', 'vllm-llama', '-n', 'models'],
    /^--restart must name one Deployment as deployment\/NAME/,
  );
  usage([...base, '--restart', 'statefulset/x', '-n', 'models'], /^--restart must name one Deployment/);
  usage([...base, '--restart', 'deployment/Bad_Name', '-n', 'models'], /^--restart must name one Deployment/);
  usage([...base, '--restart', 'deployment/x'], /^--restart needs -n NAMESPACE/);
  usage([...base, '-n', 'models'], /^-n belongs to --restart and --emit-job/);
  usage([...base, '--warmup', '5'], /^--warmup belongs to --restart/);
  usage(
    [...base, '--restart', 'deployment/x', '-n', 'models', '--warmup', '4000'],
    /^--warmup must be a whole number from 0 to 3600/,
  );
});

test('--merge takes report files only', () => {
  assert.deepEqual(parseArgv(['--merge', 'a.json', 'b.json', '--report', 'r.html']).mergeFiles, ['a.json', 'b.json']);
  usage(['--merge'], /^--merge needs the JSON reports/);
  usage(['--merge', 'a.json', '--rate', '3'], /^--merge takes only report files/);
  usage([...base, 'a.json'], /^verify takes no file arguments except with --merge/);
});

test('the emitted Job: Indexed, rate and concurrency split over the shards, headers only through a Secret', () => {
  const argv = [
    ...base,
    '--rate',
    '20',
    '--concurrency',
    '50',
    '--duration',
    '600',
    '--prompt',
    'say "hi": {x}',
    '--emit-job',
    '--image',
    'registry.example/hitless:1',
    '-n',
    'loadtest',
    '--shards',
    '4',
    '--header-secret',
    'gw-token',
  ];
  const text = jobYaml(parseArgv(argv));
  const job = parse(text);
  assert.equal(job.kind, 'Job');
  assert.equal(job.apiVersion, 'batch/v1');
  assert.equal(job.metadata.namespace, 'loadtest');
  assert.deepEqual(
    [job.spec.completionMode, job.spec.completions, job.spec.parallelism, job.spec.backoffLimit],
    ['Indexed', 4, 4, 0],
  );
  const c = job.spec.template.spec.containers[0];
  assert.equal(c.image, 'registry.example/hitless:1');
  const arg = (flag: string) => c.args[c.args.indexOf(flag) + 1];
  assert.equal(c.args[0], 'verify');
  assert.equal(arg('--url'), 'http://gw.example:8080/prefix');
  assert.equal(arg('--rate'), '5', '20 requests/s over 4 shards');
  assert.equal(arg('--concurrency'), '13', '50 in flight over 4 shards, rounded up');
  assert.equal(arg('--prompt'), 'say "hi": {x}', 'the prompt survives YAML quoting');
  assert.equal(arg('--format'), 'json');
  assert.ok(c.args.includes('--exit-zero'));
  assert.deepEqual(c.env, [
    { name: 'HITLESS_VERIFY_HEADERS', valueFrom: { secretKeyRef: { name: 'gw-token', key: 'headers' } } },
  ]);
  assert.equal(c.securityContext.runAsNonRoot, true);
  assert.equal(job.spec.template.spec.restartPolicy, 'Never');
  // The parsed Job's own args must be valid verify flags: a shard parses them as the CLI will.
  const shard = parseVerifyOptions(c.args.slice(1), { HITLESS_VERIFY_HEADERS: 'Authorization: Bearer t\n' });
  assert.deepEqual([shard.ratePerSecond, shard.concurrency, shard.durationSeconds, shard.exitZero], [5, 13, 600, true]);
  assert.deepEqual(shard.headers, { authorization: 'Bearer t' });
  assert.match(
    text,
    /^# .*kubectl logs -n loadtest -l job-name=hitless-verify,batch\.kubernetes\.io\/job-completion-index=\$i > shard-\$i\.json/m,
  );
});

test('--emit-job refuses inline headers and a per-shard rate below the minimum', () => {
  const job = ['--emit-job', '--image', 'img', '-n', 'loadtest'];
  usage([...base, ...job, '--header', 'Authorization: Bearer s3cret'], /^--header values are never written out/);
  usage([...base, ...job, '--rate', '0.3', '--shards', '4'], /^--rate 0\.3 over --shards 4 is below 0\.1 per shard/);
  usage([...base, '--emit-job', '-n', 'loadtest'], /^--emit-job needs --image/);
  usage([...base, '--emit-job', '--image', 'img'], /^--emit-job needs -n NAMESPACE/);
  usage([...base, '--image', 'img'], /^--image belongs to --emit-job/);
});

test('the HTML report escapes every string from the user or the endpoint and fetches nothing', () => {
  const evil = '<script>alert(1)</script>';
  const report: VerifyReport = {
    tool: 'hitless verify',
    version: 1,
    startedAt: '2026-12-01T12:00:00.000Z',
    settings: {
      url: `http://gw/"${evil}`,
      api: 'completions',
      model: evil,
      ratePerSecond: 1,
      concurrency: 1,
      durationSeconds: 5,
      maxTokens: 5,
      timeoutSeconds: 5,
    },
    requests: 2,
    outcomes: { ok: 1, refused: 0, cut: 0, aborted: 1, unreadable: 0, timeout: 0 },
    lost: 1,
    skipped: 0,
    cancelled: 0,
    ttftMs: null,
    longestOkSeconds: 1,
    clientMaxLagMs: 0,
    shards: 1,
    events: [{ atSeconds: 1, what: `pod ${evil} gone` }],
    perRequest: [
      { id: 1, start: 0, end: 1, outcome: 'ok', status: 200, ttftMs: 10, detail: null },
      { id: 2, start: 0.5, end: 2, outcome: 'aborted', status: 200, ttftMs: 10, detail: `"${evil}'` },
    ],
  };
  const html = reportHtml(report);
  assert.ok(!html.includes('<script'), 'no script element');
  assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  assert.ok(html.includes('&quot;&lt;script&gt;alert(1)&lt;/script&gt;&#39;'));
  assert.doesNotMatch(html, /(src|href)=/, 'nothing is loaded from anywhere');
  assert.match(html, /<svg viewBox="0 0 640 260"/);
  assert.match(html, /<title>1 aborted, 2 to 3 s<\/title>/, 'the aborted request ended at 2 s: bucket 2 to 3 s');
});

test('the status line shows elapsed, sent, in flight, each outcome and TTFT p50/p99', () => {
  const stats = {
    sent: 12,
    inFlight: 3,
    skipped: 0,
    cancelled: 0,
    counts: { ok: 7, refused: 1, cut: 1, aborted: 0, unreadable: 0, timeout: 0 },
    // Ten TTFTs: nearest rank p50 is the 5th (50 ms), p99 the 10th (900 ms).
    ttftMs: [10, 20, 30, 40, 50, 60, 70, 80, 90, 900],
    longestOkMs: 0,
  };
  assert.equal(
    statusLine(42.4, stats),
    '  42 s  sent 12  in flight 3  ok 7  refused 1  cut 1  aborted 0  timeout 0  ttft p50 50 ms p99 900 ms',
  );
  assert.match(statusLine(1, { ...stats, skipped: 4, ttftMs: [] }), /ttft p50 – p99 – {2}skipped 4$/);
});

test('a URL with a line break, a tab or a space is refused, not silently mended, and not echoed', () => {
  // new URL() would drop the line break and the tab and send the request to a URL the user never wrote.
  for (const url of [
    'http://gw.example/?key=s3cret\n',
    'http://gw.example/a\tb?key=s3cret',
    'http://gw.example/ ?key=s3cret',
  ])
    assert.throws(
      () => parseArgv(['--url', url, '--model', 'llama']),
      (e: unknown) => {
        assert.ok(e instanceof UsageError);
        assert.match(e.message, /^--url must not contain spaces or control characters/);
        assert.doesNotMatch(e.message, /s3cret/);
        return true;
      },
    );
});
