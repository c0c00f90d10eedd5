/**
 * The site search's Pagefind UI, loaded only when a reader reaches for the search (src/site/Search.astro): the
 * ~94 KB of Pagefind's UI code are parsed and run then, not on every page load.
 *
 * Until it is mounted, the dialog holds a stand-in: a copy of Pagefind's form, styled by Pagefind's own CSS. A
 * reader may already have typed into it; mounting replaces it with Pagefind's form in one step, carries over the
 * text, the caret and the focus, and starts the search for that text.
 */
import { PagefindUI } from '@pagefind/default-ui';
import { pagefindUserConfig } from 'virtual:starlight/pagefind-config';

type Result = { url: string; sub_results: Array<{ url: string }> };

/** `/a/b/` → `/a/b`, `/a/b/#c` → `/a/b#c`: result links for a site built with `trailingSlash: 'never'`. */
const stripTrailingSlash = (path: string) => path.replace(/(.)\/(#.*)?$/, '$1$2');

/** Parse the dialog's Pagefind translations (Starlight's `pagefind.*` strings), or none if unreadable. */
function readTranslations(root: HTMLElement): Record<string, string> {
  try {
    return JSON.parse(root.dataset.translations ?? '{}');
  } catch {
    return {};
  }
}

/** Mount Pagefind's UI in the search dialog under `root` (a `<site-search>`), replacing the stand-in form. */
export function mountPagefindUI(root: HTMLElement): void {
  const container = root.querySelector<HTMLElement>('#starlight__search');
  if (!container || container.querySelector('[data-search-stand-in]') === null) return;
  const formatURL = root.dataset.stripTrailingSlash !== undefined ? stripTrailingSlash : (path: string) => path;
  const base = import.meta.env.BASE_URL;
  new PagefindUI({
    ...pagefindUserConfig,
    element: container,
    baseUrl: base,
    bundlePath: `${base.replace(/\/$/, '')}/pagefind/`,
    showImages: false,
    translations: readTranslations(root),
    showSubResults: true,
    processResult: (result: Result) => {
      result.url = formatURL(result.url);
      result.sub_results = result.sub_results.map((sub) => ({ ...sub, url: formatURL(sub.url) }));
    },
  });
  replaceStandIn(container);
}

/** Remove the stand-in form, giving its text, caret and focus to Pagefind's input (which searches on `input`). */
function replaceStandIn(container: HTMLElement): void {
  const standIn = container.querySelector<HTMLElement>('[data-search-stand-in]');
  const from = standIn?.querySelector('input');
  if (!standIn || !from) return;
  const focused = document.activeElement === from;
  const { value, selectionStart, selectionEnd } = from;
  standIn.remove();
  const to = container.querySelector<HTMLInputElement>('.pagefind-ui__search-input');
  if (!to) return;
  if (focused) to.focus();
  if (value !== '') {
    to.value = value;
    to.dispatchEvent(new Event('input', { bubbles: true }));
    if (focused) to.setSelectionRange(selectionStart, selectionEnd);
  }
}
