// @ts-check
/**
 * A classic script at the top of every page's `<head>` that drops a query longer than the generator reads
 * (MAX_QUERY_LENGTH, 4000 characters, in src/model/url-state.ts; `location.search` adds the `?`) from the address
 * before the parser requests anything: each stylesheet, module and chunk the browser requests while the address is a
 * megabyte long costs main-thread time (a 1 MB settings link held the generator's main thread 1.1 s, measured with a
 * Chromium trace, before it was ignored). It marks the page so that the generator says it ignored the link. No page
 * reads a query that long. A test keeps the number equal to MAX_QUERY_LENGTH + 1; its hash is in the CSP
 * (src/site/csp.mjs); being in `<head>`, unblock-parser.mjs leaves it a classic script.
 */
export const LONG_LINK_SCRIPT =
  "if(location.search.length>4001){document.documentElement.dataset.droppedSettings=String(location.search.length-1);history.replaceState(history.state,'',location.pathname+location.hash)}";
