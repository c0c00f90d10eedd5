import { formatSeconds as s } from '../../../model/seconds.ts';
import { formulaOf, setEdit } from '../context.ts';
import { judgedSleepSeconds } from '../shared/prestop.ts';
import { defineRule } from '../rule.ts';

export const rule = defineRule({
  code: 'prestop-too-short',
  order: 20,
  scope: 'workload',
  severity: { error: 'below the removal p99', warning: 'below removal + margin' },
  restsOn: ['removal p99'],
  summary: 'The preStop sleep ends before every gateway has stopped routing to the pod.',
  remediation: 'Raise the preStop sleep to the removal p99 + margin.',
  remedy: 'applied',
  check: (ctx) => {
    const { plan, inputs, targets: t } = ctx;
    const now = judgedSleepSeconds(ctx);
    const hook = t.preStop;
    if (now === undefined || now >= plan.preStopSeconds || (hook.kind !== 'sleep' && hook.kind !== 'exec-sleep'))
      return [];
    const below = now < plan.removalSeconds;
    return [
      {
        severity: below ? 'error' : 'warning',
        path: hook.path,
        message: below
          ? `The preStop sleep ends ${s(now)} after deletion, but gateways can route new requests to the pod for up to ${s(plan.removalSeconds)} `
            + '(the removal p99): requests that arrive after SIGTERM fail.'
          : `The ${s(now)} preStop sleep covers the ${s(plan.removalSeconds)} removal p99 but not the ${s(inputs.removalMarginSeconds)} margin for `
            + 'requests already picked and still in transit, which can arrive after SIGTERM and fail.',
      },
    ];
  },
  fix: ({ object, plan, targets: t }) => {
    const hook = t.preStop;
    if (hook.kind !== 'sleep' && hook.kind !== 'exec-sleep') return undefined;
    const edit =
      hook.kind === 'exec-sleep'
        ? setEdit(object, hook.path, `${hook.item.slice(0, hook.start)}${t.preStopTarget}${hook.item.slice(hook.end)}`)
        : setEdit(object, hook.path, t.preStopTarget, ` ${formulaOf(plan, 'preStopSeconds')}`);
    return { text: `${t.preStopTarget} (${formulaOf(plan, 'preStopSeconds')})`, edits: [edit] };
  },
});
