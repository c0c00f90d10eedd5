// @ts-check
/**
 * Classic inline scripts in a page's `<body>` become module scripts, so the HTML parser never waits for the
 * stylesheets.
 *
 * Why: a classic `<script>` (no `type`, no `src`) may read styles, so the parser stops at it until every stylesheet
 * above it has loaded. Starlight renders four in the header and the sidebar (the theme pickers, the sidebar's state),
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

/**
 * Whether a start tag's attributes name an attribute (case-insensitive), outside quoted values.
 * @param {string} attributes
 * @param {string} attribute
 */
function hasAttribute(attributes, attribute) {
  const unquoted = attributes.replace(/"[^"]*"|'[^']*'/g, '""');
  return new RegExp(`(^|[\\s/])${attribute}(\\s*=|[\\s/]|$)`, 'i').test(unquoted);
}

/**
 * The page with every classic inline script inside `<body>` marked `type="module"`. Scripts with a `type` (JSON,
 * modules) or a `src`, scripts before the `<body>` tag, and text that only looks like a tag (inside comments,
 * scripts, styles, textareas, attribute values) are left as they are. A page without a `<body>` tag is unchanged.
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
    const classic = !hasAttribute(tag.attributes, 'type') && !hasAttribute(tag.attributes, 'src');
    if (inBody && tag.name === 'script' && classic) {
      out.push(html.slice(copied, lt), '<script type="module"');
      copied = lt + '<script'.length;
    }
    const endTag = new RegExp(`</${tag.name}[\\s/>]`, 'ig');
    endTag.lastIndex = i;
    const close = endTag.exec(html);
    i = close ? close.index : html.length;
  }
  out.push(html.slice(copied));
  return out.join('');
}
