/**
 * The manifest checker: paste a manifest, see what will drop requests during a rollout, copy the fixed
 * manifest. The check and the fix run in a Web Worker (check-worker.ts), so a large manifest never blocks the
 * page; the text never leaves the browser.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import '../generator/generator.css';
import './checker.css';
import type { CheckReport } from '../../check/index.ts';
import { describeCounts } from '../../check/rules/findings.ts';
import { fieldFor } from '../../model/fields.ts';
import type { Profiles } from '../../facts/profiles.ts';
import { defaultsFor, DEFAULT_GATEWAY, DEFAULT_MODEL_SERVER, gatewayById } from '../../model/resolve.ts';
import { InputField } from '../generator/InputField.tsx';
import { loadAllProfiles, type ProfileChoices } from '../generator/profile-choices.ts';
import { CheckSettings } from './CheckSettings.tsx';
import type { Outcome } from './check-messages.ts';
import { createCheckRunner } from './check-runner.ts';
import { EXAMPLE_MANIFEST } from './example.ts';
import { FindingsList } from './FindingsList.tsx';
import { FixedManifest } from './FixedManifest.tsx';
import { ManifestInput, selectLineIn } from './ManifestInput.tsx';

interface Props {
  /** The default gateway's and model server's profiles: all the first render needs. */
  initialProfiles: Profiles;
  /** Every gateway's and model server's id and name, for the selects. */
  choices: ProfileChoices;
}

const GATEWAY_FIELD = fieldFor('gateway')!;

/** How the check came by its gateway, after its name: "(detected from GCPBackendPolicy/m)". */
function gatewaySource(report: CheckReport): string {
  const c = report.checkedFor;
  if (c.source === 'setting') return 'your setting';
  if (c.source === 'manifest') return `detected from ${c.from}`;
  return 'the default: the manifest names no gateway';
}

/** The checker island. Every profile loads when it hydrates (a manifest may name any gateway); checks wait for them. */
export default function Checker({ initialProfiles, choices }: Props) {
  const [text, setText] = useState('');
  const [raw, setRaw] = useState<Record<string, string>>({});
  const [outcome, setOutcome] = useState<Outcome>({ state: 'empty' });
  const [errors, setErrors] = useState<Map<string, string>>(new Map());
  const [busy, setBusy] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const textarea = useRef<HTMLTextAreaElement | null>(null);

  const [allProfiles, setAllProfiles] = useState<Profiles | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const profiles = allProfiles ?? initialProfiles;
  const runner = useMemo(() => (allProfiles ? createCheckRunner(allProfiles) : null), [allProfiles]);
  // The fixed manifest renders a task after the findings, so that neither makes one long task on a large manifest.
  const [fixedShown, setFixedShown] = useState(false);
  useEffect(() => {
    if (fixedShown || outcome.state !== 'checked') return undefined;
    const handle = setTimeout(() => setFixedShown(true), 0);
    return () => clearTimeout(handle);
  }, [outcome, fixedShown]);

  useEffect(() => {
    setHydrated(true);
    loadAllProfiles().then(setAllProfiles, () => setLoadFailed(true));
  }, []);
  useEffect(() => () => runner?.dispose(), [runner]);

  useEffect(() => {
    // Until every profile has loaded there is nothing to check with; the text and settings wait.
    if (!runner) return undefined;
    let cancelled = false;
    setBusy(true);
    const handle = setTimeout(async () => {
      const reply = await runner.run(text, raw);
      if (cancelled || !reply) return;
      if ('failed' in reply) {
        const message = `The checker failed on this input (${reply.failed}); please report it with the manifest.`;
        setOutcome({ state: 'problem', problem: { message } });
      } else {
        setErrors(new Map(reply.errors));
        setOutcome(reply.outcome);
      }
      setFixedShown(false);
      setBusy(false);
    }, 200);
    return () => {
      cancelled = true;
      clearTimeout(handle);
    };
  }, [text, raw, runner]);

  const report = outcome.state === 'checked' ? outcome.report : undefined;
  const gateway = raw.gateway || report?.inputs.gateway || DEFAULT_GATEWAY;
  const modelServer = raw['model-server'] || report?.inputs.modelServer || DEFAULT_MODEL_SERVER;
  // Until every profile has loaded, a gateway or model server chosen meanwhile shows the defaults' values.
  const defaults = useMemo(
    () =>
      defaultsFor(
        profiles,
        profiles.gateways.some((g) => g.id === gateway) ? gateway : DEFAULT_GATEWAY,
        profiles.modelServers.some((m) => m.id === modelServer) ? modelServer : DEFAULT_MODEL_SERVER,
      ),
    [profiles, gateway, modelServer],
  );
  const showLine = (line: number) => {
    if (textarea.current) selectLineIn(textarea.current, line);
  };
  const loadExample = () => setText(EXAMPLE_MANIFEST);
  const focusGateway = () => document.getElementById('in-gateway')?.focus();
  const setSetting = (flag: string, value: string) => setRaw((prev) => ({ ...prev, [flag]: value }));
  const gatewayOptions: [string, string][] = [
    ['', `Detect from the manifest (else ${gatewayById(initialProfiles, DEFAULT_GATEWAY).name})`],
    ...choices.gateways.map((g): [string, string] => [g.id, g.name]),
  ];
  const assumedCount = report ? report.findings.filter((f) => f.assumed && f.assumed.length > 0).length : 0;
  const summary =
    outcome.state === 'checked'
      ? outcome.report.workloads === 0
        ? `No model-server workload was checked, so this is not a pass (${describeCounts(outcome.report.counts)})`
        : describeCounts(outcome.report.counts)
      : outcome.state === 'problem'
        ? 'The input cannot be checked'
        : 'Nothing checked yet';

  return (
    <div
      class="chk"
      data-hydrated={hydrated ? 'true' : 'false'}
      data-busy={busy || (hydrated && !runner && !loadFailed) ? 'true' : 'false'}
    >
      <div class="chk-layout">
        <div class="chk-left">
          <div class="gen-form chk-gateway">
            <InputField
              spec={{
                ...GATEWAY_FIELD,
                help: 'The gateway in front of the InferencePool. Detect reads a GKE policy, a Gateway\u2019s class, an Envoy AI Gateway route or the generator\u2019s header comment.',
              }}
              value={raw.gateway ?? ''}
              error={errors.get('gateway')}
              changed={Boolean(raw.gateway)}
              options={gatewayOptions}
              onInput={setSetting}
            />
          </div>
          <ManifestInput text={text} onText={setText} textareaRef={textarea} onLoadExample={loadExample} />
        </div>
        <div class="chk-right">
          <section aria-labelledby="chk-findings-heading">
            <h2 id="chk-findings-heading">Findings</h2>
            <p
              class="chk-count"
              role="status"
              aria-live="polite"
              data-testid="findings-count"
              data-errors={report?.counts.error ?? ''}
              data-warnings={report?.counts.warning ?? ''}
            >
              {summary
                + (report ? ` in ${report.workloads} model-server workload${report.workloads === 1 ? '' : 's'}.` : '.')}
            </p>
            {report ? (
              <p
                class="chk-checked-for"
                data-testid="checked-for"
                data-gateway={report.checkedFor.gateway}
                data-source={report.checkedFor.source}
              >
                Checked for: <strong>{report.checkedFor.name}</strong>{' '}
                <span class="chk-hint">({gatewaySource(report)})</span>{' '}
                <button type="button" class="chk-line" onClick={focusGateway} aria-label="Change the gateway">
                  change
                </button>
              </p>
            ) : null}
            {assumedCount > 0 ? (
              <p class="chk-checked-for" data-testid="assumed-count">
                Assumed: {assumedCount} warning{assumedCount === 1 ? '' : 's'} would be{' '}
                {assumedCount === 1 ? 'an error' : 'errors'} on inputs the manifest does not state; each names the
                settings to give (under Settings).
              </p>
            ) : null}
            {loadFailed ? (
              <p class="chk-problem" role="alert" data-testid="load-failed">
                The page could not load the gateway and model-server data the check needs: reload the page to try again.
              </p>
            ) : null}
            {outcome.state === 'empty' ? (
              <div class="chk-empty">
                <p class="chk-hint">Paste a manifest, or load the example, to see what a rollout would drop.</p>
                <p>
                  <button type="button" onClick={loadExample} data-testid="load-example-findings">
                    Load the example manifest
                  </button>{' '}
                  <span class="chk-hint">GIE v1.5.0&rsquo;s reference vLLM Deployment and an InferencePool.</span>
                </p>
              </div>
            ) : null}
            {outcome.state === 'problem' ? (
              <p class="chk-problem" role="alert" data-testid="input-problem">
                {outcome.problem.message}
                {outcome.problem.line !== undefined && !/line \d+/.test(outcome.problem.message)
                  ? ` (line ${outcome.problem.line}${outcome.problem.column ? `, column ${outcome.problem.column}` : ''})`
                  : ''}
                {outcome.problem.line !== undefined ? (
                  <>
                    {' '}
                    <button type="button" class="chk-line" onClick={() => showLine(outcome.problem.line!)}>
                      Show line {outcome.problem.line}
                    </button>
                  </>
                ) : null}
              </p>
            ) : null}
            <FindingsList findings={report?.findings ?? []} onShowLine={showLine} />
          </section>
          {report?.generator ? (
            <p class="chk-generator">
              <a href={`/generator/?${report.generator.query}`} data-testid="generator-link">
                Open the generator with these settings
              </a>{' '}
              <span class="chk-hint">
                (what the manifest states plus your settings:{' '}
                {report.generator.flags ? <code>{report.generator.flags}</code> : 'all defaults'})
              </span>
            </p>
          ) : null}
          {outcome.state !== 'checked' || !fixedShown ? null : outcome.fixed.edits > 0 ? (
            <FixedManifest
              text={outcome.fixed.text}
              original={text}
              edits={outcome.fixed.edits}
              skipped={outcome.fixed.skipped}
              onCheckAgain={() => {
                setText(outcome.fixed.text);
                textarea.current?.focus();
              }}
            />
          ) : (
            <p class="chk-hint" data-testid="nothing-to-fix">
              Nothing to fix.
            </p>
          )}
        </div>
        <details class="chk-settings-box" open>
          <summary>Settings: gateway, requests, cluster</summary>
          <CheckSettings
            choices={choices}
            gateway={gateway}
            raw={raw}
            defaults={defaults}
            errors={errors}
            onInput={setSetting}
            onReset={() => setRaw({})}
          />
        </details>
      </div>
    </div>
  );
}
