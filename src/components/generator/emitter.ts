/** The manifest emitter and the yaml library, split out so the page can load them on first use. */
export { emitManifest } from '../../drain/emit.ts';
