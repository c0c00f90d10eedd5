/**
 * The manifest generator: a form over the drain model's inputs, the annotated manifest and the plan.
 * The whole state is the set of values the reader changed, mirrored in the URL query.
 *
 * The first render is the server's, complete: the default manifest highlighted at build time (the `manifestHtml`
 * slot), the form, the plan and the derivation. The island's props hold only what that render needs (the default
 * gateway and model server); the emitter and every other profile load on the reader's first focus or click, or at
 * once for a link with settings. Changes the reader makes before they arrive wait for them where they must
 * (a gateway or model-server choice) and use the loaded profiles otherwise.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import './generator.css';
import { FIELDS, GROUPS, fieldFor, type FieldSpec } from '../../model/fields.ts';
import { defaultsFor, gatewayById, modelServerById, resolveInputs } from '../../model/resolve.ts';
import { plan as planFor } from '../../model/plan.ts';
import { decodeQuery, encodeQuery, LONG_QUERY_NOTICE } from '../../model/url-state.ts';
import type { Migration } from '../../model/migrate.ts';
import { fieldHelpParts, type FieldHelpParts } from '../../model/field-help.ts';
import { planRelease } from '../../model/plan-release.ts';
import { MigrationNotice } from './MigrationNotice.tsx';
import type { Profiles } from '../../facts/profiles.ts';
import type { ComponentChildren } from 'preact';
import { InputField } from './InputField.tsx';
import { ManifestOutput, type InvalidField } from './ManifestOutput.tsx';
import { loadAllProfiles, type ProfileChoices } from './profile-choices.ts';
import type { PageOutput } from './emitter.ts';
import { Derivation, PlanSummary } from './PlanSummary.tsx';
import { presetConflicts, type PendingPreset } from './presets.ts';
import { LazyTimeline } from './LazyTimeline.tsx';
import { useAddressFollows } from './address.ts';
import { fieldHidden, hiddenFieldsNote } from './field-visibility.ts';
import { formatValue, inputErrorLines } from './plan-text.ts';

interface Props {
  /** The profiles the first render needs: the default gateway and model server, and the request defaults. */
  initialProfiles: Profiles;
  /** Every gateway and model server by id and name, for the selects. */
  choices: ProfileChoices;
  /** Slot: the default manifest as highlighted HTML, rendered at build time. */
  manifestHtml?: ComponentChildren;
}

type Emit = typeof import('./emitter.ts')['emitForPage'];

/** What changes need: the emitter (and the yaml library) and every profile. */
interface Loaded {
  emit: Emit;
  profiles: Profiles;
}

let loading: Promise<Loaded> | undefined;

/** Load the emitter and every profile once; the default state needs neither. */
function loadForChanges(): Promise<Loaded> {
  loading ??= Promise.all([import('./emitter.ts'), loadAllProfiles()])
    .then(([m, profiles]) => ({ emit: m.emitForPage, profiles }))
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}

/** What a narrow screen shows after the reader's choice in the Inputs | Manifest switch (both before one). */
type View = 'inputs' | 'manifest';

/** Groups most readers leave alone; they start folded. */
const FOLDED_GROUPS = ['probes', 'names'];

/** The generator island. Server-rendered with the defaults; after hydration it reads the URL. */
export default function Generator({ initialProfiles, choices, manifestHtml }: Props) {
  const [raw, setRaw] = useState<Record<string, string>>({});
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  /** A gateway or model-server choice made before every profile had loaded: applied once they have. */
  const [deferred, setDeferred] = useState<[string, string] | null>(null);
  /** True until the reader's first change: the server's markup for the manifest and derivation stays in place. */
  const [pristine, setPristine] = useState(true);
  const profiles = loaded?.profiles ?? initialProfiles;
  const emit = loaded?.emit ?? null;
  const [notices, setNotices] = useState<string[]>([]);
  const [migration, setMigration] = useState<Migration | null>(null);
  const [pending, setPending] = useState<PendingPreset | null>(null);
  // A folded group the reader opened (true) or closed (false) by its summary; absent: open when a field is changed.
  const [foldedChoice, setFoldedChoice] = useState<Record<string, boolean>>({});
  // The narrow screen's switch: the part chosen last, and a count so that a second tap scrolls to it again.
  const [view, setView] = useState<{ part: View; taps: number } | null>(null);
  useEffect(() => {
    if (!view) return;
    document.getElementById(view.part === 'manifest' ? 'gen-output' : 'gen-inputs')?.scrollIntoView({ block: 'start' });
  }, [view]);
  const show = (part: View) => setView((prev) => ({ part, taps: (prev?.taps ?? 0) + 1 }));
  const root = useRef<HTMLDivElement>(null);
  const presetFirstButton = useRef<HTMLButtonElement>(null);
  const lastEmitted = useRef<PageOutput | null>(null);
  const wantEmitter = () => {
    if (loaded) return;
    loadForChanges().then(setLoaded, () => setLoadFailed(true));
  };
  // The URL is written only once the reader changes something (or a link had to be rewritten): a plain visit to
  // /generator/ keeps its address.
  const urlWritable = useRef(false);

  // A plain link changes nothing: hydration stays one pass. A link with settings marks the manifest pending, waits
  // for every profile, then reads them (an unknown gateway's notice names every known one).
  const [linkPending, setLinkPending] = useState(false);
  const markHydrated = () => root.current?.setAttribute('data-hydrated', 'true');
  // The query the page was opened with. Once the reader changes something the address follows the inputs, so the
  // address read when the profiles arrive may hold a value from before the reader's last keystroke.
  const openedWith = useRef('');
  useEffect(() => {
    openedWith.current = window.location.search;
    // The head's script (src/site/long-link.mjs) dropped a settings link too long to read; say so.
    if (document.documentElement.dataset.droppedSettings) setNotices([LONG_QUERY_NOTICE]);
    if (window.location.search === '') {
      markHydrated();
      return;
    }
    setLinkPending(true);
    wantEmitter();
  }, []);
  // Hydrated once the pending mark is in the DOM, so that a test never reads the defaults as the link's manifest.
  useEffect(() => {
    if (linkPending) markHydrated();
  }, [linkPending]);
  // Runs once: `loaded` changes only from null to the one loaded object.
  useEffect(() => {
    if (!loaded || openedWith.current === '') return;
    const state = decodeQuery(openedWith.current, loaded.profiles);
    if (Object.keys(state.raw).length > 0) {
      setRaw(state.raw);
      setPristine(false);
    }
    if (state.notices.length > 0) setNotices(state.notices);
    if (state.migration) setMigration(state.migration);
    urlWritable.current = true;
    setLinkPending(false);
  }, [loaded]);
  // A choice made while the profiles loaded goes through the usual path (and its preset question) now.
  useEffect(() => {
    if (!loaded || !deferred) return;
    setDeferred(null);
    onInput(deferred[0], deferred[1]);
  }, [loaded, deferred]);

  const resolved = useMemo(() => resolveInputs(raw, profiles), [raw, profiles]);
  const { inputs } = resolved;
  const defaults = useMemo(
    () => defaultsFor(profiles, inputs.gateway, inputs.modelServer),
    [profiles, inputs.gateway, inputs.modelServer],
  );
  const planned = useMemo(() => planFor(inputs, profiles), [inputs, profiles]);
  const isDefault = Object.values(raw).every((v) => v.trim() === '') && resolved.errors.length === 0;
  // null: the default manifest, as the server rendered it (highlighted at build time).
  const emitted = useMemo(() => {
    if (isDefault) return null;
    if (emit) return emit(planned, inputs, profiles);
    return lastEmitted.current;
  }, [isDefault, emit, planned, inputs, profiles]);
  lastEmitted.current = emitted;
  const manifest = emitted?.text ?? null;
  const files = emitted?.files ?? null;
  // Benchmark marks (scripts/bench.ts): input event → new manifest text in the DOM, before paint.
  useLayoutEffect(() => {
    if (performance.getEntriesByName('hitless:input', 'mark').length === 0) return;
    performance.measure('hitless:input-to-manifest', 'hitless:input');
    performance.clearMarks('hitless:input');
  }, [manifest]);
  const manifestPending = linkPending || (!emit && !isDefault);
  const errors = new Map(resolved.errors.map((e) => [e.flag, e.message]));
  // An input the chosen output form cannot use (lws over one node) is that field's problem.
  if (emitted?.problem && !errors.has(emitted.problem.flag)) errors.set(emitted.problem.flag, emitted.problem.message);
  const invalid: InvalidField[] = [...errors.keys()].map((flag) => ({ flag, label: fieldFor(flag)?.label ?? flag }));
  const inputErrors = useMemo(() => inputErrorLines(resolved.errors, inputs, planned), [resolved, planned]);

  // An alertdialog takes the focus when it opens (WAI-ARIA): its first button, "Use the preset's values".
  useEffect(() => {
    if (pending) presetFirstButton.current?.focus();
  }, [pending]);

  // The address follows the inputs (when the browser is idle: address.ts), not while a link's own settings are read.
  const query = useMemo(() => encodeQuery(inputs, profiles), [inputs, profiles]);
  useAddressFollows(urlWritable.current && !linkPending ? query : null);

  const setValue = (flag: string, value: string) => {
    performance.mark('hitless:input');
    urlWritable.current = true;
    wantEmitter();
    setPristine(false);
    setRaw((prev) => ({ ...prev, [flag]: value }));
  };

  const onInput = (flag: string, value: string) => {
    if (flag === 'gateway' || flag === 'model-server') {
      if (!loaded) {
        setDeferred([flag, value]);
        wantEmitter();
        return;
      }
      const conflicts = presetConflicts(profiles, inputs, raw, flag, value);
      if (conflicts.length > 0) {
        setPending({ flag, value, conflicts });
        return;
      }
    }
    setPending(null);
    setValue(flag, value);
  };

  const applyPending = (usePreset: boolean) => {
    if (!pending) return;
    urlWritable.current = true;
    setRaw((prev) => {
      const next = { ...prev, [pending.flag]: pending.value };
      if (usePreset) for (const c of pending.conflicts) delete next[c.flag];
      return next;
    });
    setPending(null);
    // Back to the select the question came from.
    document.getElementById(`in-${pending.flag}`)?.focus();
  };

  const presetName = (p: PendingPreset) =>
    p.flag === 'gateway' ? gatewayById(profiles, p.value).name : modelServerById(profiles, p.value).name;

  const optionsFor = (spec: FieldSpec): [string, string][] | undefined => {
    if (spec.key === 'gateway') return choices.gateways.map((g) => [g.id, g.name]);
    if (spec.key === 'modelServer') return choices.modelServers.map((m) => [m.id, m.name]);
    return undefined;
  };

  const valueOf = (spec: FieldSpec): string => {
    if (deferred && deferred[0] === spec.flag) return deferred[1];
    if (spec.flag in raw) return raw[spec.flag];
    const d = defaults[spec.key];
    return d === undefined ? '' : String(d);
  };

  const helpOf = (spec: FieldSpec): FieldHelpParts | undefined =>
    spec.default === 'profile' && spec.key === 'tpotMs' ? fieldHelpParts(spec, profiles) : undefined;

  const formState = { gateway: inputs.gateway, output: inputs.output, raw, errors };

  const placeholderOf = (spec: FieldSpec): string | undefined => {
    if (spec.key === 'maxRequestSeconds') return `derived: ${planned.maxRequestSeconds}`;
    if (spec.key === 'modelServerVersion') {
      const { release } = planRelease(
        { ...inputs, modelServerVersion: undefined },
        modelServerById(profiles, inputs.modelServer),
      );
      return release === null ? 'unknown: the image tag names no release' : `from the image: ${release}`;
    }
    if (spec.key === 'removalSeconds' && defaults.removalSeconds === undefined)
      return `from health checks: ${planned.removalSeconds}`;
    if (spec.group === 'gateway' && defaults[spec.key] === undefined) return 'not used';
    return undefined;
  };

  return (
    <div class="gen" ref={root} data-hydrated="false" data-view={view?.part}>
      {migration ? <MigrationNotice migration={migration} onDismiss={() => setMigration(null)} /> : null}
      {notices.length > 0 ? (
        <div class="gen-notices" role="status" data-testid="notices">
          <p>
            <strong>Some settings in the link could not be used:</strong>
          </p>
          <ul>
            {notices.map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
          <button type="button" onClick={() => setNotices([])}>
            Dismiss
          </button>
        </div>
      ) : null}
      <p class="gen-skip">
        <a href="#gen-manifest-heading">Skip to the manifest</a>
      </p>
      {/* A narrow screen shows the inputs or the manifest, one tap apart; a wide one shows both (generator.css). */}
      {/* biome-ignore lint/a11y/useSemanticElements: a group of toggle buttons, not a fieldset of form controls */}
      <div class="gen-switch" role="group" aria-label="Show" data-testid="view-switch">
        <button type="button" aria-pressed={view?.part !== 'manifest'} onClick={() => show('inputs')}>
          Inputs
        </button>
        <button type="button" aria-pressed={view?.part === 'manifest'} onClick={() => show('manifest')}>
          Manifest
        </button>
      </div>
      <div class="gen-layout">
        <form
          id="gen-inputs"
          class="gen-form"
          onSubmit={(e) => e.preventDefault()}
          aria-label="Drain settings"
          onFocusIn={wantEmitter}
          onPointerDown={wantEmitter}
        >
          {GROUPS.map((group) => {
            const fields = FIELDS.filter((f) => f.group === group.id);
            const hidden = fields.filter((spec) => fieldHidden(choices, formState, spec));
            const note = hiddenFieldsNote(choices, hidden);
            const shown = fields.filter((spec) => !hidden.includes(spec));
            const rows = shown.map((spec) => (
              <div key={spec.flag}>
                <InputField
                  spec={spec}
                  value={valueOf(spec)}
                  placeholder={placeholderOf(spec)}
                  error={errors.get(spec.flag)}
                  changed={spec.flag in raw && raw[spec.flag] !== String(defaults[spec.key] ?? '')}
                  options={optionsFor(spec)}
                  onInput={onInput}
                  help={helpOf(spec)}
                />
                {pending && pending.flag === spec.flag ? (
                  <div
                    class="gen-preset-confirm"
                    role="alertdialog"
                    aria-labelledby="gen-preset-q"
                    aria-describedby="gen-preset-values"
                    data-testid="preset-confirm"
                    onKeyDown={(e) => {
                      if (e.key === 'Escape') {
                        e.preventDefault();
                        applyPending(false);
                      }
                    }}
                  >
                    <p id="gen-preset-q">
                      The {presetName(pending)} preset has its own value{pending.conflicts.length === 1 ? '' : 's'} for{' '}
                      {pending.conflicts.length === 1 ? 'a field' : 'fields'} you changed. Replace your value
                      {pending.conflicts.length === 1 ? '' : 's'} with the preset&rsquo;s?
                    </p>
                    <ul id="gen-preset-values">
                      {pending.conflicts.map((c) => {
                        const field = fieldFor(c.flag);
                        const preset = c.presetValue === '(not used)' ? 'not used' : formatValue(field, c.presetValue);
                        return (
                          <li key={c.flag} data-flag={c.flag}>
                            {field?.label ?? c.flag} (<code>--{c.flag}</code>): yours {formatValue(field, raw[c.flag])},
                            the preset&rsquo;s {preset}
                          </li>
                        );
                      })}
                    </ul>
                    <button type="button" ref={presetFirstButton} onClick={() => applyPending(true)}>
                      Use the preset&rsquo;s values
                    </button>
                    <button type="button" onClick={() => applyPending(false)}>
                      Keep my values
                    </button>
                  </div>
                ) : null}
              </div>
            ));
            if (note)
              rows.push(
                <p key="hidden-note" class="gen-hidden-note" data-testid={`hidden-note-${group.id}`}>
                  {note}
                </p>,
              );
            if (!FOLDED_GROUPS.includes(group.id)) {
              return (
                <fieldset key={group.id} class="gen-group">
                  <legend>{group.label}</legend>
                  {rows}
                </fieldset>
              );
            }
            // Rarely changed groups start folded, and open when one of their fields is changed or wrong.
            // Their fields are rendered only once open, which keeps hydration short. The summary's click (Enter and
            // Space included) opens the group and renders its fields in the same update, so the next Tab reaches them;
            // the native toggle, which would render them a task later, is prevented.
            // A wrong field keeps its group open; a changed one opens it until the reader folds it again.
            const hasError = fields.some((f) => errors.has(f.flag));
            const open = hasError || (foldedChoice[group.id] ?? fields.some((f) => f.flag in raw));
            const onSummaryClick = (e: Event) => {
              e.preventDefault();
              setFoldedChoice((prev) => ({ ...prev, [group.id]: !open }));
            };
            return (
              <details key={group.id} class="gen-group gen-folded" open={open}>
                {/* biome-ignore lint/a11y/noStaticElementInteractions: a summary is the details' own button (Enter and Space click it) */}
                <summary onClick={onSummaryClick}>{group.label}</summary>
                <fieldset>
                  <legend class="sr-only">{group.label}</legend>
                  {open ? rows : null}
                </fieldset>
              </details>
            );
          })}
          <p class="gen-reset">
            <button
              type="button"
              onClick={() => {
                urlWritable.current = true;
                setRaw({});
                setPending(null);
                setDeferred(null);
              }}
            >
              Reset every input
            </button>
          </p>
        </form>
        <div class="gen-output-cell">
          {loadFailed && !emit ? (
            <p class="gen-load-failed" role="alert">
              The page could not load what it needs to update the manifest: reload the page to try again.
            </p>
          ) : null}
          <ManifestOutput
            files={files}
            form={inputs.output}
            serverHtml={manifestHtml}
            fileName={`${inputs.name}.yaml`}
            pending={manifestPending}
            invalid={invalid}
          />
        </div>
        <div class="gen-result">
          <PlanSummary plan={planned} inputErrors={inputErrors} />
          <LazyTimeline plan={planned} profiles={profiles} />
          <Derivation plan={planned} keep={pristine} />
        </div>
      </div>
    </div>
  );
}
