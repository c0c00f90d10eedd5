/** GIE's inferencepool chart facts (content/outputs/gie-inferencepool.yaml), which every output form's install reads. */
import { readOutputFacts } from '../../src/facts/read-output-files.ts';

/** The chart facts, read once per test process. */
export const chart = readOutputFacts().chart;
