/**
 * axe scans for the Playwright specs: the WCAG 2.2 AA rule set, the rules whose outcome depends on the theme's
 * colours (all a second theme needs), and a readable report of what failed.
 */
import { expect, type Page } from '@playwright/test';
import axe, { type Result, type RunOnly } from 'axe-core';

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * The rules of WCAG_TAGS that read colours (axe-core 4.14: the only checks that call its getForegroundColor and
 * getBackgroundColor): text contrast, and a link told from the text around it by colour alone. Everything else
 * axe checks is the same in either theme as long as the theme changes only colours; pages where it hides or shows
 * elements get the full scan in both (see scanDarkTheme).
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * The one exclusion: Starlight's own search button (`button[data-open-modal]`). Its aria-label "Search" differs
 * from its visible text, which includes the shortcut key (label-content-name-mismatch), and it is Starlight's
 * markup, not ours. Only that rule is waived, and only for that button; every other rule checks it.
 */
const SEARCH_BUTTON = 'button[data-open-modal]';
const SEARCH_BUTTON_RULE = 'label-content-name-mismatch';

/**
 * The violations axe finds on the page as it is now: the WCAG 2.2 AA set, or only `rules`, less the exclusion.
 * axe is put into the page once per document and run there (axe.run), reporting only violations in detail.
 * That is what @axe-core/playwright's legacy mode does, less its cost: it injects axe twice on every scan, and
 * its default mode also runs axe in parts, then finishes in a second, blank page with another copy of axe and
 * every element checked sent over. Measured at load average 15-18 on 2 cores, a full scan of the lab page took
 * 70-85 s that way and 20-30 s in legacy mode; the injection alone is 0.3-1.7 s. Cross-origin frames are not
 * scanned; the site has no frames.
 */
export async function scanPage(page: Page, rules?: string[]): Promise<Result[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const runOnly = rules ? { type: 'rule', values: rules } : { type: 'tag', values: WCAG_TAGS };
  const violations = await page.evaluate(
    async (runOnly) =>
      (await (window as unknown as { axe: typeof axe }).axe.run(document, { runOnly, resultTypes: ['violations'] }))
        .violations,
    runOnly as RunOnly,
  );
  const waived = violations.find((v) => v.id === SEARCH_BUTTON_RULE);
  if (!waived) return violations;
  const isSearchButton = await page.evaluate(
    ({ targets, selector }) =>
      targets.map((t) => typeof t === 'string' && !!document.querySelector(t)?.matches(selector)),
    { targets: waived.nodes.map((n) => (n.target.length === 1 ? n.target[0] : null)), selector: SEARCH_BUTTON },
  );
  const nodes = waived.nodes.filter((_, i) => !isSearchButton[i]);
  return violations.flatMap((v) => (v !== waived ? [v] : nodes.length > 0 ? [{ ...v, nodes }] : []));
}

/** Each violation with its rule, impact, help link and up to five elements with what is wrong; '' for none. */
export function describeViolations(violations: Result[]): string {
  return violations
    .map((v) =>
      [
        `${v.id} (${v.impact}): ${v.help} — ${v.helpUrl}`,
        ...v.nodes
          .slice(0, 5)
          .map(
            (n) =>
              `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ').trim()}\n      ${n.html.slice(0, 200)}`,
          ),
      ].join('\n'),
    )
    .join('\n');
}

/** Whether the page has elements that only one theme shows (Starlight's light:sl-hidden and dark:sl-hidden). */
const themeHidesElements = (page: Page): Promise<boolean> =>
  page.evaluate(() => document.querySelector('.light\\:sl-hidden, .dark\\:sl-hidden') !== null);

/**
 * Switch the page, as it is, to the dark theme as a reader's system would, and return the violations of the rules
 * that read colours there (of all of WCAG_TAGS where the theme hides or shows elements).
 */
export async function scanDarkTheme(page: Page): Promise<Result[]> {
  await switchToDark(page);
  return scanPage(page, (await themeHidesElements(page)) ? undefined : COLOUR_RULES);
}

/**
 * Switch to the dark scheme: Starlight's theme script follows a change of prefers-color-scheme while the theme is
 * "auto". Resolves once `data-theme` is dark and no CSS transition is running, so that axe reads the final colours.
 */
async function switchToDark(page: Page): Promise<void> {
  // The listener for the scheme's change is added by the same module that defines starlight-theme-select (a module
  // script here, src/site/unblock-parser.mjs): a change emulated before that module ran would go unheard.
  await page.evaluate(() =>
    Promise.race([
      customElements.whenDefined('starlight-theme-select'),
      new Promise((resolve) => setTimeout(resolve, 10_000)),
    ]),
  );
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(
    page.locator('html'),
    'Starlight\u2019s theme script switches data-theme when the system scheme changes',
  ).toHaveAttribute('data-theme', 'dark', { timeout: 15_000 });
  await page.waitForFunction(
    () => !document.getAnimations().some((a) => a instanceof CSSTransition && a.playState === 'running'),
  );
}
