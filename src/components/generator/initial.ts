/** Build-time only: the default manifest, rendered into the page so it shows before (and without) JavaScript. */
import { emitManifest } from '../../emit/bundle.ts';
import { plan } from '../../model/plan.ts';
import { resolveInputs } from '../../model/resolve.ts';
import { profiles } from '../../facts/site.ts';
import { outputFacts } from '../../facts/site-output.ts';
import { highlightHtml } from './highlight.ts';

const defaults = resolveInputs({}, profiles).inputs;

const defaultManifest: string = emitManifest(plan(defaults, profiles), defaults, profiles, outputFacts.chart);

/** The default manifest as highlighted HTML (highlight.ts), whose text is `defaultManifest` exactly. */
export const defaultManifestHtml: string = await highlightHtml(defaultManifest);
