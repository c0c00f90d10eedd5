/** The manifest emitter and the yaml library, split out so the page can load them on first use. */
import { emitOutput } from '../../emit/output.ts';
import { OutputError } from '../../emit/files.ts';
import type { Plan } from '../../model/plan.ts';
import type { Profiles } from '../../facts/profiles.ts';
import type { DrainInputs } from '../../model/resolve.ts';
import { outputFacts } from '../../facts/site-output.ts';

/** What the page shows for the chosen output form: its text, or the field that keeps it from being made. */
export interface PageOutput {
  text: string;
  problem?: { flag: string; message: string };
}

/** The chosen output form's text; inputs the form cannot use give a comment and the field's problem instead. */
export function emitForPage(plan: Plan, inputs: DrainInputs, profiles: Profiles): PageOutput {
  try {
    return { text: emitOutput(plan, inputs, profiles, outputFacts).text };
  } catch (error) {
    if (!(error instanceof OutputError)) throw error;
    return {
      text: `# No ${inputs.output} output for these inputs: ${error.message}.\n`,
      problem: { flag: error.flag, message: error.message },
    };
  }
}
