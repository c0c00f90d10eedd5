/** The plan beside the manifest: the key numbers, the inputs it could not use, and the warnings. */
import type { Plan } from '../../model/plan.ts';
import { describeStep, SEVERITY_LABELS, sortWarnings, splitFlags } from './plan-text.ts';
import { serverContent } from './keep-server.ts';

/** Message text with each flag name in code that does not wrap at its dashes. */
export function FlagText({ text }: { text: string }) {
  return (
    <>
      {splitFlags(text).map((part, i) =>
        part.flag ? (
          <code key={i} class="gen-flag">
            {part.text}
          </code>
        ) : (
          part.text
        ),
      )}
    </>
  );
}

interface Props {
  plan: Plan;
  /** One sentence per input the plan could not use (see `inputErrorLines`). */
  inputErrors?: string[];
}

/** The plan's numbers; `data-plan` carries the whole plan as JSON for tests and tools. */
export function PlanSummary({ plan, inputErrors = [] }: Props) {
  const warnings = sortWarnings(plan.warnings);
  return (
    <section class="gen-plan" data-testid="plan" data-plan={JSON.stringify(plan)} aria-labelledby="gen-plan-heading">
      <h2 id="gen-plan-heading">Plan</h2>
      {/* Each run of text is one string, as the server writes it: hydration then splits no text node. */}
      <p class="gen-plan-line" aria-live="polite">
        {'Grace period '}
        <strong>{`${plan.terminationGracePeriodSeconds}s`}</strong>
        {` = ${plan.preStopSeconds}s preStop + ${plan.drainSeconds}s drain + ${plan.teardownSeconds}s teardown; `
          + `rollout maxSurge ${plan.strategy.maxSurge}, maxUnavailable ${plan.strategy.maxUnavailable}.`}
      </p>
      <p class="gen-plan-rollout" data-testid="plan-rollout">
        {'Rollout, worst case '}
        <strong>{`${plan.rolloutSeconds}s`}</strong>
        {` = ${plan.rolloutSteps} step${plan.rolloutSteps === 1 ? '' : 's'} × `
          + `(${plan.rolloutStepSeconds - plan.terminationGracePeriodSeconds}s model load + `
          + `${plan.terminationGracePeriodSeconds}s grace); ${plan.rolloutServingReplicas} of `
          + `${plan.rolloutServingReplicas + plan.strategy.maxUnavailable} replicas serve during a step `
          + `(${plan.rolloutCapacityPercent}%).`
          + (plan.podDisruptionBudget
            ? ' A PodDisruptionBudget lets evictions take one pod at a time.'
            : ' No PodDisruptionBudget.')}
      </p>
      {inputErrors.length > 0 ? (
        <ul class="gen-warnings" data-testid="plan-input-errors">
          {inputErrors.map((line, i) => (
            <li key={i} class="gen-warning is-error">
              <FlagText text={line} />
            </li>
          ))}
        </ul>
      ) : null}
      {warnings.length > 0 ? (
        <ul class="gen-warnings" data-testid="warnings">
          {warnings.map((w) => (
            <li key={w.code} class={`gen-warning is-${w.severity}`} data-code={w.code} data-severity={w.severity}>
              <strong>{`${SEVERITY_LABELS[w.severity]}:`}</strong>
              <FlagText text={` ${w.message}`} />
              {w.see ? (
                <>
                  {' '}
                  <a href={w.see.path}>{w.see.label}</a>.
                </>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/**
 * The derivation in words: every value with its arithmetic and why, named as a reader knows it. With `keep`, the
 * list is the server's markup, left as it is through hydration (see keep-server.ts).
 */
export function Derivation({ plan, keep = false }: { plan: Plan; keep?: boolean }) {
  return (
    <details class="gen-derivation" data-testid="derivation">
      <summary>How each value was derived</summary>
      <dl
        {...serverContent(
          keep,
          plan.derivation.map((step) => {
            const { label, manifestKey, value } = describeStep(step);
            return (
              <div key={step.field} data-field={step.field}>
                <dt>
                  {label} = <FlagText text={value} />
                  {manifestKey ? (
                    <>
                      {' '}
                      <span class="gen-derivation-key">
                        (<code>{manifestKey}</code>)
                      </span>
                    </>
                  ) : null}
                </dt>
                <dd>
                  <FlagText text={`${step.formula}. ${step.why}`} />
                </dd>
              </div>
            );
          }),
        )}
      />
    </details>
  );
}
