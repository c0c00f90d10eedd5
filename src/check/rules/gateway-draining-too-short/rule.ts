/** gateway-draining-too-short: A gateway connection-draining timeout shorter than the pod’s preStop + drain. */
import { formatSeconds as s } from '../../../model/seconds.ts';
import { setEdit } from '../context.ts';
import { plannedSeconds, policyTimeouts } from '../shared/gateway.ts';
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
    policyTimeouts(ctx).flatMap(({ policy, setting, plan, field }) => {
      if (setting.role === 'requestTimeout' || field.state === 'bad') return [];
      const now = field.state === 'set' ? field.value : setting.defaultSeconds;
      const target = plannedSeconds(plan, setting);
      if (now >= target.needed || now >= setting.maxSeconds) return [];
      const key = setting.path.at(-1);
      const unset = field.state === 'set' ? '' : ` (${key} unset: the ${s(setting.defaultSeconds)} default)`;
      return [
        {
          severity: 'warning' as const,
          object: policy,
          path: field.state === 'set' ? setting.path : ['spec'],
          message:
            `Once the pod\u2019s endpoint leaves the load balancer, which can be soon after deletion, requests still in flight get ${s(now)}${unset} `
            + `to finish, while the pod keeps serving them for up to ${s(target.seconds)} (${target.why}): long requests can be cut before the pod\u2019s own drain ends.`,
          planned: {
            text: `${key}: ${target.seconds} # ${target.why}`,
            edits: [setEdit(policy, setting.path, target.seconds, ` ${target.why}`)],
          },
        },
      ];
    }),
  fix: (_ctx, verdict) => verdict.planned,
});
