/**
 * `--emit-job`: a Kubernetes Indexed Job that runs N shards of the same test inside the cluster, each
 * sending rate/N requests per second with concurrency/N in flight and printing its JSON report to its
 * log. Headers never appear in it: they come from a Secret (`--header-secret`) through
 * $HITLESS_VERIFY_HEADERS. Written with the yaml library, so every user string is quoted as YAML needs.
 */
import { stringify } from 'yaml';
import type { VerifyOptions } from './options.ts';

/** The hitless arguments of one shard (the same for every shard). */
function shardArgs(o: VerifyOptions, shards: number): string[] {
  const url = o.url!;
  const base = `${url.origin}${url.pathname.replace(/\/v1\/(chat\/)?completions$/, '')}${url.search}`;
  const flags = {
    url: base,
    api: o.api,
    model: o.model,
    rate: Math.round((o.ratePerSecond / shards) * 1000) / 1000,
    concurrency: Math.max(1, Math.ceil(o.concurrency / shards)),
    duration: o.durationSeconds,
    'max-tokens': o.maxTokens,
    timeout: o.timeoutSeconds,
    prompt: o.prompt,
    format: 'json',
  };
  const args = ['verify', ...Object.entries(flags).flatMap(([flag, value]) => [`--${flag}`, String(value)]), '--quiet'];
  // A shard that saw losses must still succeed: a failed pod would fail the Job and stop the other shards.
  args.push('--exit-zero');
  if (o.idHeader) args.push('--id-header', o.idHeader);
  return args;
}

/** The Job as YAML, with comments that say how to apply it and collect the shards. */
export function jobYaml(o: VerifyOptions): string {
  const job = o.job!;
  const container: Record<string, unknown> = {
    name: 'verify',
    image: job.image,
    args: shardArgs(o, job.shards),
    resources: { requests: { cpu: '1', memory: '256Mi' }, limits: { memory: '512Mi' } },
    securityContext: {
      runAsNonRoot: true,
      runAsUser: 1000,
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    },
  };
  if (job.headerSecret) {
    container.env = [
      { name: 'HITLESS_VERIFY_HEADERS', valueFrom: { secretKeyRef: { name: job.headerSecret, key: 'headers' } } },
    ];
  }
  const manifest = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: job.name, namespace: job.namespace, labels: { 'app.kubernetes.io/name': 'hitless-verify' } },
    spec: {
      completionMode: 'Indexed',
      completions: job.shards,
      parallelism: job.shards,
      backoffLimit: 0,
      ttlSecondsAfterFinished: 86_400,
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': 'hitless-verify' } },
        spec: { restartPolicy: 'Never', automountServiceAccountToken: false, containers: [container] },
      },
    },
  };
  const last = job.shards - 1;
  const header = [
    `# hitless verify: ${job.shards} shard(s) of ${o.ratePerSecond} requests/s in all against ${o.url!.origin}, ${o.durationSeconds} s each.`,
    "# Apply, wait, collect each shard's report, merge:",
    `#   kubectl apply -f job.yaml`,
    `#   kubectl wait --for=condition=complete --timeout=${(o.durationSeconds ?? 0) + o.timeoutSeconds + 300}s -n ${job.namespace} job/${job.name}`,
    `#   for i in $(seq 0 ${last}); do kubectl logs -n ${job.namespace} -l job-name=${job.name},batch.kubernetes.io/job-completion-index=$i > shard-$i.json; done`,
    `#   hitless verify --merge shard-*.json --report rollout.html`,
    ...(job.headerSecret
      ? [`# Headers come from Secret ${job.headerSecret} (key "headers", one Name:value a line).`]
      : []),
    '',
  ];
  return `${header.join('\n')}${stringify(manifest, { lineWidth: 0 })}`;
}
