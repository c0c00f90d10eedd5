import { formatSeconds as s } from '../../../model/seconds.ts';
import { formulaOf, setFix } from '../context.ts';
import { parseDuration } from '../../read/duration.ts';
import { valueAt } from '../../read/path.ts';
import { routeRules, shortPolicyTimeouts } from '../shared/gateway.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'gateway-timeout-too-short',
  order: 250,
  scope: 'manifest',
  severity: { error: 'below the longest request', warning: 'below the plan\u2019s gateway timeout' },
  restsOn: ['longest request'],
  summary: 'A gateway policy or HTTPRoute timeout that cuts long responses.',
  remediation: 'Raise the timeout to the plan\u2019s: the longest request with headroom.',
  remedy: 'applied',
  fixtureSettings: { gateway: 'gke' },
  check: (ctx) => [
    ...shortPolicyTimeouts(ctx, true, (now, unset, target, plan) => ({
      severity: now < plan.maxRequestSeconds ? 'error' : 'warning',
      message:
        now < plan.maxRequestSeconds
          ? `The load balancer cuts any response after ${s(now)}${unset}, less than the ${s(plan.maxRequestSeconds)} longest request: `
            + 'long generations are cut mid-stream, during rollouts and in steady state.'
          : `The load balancer cuts any response after ${s(now)}${unset}: that covers the ${s(plan.maxRequestSeconds)} longest request but not `
            + `the headroom the plan gives it (${target.why}), so a request slower than the estimate is cut.`,
    })),
    ...routeRules(ctx).flatMap(({ route, index, rule, plan }) =>
      (['request', 'backendRequest'] as const).flatMap((key) => {
        const raw = valueAt(rule, ['timeouts', key]);
        const seconds = typeof raw === 'string' ? parseDuration(raw) : undefined;
        if (!plan || seconds === undefined || seconds <= 0 || seconds >= plan.maxRequestSeconds) return [];
        const path = ['spec', 'rules', index, 'timeouts', key];
        // The same value a gateway policy of the plan's gateway gets, when there is one.
        const planned = plan.gatewayRequestTimeoutSeconds;
        const target = planned ? planned : plan.maxRequestSeconds;
        const why = planned
          ? formulaOf(plan, 'gatewayRequestTimeoutSeconds')
          : `longest request: ${formulaOf(plan, 'maxRequestSeconds')}`;
        return [
          {
            severity: 'error' as const,
            object: route,
            path,
            message:
              `The route times out ${key === 'request' ? 'a request' : 'each backend request'} after ${raw}, less than the ${s(plan.maxRequestSeconds)} longest request: `
              + 'long generations are cut mid-stream, during rollouts and in steady state.',
            planned: setFix(route, path, `${target}s`, why),
          },
        ];
      }),
    ),
  ],
  fix: (_ctx, verdict) => verdict.planned,
});
