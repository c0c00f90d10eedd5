/** The manifest emitter and the yaml library, split out so the page can load them on first use. */
import { emitOutput } from '../../emit/output.ts';
import { OutputError, type OutputFile } from '../../emit/files.ts';
import type { Plan } from '../../model/plan.ts';
import type { Profiles } from '../../facts/profiles.ts';
import type { DrainInputs } from '../../model/resolve.ts';
import { outputFacts } from '../../facts/site-output.ts';

/** What the page shows for the chosen output form: its files, or the field that keeps it from being made. */
export interface PageOutput {
  /** Every file as one text (`# File:` lines between them), as `hitless generate` prints it. */
  text: string;
  /** The form's files, one tab each when there are several. */
  files: OutputFile[];
  problem?: { flag: string; message: string };
}

/** The chosen output form's files; inputs the form cannot use give a comment and the field's problem instead. */
export function emitForPage(plan: Plan, inputs: DrainInputs, profiles: Profiles): PageOutput {
  try {
    const { text, files } = emitOutput(plan, inputs, profiles, outputFacts);
    return { text, files };
  } catch (error) {
    if (!(error instanceof OutputError)) throw error;
    const text = `# No ${inputs.output} output for these inputs: ${error.message}.\n`;
    return {
      text,
      files: [{ name: `${inputs.name}.yaml`, purpose: `no ${inputs.output} output for these inputs`, text }],
      problem: { flag: error.flag, message: error.message },
    };
  }
}
