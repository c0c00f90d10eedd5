/** The messages between the checker page and its Web Worker (check-worker.ts), and the check that answers them. */
import {
  checkManifest,
  fixManifest,
  settingErrors,
  type CheckReport,
  type FixedManifest,
  type InputProblem,
} from '../../check/index.ts';
import type { Profiles } from '../../facts/profiles.ts';

/** What the page shows for the current text and settings. */
export type Outcome =
  | { state: 'empty' }
  | { state: 'problem'; problem: InputProblem }
  | { state: 'checked'; report: CheckReport; fixed: FixedManifest };

/** Check this text with these settings; `id` pairs the reply with the request. */
export interface CheckRequest {
  id: number;
  text: string;
  settings: Record<string, string>;
}

/** The settings' errors ([flag, message]) and the outcome, or the message of an exception the check threw. */
export type CheckReply = { id: number; errors: [string, string][]; outcome: Outcome } | { id: number; failed: string };

/** Answer one request: the settings' errors, then the outcome for the text (in the worker, or on the page without one). */
export function answerCheck(request: CheckRequest, profiles: Profiles): CheckReply {
  const errors = settingErrors(request.settings, profiles).map((e): [string, string] => [e.flag, e.message]);
  if (request.text.trim() === '') return { id: request.id, errors, outcome: { state: 'empty' } };
  const result = checkManifest(request.text, request.settings, profiles);
  if (!result.ok) return { id: request.id, errors, outcome: { state: 'problem', problem: result.problem } };
  const fixed = fixManifest(result.manifest, result.report.findings);
  // The page shows each fix's text; its edits are already in the fixed manifest, and copying them to the page costs
  // time on its main thread for nothing.
  const findings = result.report.findings.map((f) => (f.fix ? { ...f, fix: { text: f.fix.text, edits: [] } } : f));
  return { id: request.id, errors, outcome: { state: 'checked', report: { ...result.report, findings }, fixed } };
}
