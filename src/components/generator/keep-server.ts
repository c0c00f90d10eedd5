/**
 * Parts of the island that are static until the reader changes something (the derivation) keep the server's
 * markup through hydration: on the client they render as an element whose inner HTML Preact leaves alone, so
 * hydrating them builds and compares nothing. Once `keep` turns false they render their children as usual.
 */
import type { ComponentChildren } from 'preact';

/** Inner HTML Preact never writes during hydration, nor later while the same value is passed again. */
const SERVER_HTML = { __html: '' };

/** Props for an element's content: its children on the server, and on the client until `keep` is false. */
export function serverContent(keep: boolean, children: ComponentChildren) {
  if (keep && typeof document !== 'undefined') return { dangerouslySetInnerHTML: SERVER_HTML };
  return { children };
}
