/**
 * The output forms of one plan: `bundle` (the whole manifest, `bundle.ts`), `patch` (`patch.ts`),
 * `helm-values` (`helm-values.ts`) and `lws` (`lws.ts`). The CLI's `--output` and the generator's
 * "Output form" select both come here.
 */
import type { Plan } from '../model/plan.ts';
import type { OutputFacts, Profiles } from '../facts/profiles.ts';
import type { DrainInputs } from '../model/resolve.ts';
import { emitManifest } from './bundle.ts';
import { joinFiles, type EmittedOutput, type OutputFile } from './files.ts';
import { patchFiles } from './patch.ts';
import { helmValuesFiles } from './helm-values.ts';
import { lwsFiles } from './lws.ts';

/** The bundle's one file name. */
const BUNDLE_FILE = 'manifest.yaml';

/**
 * The files of the output form the inputs ask for. Throws `OutputError` (naming the flag) when the inputs do not
 * fit the form: an lws form for a server with no multi-node launch, GPUs that do not split over the nodes.
 */
export function emitOutput(plan: Plan, inputs: DrainInputs, profiles: Profiles, facts: OutputFacts): EmittedOutput {
  let files: OutputFile[];
  switch (inputs.output) {
    case 'patch':
      files = patchFiles(plan, inputs, profiles, facts.chart);
      break;
    case 'helm-values':
      files = helmValuesFiles(plan, inputs, profiles, facts.chart);
      break;
    case 'lws':
      files = lwsFiles(plan, inputs, profiles, facts.lws, facts.chart);
      break;
    default: {
      const text = emitManifest(plan, inputs, profiles, facts.chart);
      return { form: 'bundle', files: [{ name: BUNDLE_FILE, purpose: 'the whole manifest', text }], text };
    }
  }
  return { form: inputs.output, files, text: joinFiles(files) };
}
