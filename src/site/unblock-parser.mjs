// @ts-check
/**
 * Classic inline scripts in a page's `<body>` become module scripts, so the HTML parser never waits for the
 * stylesheets.
 *
 * Why: a classic inline `<script>` (no `src`; no `type`, an empty one or a JavaScript one) may read styles, so the
 * parser stops at it until every stylesheet above it has loaded. Starlight renders four in the header and the sidebar (the theme pickers, the sidebar's state),
 * Astro one or two before the first island, the site search one. On a first visit the parser stopped at the first
 * of them, under the header, for as long as the stylesheets took; the browser then painted the header alone and
 * laid out and painted the rest of the page afterwards, in long tasks the reader waited through. A module script
 * does not stop the parser: it runs once the page is parsed and the stylesheets are in, in document order, before
 * `DOMContentLoaded`. The page is parsed while the stylesheets load and the first paint shows it whole.
 *
 * What each of those scripts does later than before, and why that is safe: the theme pickers get the stored theme
 * before they are defined as elements (their own module sets it too); the sidebar's open groups and scroll position
 * are restored on wide screens by a custom element defined when the script runs, and the browser upgrades the
 * elements already parsed, so the state is still restored, before the first paint when the stylesheets are cached;
 * Astro's island loader and the site's `client:interaction` directive keep their order; the search button is enabled
 * when its script runs. The scripts' text is unchanged, so their Content-Security-Policy hashes still match.
 *
 * Scripts in `<head>` are left alone: Starlight's theme script must set the theme before anything paints, and it
 * comes before the stylesheets, so it never waited for them.
 */

/** Elements whose content is text up to their end tag: a `<script` inside them is not a tag. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

/**
 * Where the tag that starts at `start` (a `<` followed by a letter) ends, and its name and attributes; quoted
 * attribute values may hold `>`.
 * @param {string} html
 * @param {number} start
 * @returns {{ name: string, attributes: string, end: number }}
 */
function readTag(html, start) {
  const nameMatch = /^<([A-Za-z][^\s/>]*)/.exec(html.slice(start, start + 64));
  const name = nameMatch ? nameMatch[1].toLowerCase() : '';
  let i = start + 1 + name.length;
  while (i < html.length && html[i] !== '>') {
    const c = html[i];
    if (c === '"' || c === "'") {
      const close = html.indexOf(c, i + 1);
      i = close === -1 ? html.length : close + 1;
    } else i++;
  }
  return { name, attributes: html.slice(start + 1 + name.length, i), end: Math.min(i + 1, html.length) };
}

/** The JavaScript MIME types of the HTML standard: a script typed with one of them, or with an empty type, is classic. */
const JAVASCRIPT_TYPES = new Set([
  'application/ecmascript',
  'application/javascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/javascript',
  'text/javascript1.0',
  'text/javascript1.1',
  'text/javascript1.2',
  'text/javascript1.3',
  'text/javascript1.4',
  'text/javascript1.5',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
]);

/**
 * A start tag's attributes, each with its lower-cased name, its value (quotes removed) and its source text.
 * @param {string} attributes the text between the tag's name and its `>`
 * @returns {{ name: string, value: string | undefined, text: string }[]}
 */
function parseAttributes(attributes) {
  const found = [];
  for (const m of attributes.matchAll(/\s*([^\s"'>/=]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]*))?|\s*\/|\s+/g)) {
    if (!m[1]) continue;
    const raw = m[2];
    const value = raw === undefined ? undefined : /^["']/.test(raw) ? raw.slice(1, -1) : raw;
    found.push({ name: m[1].toLowerCase(), value, text: m[0] });
  }
  return found;
}

/**
 * Whether a `<script>` start tag makes a classic script run in place: no `src` (an external classic script without
 * `defer` or `async` blocks too, but the site has none and moving it would change when it loads), and no `type`, an
 * empty one or a JavaScript MIME type.
 * @param {{ name: string, value: string | undefined }[]} attributes
 */
function isClassicInline(attributes) {
  if (attributes.some((a) => a.name === 'src')) return false;
  const type = attributes.find((a) => a.name === 'type');
  if (!type || type.value === undefined) return true;
  const essence = type.value.trim().toLowerCase();
  return essence === '' || JAVASCRIPT_TYPES.has(essence);
}

/**
 * The page with every classic inline script inside `<body>` marked `type="module"` (a JavaScript `type` it had is
 * replaced). Scripts of another type (JSON, modules) or with a `src`, scripts before the `<body>` tag, and text that
 * only looks like a tag (inside comments, scripts, styles, textareas, attribute values) are left as they are. A page
 * without a `<body>` tag is unchanged.
 * @param {string} html
 * @returns {string}
 */
export function unblockParser(html) {
  const out = [];
  let copied = 0;
  let inBody = false;
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) break;
    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4);
      i = close === -1 ? html.length : close + 3;
      continue;
    }
    if (!/[A-Za-z]/.test(html[lt + 1] ?? '')) {
      i = lt + 1;
      continue;
    }
    const tag = readTag(html, lt);
    i = tag.end;
    if (tag.name === 'body') inBody = true;
    if (!RAW_TEXT.has(tag.name)) continue;
    if (inBody && tag.name === 'script') {
      const attributes = parseAttributes(tag.attributes);
      if (isClassicInline(attributes)) {
        const kept = attributes.filter((a) => a.name !== 'type').map((a) => a.text);
        out.push(html.slice(copied, lt), '<script type="module"', ...kept);
        copied = lt + 1 + tag.name.length + tag.attributes.length;
      }
    }
    const endTag = new RegExp(`</${tag.name}[\\s/>]`, 'ig');
    endTag.lastIndex = i;
    const close = endTag.exec(html);
    i = close ? close.index : html.length;
  }
  out.push(html.slice(copied));
  return out.join('');
}
