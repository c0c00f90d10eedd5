/** The plan beside the manifest: the key numbers and the warnings. */
import type { Plan } from '../../drain/plan.ts';

/** The plan's numbers; `data-plan` carries the whole plan as JSON for tests and tools. */
export function PlanSummary({ plan }: { plan: Plan }) {
  return (
    <section class="gen-plan" data-testid="plan" data-plan={JSON.stringify(plan)} aria-labelledby="gen-plan-heading">
      <h2 id="gen-plan-heading">Plan</h2>
      <p class="gen-plan-line" aria-live="polite">
        Grace period <strong>{plan.terminationGracePeriodSeconds}s</strong> = {plan.preStopSeconds}s preStop
        + {plan.drainSeconds}s drain + {plan.teardownSeconds}s teardown;
        rollout maxSurge {plan.strategy.maxSurge}, maxUnavailable {plan.strategy.maxUnavailable}.
      </p>
      {plan.warnings.length > 0 ? (
        <ul class="gen-warnings" data-testid="warnings">
          {plan.warnings.map((w) => (
            <li key={w.code} class={`gen-warning is-${w.severity}`} data-code={w.code}>
              <strong>{w.severity === 'warning' ? 'Warning' : 'Note'}:</strong> {w.message}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** The derivation in words: every value with its arithmetic and why. */
export function Derivation({ plan }: { plan: Plan }) {
  return (
    <details class="gen-derivation">
      <summary>How each value was derived</summary>
      <dl>
        {plan.derivation.map((step) => (
          <div key={step.field}>
            <dt><code>{step.field}</code> = {String(step.value)}</dt>
            <dd>{step.formula}. {step.why}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
