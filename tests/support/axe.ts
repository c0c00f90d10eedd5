/**
 * axe scans for the Playwright specs: the WCAG 2.2 AA rule set, the rules whose outcome depends on the theme's
 * colours (all a second theme needs), and a readable report of what failed.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import type { Result } from 'axe-core';

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

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
 * Two settings make a scan two to three times faster (the lab page: 70-85 s to 20-30 s at load average 15 on two
 * cores): only violations are reported in detail (resultTypes), and axe runs in the page itself (legacy mode)
 * rather than in parts per frame finished in a second, blank page, which costs a page, another copy of axe and
 * the transfer of every element checked. Legacy mode leaves out cross-origin frames only; the site has none.
 */
export async function scanPage(page: Page, rules?: string[]): Promise<Result[]> {
  // options() replaces the builder's options wholesale, so it comes before withTags/withRules add runOnly.
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).setLegacyMode(true);
  const { violations } = await (rules ? builder.withRules(rules) : builder.withTags(WCAG_TAGS)).analyze();
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
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(
    page.locator('html'),
    'Starlight\u2019s theme script switches data-theme when the system scheme changes',
  ).toHaveAttribute('data-theme', 'dark', { timeout: 15_000 });
  await page.waitForFunction(
    () => !document.getAnimations().some((a) => a instanceof CSSTransition && a.playState === 'running'),
  );
}
