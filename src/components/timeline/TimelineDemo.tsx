/**
 * The timeline island of the guide pages: the drain timeline with a few controls of its own. Removal and
 * the longest request are inputs of the drain model (the plan is recomputed); preStop, drain and grace are
 * values you might deploy instead of the plan's, to see which requests they refuse or cut.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { modelServerById, resolveInputs } from '../../model/resolve.ts';
import { plan as planFor } from '../../model/plan.ts';
import type { Profiles } from '../../facts/profiles.ts';
import type { TimelineOverrides } from '../../model/timeline.ts';
import { Timeline } from './Timeline.tsx';

/** The controls a page can show, in display order. */
const ORDER = ['gateway', 'modelServer', 'removal', 'longest', 'preStop', 'drain', 'grace'] as const;
type ControlId = (typeof ORDER)[number];

/** Model inputs by control, keyed by their drain-model flag. */
const MODEL_FLAGS: Partial<Record<ControlId, string>> = {
  gateway: 'gateway',
  modelServer: 'model-server',
  removal: 'removal-seconds',
  longest: 'max-request-seconds',
};

const OVERRIDE_KEYS: Partial<Record<ControlId, keyof TimelineOverrides>> = {
  preStop: 'preStopSeconds',
  drain: 'drainSeconds',
  grace: 'terminationGracePeriodSeconds',
};

/** The largest override accepted, one day (the drain cap's own limit). */
const MAX_OVERRIDE_SECONDS = 86400;

interface Props {
  profiles: Profiles;
  /** A name unique on the page; it prefixes every element id (islands cannot share a generated one). */
  id: string;
  /** Which controls to show; all by default. */
  controls?: readonly ControlId[];
  /** Starting values by control, as typed text. */
  initial?: Partial<Record<ControlId, string>>;
  heading?: string;
}

/** Parse an override: empty means the plan's value; otherwise whole seconds in range. */
function parseOverride(text: string, min: number): { value?: number; error?: string } {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  if (!/^\d+$/.test(trimmed) || Number(trimmed) < min || Number(trimmed) > MAX_OVERRIDE_SECONDS) {
    return {
      error: `Enter whole seconds from ${min} to ${MAX_OVERRIDE_SECONDS}, or leave it empty for the plan's value.`,
    };
  }
  return { value: Number(trimmed) };
}

/** The guide-page timeline with its controls. */
export default function TimelineDemo({ profiles, id: name, controls = ORDER, initial = {}, heading }: Props) {
  const uid = `tld-${name}`;
  const [values, setValues] = useState<Partial<Record<ControlId, string>>>(initial);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const shown = ORDER.filter((id) => controls.includes(id));

  const { inputs, errors } = useMemo(() => {
    const raw: Record<string, string> = {};
    for (const [id, flag] of Object.entries(MODEL_FLAGS)) {
      const v = values[id as ControlId];
      if (v !== undefined && v.trim() !== '') raw[flag] = v;
    }
    return resolveInputs(raw, profiles);
  }, [values, profiles]);
  const planned = useMemo(() => planFor(inputs, profiles), [inputs, profiles]);
  const server = modelServerById(profiles, inputs.modelServer);

  const errorOf = new Map<ControlId, string>();
  for (const [id, flag] of Object.entries(MODEL_FLAGS)) {
    const e = errors.find((err) => err.flag === flag);
    if (e) errorOf.set(id as ControlId, e.message);
  }
  const overrides: TimelineOverrides = {};
  for (const [id, key] of Object.entries(OVERRIDE_KEYS) as [ControlId, keyof TimelineOverrides][]) {
    if (!shown.includes(id) || (id === 'drain' && server.drain.kind !== 'flag')) continue;
    const parsed = parseOverride(values[id] ?? '', id === 'grace' ? 1 : 0);
    if (parsed.error) errorOf.set(id, parsed.error);
    else if (parsed.value !== undefined) overrides[key] = parsed.value;
  }
  const overridesKey = JSON.stringify(overrides);
  const stableOverrides = useMemo(() => overrides, [overridesKey]);

  const labels: Record<ControlId, string> = {
    gateway: 'Gateway',
    modelServer: 'Model server',
    removal: 'Removal p99 (s)',
    longest: 'Longest request (s)',
    preStop: 'preStop sleep (s)',
    drain: `Drain, ${server.drain.flag ?? 'drain flag'} (s)`,
    grace: 'Grace period (s)',
  };
  const helps: Record<ControlId, string> = {
    gateway: 'Sets the removal p99 and whether the load balancer only health-checks.',
    modelServer: 'Sets how the server behaves after SIGTERM.',
    removal: `When the slowest routing path stops sending new requests. Now ${planned.removalSeconds} s.`,
    longest: `The longest request the drain must let finish. Now ${planned.maxRequestSeconds} s.`,
    preStop: `Empty: the plan's ${planned.preStopSeconds} s (removal + margin).`,
    drain: `Empty: the plan's ${planned.drainSeconds} s. ${server.drain.defaultSeconds === 0 && server.drain.zeroAborts ? `0, ${server.name}'s default, aborts in-flight requests.` : ''}`,
    grace: `Empty: the plan's ${planned.terminationGracePeriodSeconds} s. It does not follow your other overrides.`,
  };

  const set = (id: ControlId, value: string) => setValues((prev) => ({ ...prev, [id]: value }));

  const field = (id: ControlId) => {
    const inputId = `${uid}-${id}`;
    const error = errorOf.get(id);
    const describedBy = `${inputId}-help${error ? ` ${inputId}-error` : ''}`;
    let control;
    if (id === 'gateway' || id === 'modelServer') {
      const options = id === 'gateway' ? profiles.gateways : profiles.modelServers;
      control = (
        <select
          id={inputId}
          aria-describedby={describedBy}
          value={id === 'gateway' ? inputs.gateway : inputs.modelServer}
          onChange={(e) => set(id, (e.currentTarget as HTMLSelectElement).value)}
        >
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      );
    } else if (id === 'drain' && server.drain.kind !== 'flag') {
      return (
        <div class="tl-field" key={id}>
          <p class="tl-help" id={`${inputId}-help`}>
            {server.name} has no drain flag: {server.drain.whileDraining}
          </p>
        </div>
      );
    } else {
      control = (
        <input
          id={inputId}
          type="text"
          inputMode={id === 'removal' || id === 'longest' ? 'decimal' : 'numeric'}
          autoComplete="off"
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          value={values[id] ?? ''}
          placeholder={
            id === 'removal'
              ? String(planned.removalSeconds)
              : id === 'longest'
                ? String(planned.maxRequestSeconds)
                : 'plan'
          }
          onInput={(e) => set(id, (e.currentTarget as HTMLInputElement).value)}
        />
      );
    }
    return (
      <div class={`tl-field${error ? ' has-error' : ''}`} key={id}>
        <label for={inputId}>{labels[id]}</label>
        {control}
        <p class="tl-help" id={`${inputId}-help`}>
          {helps[id]}
        </p>
        {error ? (
          <p class="tl-error" id={`${inputId}-error`}>
            {error}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <div class="tl-demo not-content" data-testid="timeline-demo" data-hydrated={hydrated ? 'true' : 'false'}>
      <form class="tl-controls" aria-label="Timeline settings" onSubmit={(e) => e.preventDefault()}>
        {shown.map(field)}
        <p class="tl-reset">
          <button type="button" onClick={() => setValues(initial)}>
            Reset
          </button>
        </p>
      </form>
      <Timeline
        plan={planned}
        profiles={profiles}
        overrides={stableOverrides}
        heading={heading}
        idPrefix={`tl-${name}`}
      />
    </div>
  );
}
