/** Build-time only: the default manifest, rendered into the page so it shows before (and without) JavaScript. */
import { emitManifest } from '../../drain/emit.ts';
import { plan } from '../../drain/plan.ts';
import { resolveInputs } from '../../drain/resolve.ts';
import { profiles } from '../../profiles/site.ts';
import { highlightHtml } from './highlight.ts';

const defaults = resolveInputs({}, profiles).inputs;

/** The manifest for all-default inputs. */
export const defaultManifest: string = emitManifest(plan(defaults, profiles), defaults, profiles);

/** The default manifest as highlighted HTML (highlight.ts), whose text is `defaultManifest` exactly. */
export const defaultManifestHtml: string = await highlightHtml(defaultManifest);
