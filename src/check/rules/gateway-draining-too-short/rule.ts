import { formatSeconds as s } from '../../../model/seconds.ts';
import { shortPolicyTimeouts } from '../shared/gateway.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'gateway-draining-too-short',
  order: 260,
  scope: 'manifest',
  severity: 'warning',
  summary: 'A gateway connection-draining timeout shorter than the pod\u2019s preStop + drain.',
  remediation: 'Raise connection draining to the pod\u2019s preStop + drain.',
  remedy: 'applied',
  fixtureSettings: { gateway: 'gke' },
  check: (ctx) =>
    shortPolicyTimeouts(ctx, false, (now, unset, target) => ({
      severity: 'warning',
      message:
        `Once the pod\u2019s endpoint leaves the load balancer, which can be soon after deletion, requests still in flight get ${s(now)}${unset} `
        + `to finish, while the pod keeps serving them for up to ${s(target.seconds)} (${target.why}): long requests can be cut before the pod\u2019s own drain ends.`,
    })),
  fix: (_ctx, verdict) => verdict.planned,
});
