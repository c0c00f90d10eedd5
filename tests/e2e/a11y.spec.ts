/**
 * Accessibility of every page in the built sitemap: an axe scan at WCAG 2.2 AA (tags wcag2a, wcag2aa, wcag21a,
 * wcag21aa, wcag22aa) in the light and the dark theme, and readability at phone width (375 px, no horizontal
 * page scroll, and every region that scrolls sideways there takes keyboard focus: axe's scrollable-region-focusable).
 * The one exclusion is Starlight's own search button (`button[data-open-modal]`): its aria-label
 * "Search" differs from its visible text, which includes the shortcut key (label-content-name-mismatch), and
 * it is Starlight's markup, not ours.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { settle, SITEMAP_PATHS } from '../support/site.ts';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** Both Starlight themes by default; A11Y_THEMES=light (or dark) halves the run when time is short. */
const THEMES = (process.env.A11Y_THEMES ?? 'light,dark')
  .split(',')
  .map((t) => t.trim())
  .filter((t): t is 'light' | 'dark' => t === 'light' || t === 'dark');
const PHONE = { width: 375, height: 812 };
/**
 * An axe scan of a large page (the generator with its sidebar, the lab's charts) takes several seconds on an idle
 * machine and over 30 on a loaded one; the limit is for a hung page, not a slow scan.
 */
const SCAN_TIMEOUT_MS = 120_000;

test('the sitemap lists pages, and the server serves the same sitemap', async ({ request }) => {
  expect(
    SITEMAP_PATHS.length,
    'no pages found in the built sitemap (was the site built into $HITLESS_OUT_DIR?)',
  ).toBeGreaterThan(1);
  const served = await (await request.get('/sitemap-0.xml')).text();
  const servedPaths = [...served.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  expect(servedPaths.length).toBeGreaterThan(0);
  for (const p of servedPaths)
    expect(SITEMAP_PATHS, `the served sitemap lists ${p}, the build's does not`).toContain(p);
});

for (const path of SITEMAP_PATHS) {
  for (const scheme of THEMES) {
    test(`axe WCAG 2.2 AA, ${scheme} theme: ${path}`, async ({ page }) => {
      test.setTimeout(SCAN_TIMEOUT_MS);
      await page.emulateMedia({ colorScheme: scheme });
      const response = await page.goto(path);
      expect(response?.status(), `${path} should load`).toBe(200);
      await settle(page);
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
      const results = await new AxeBuilder({ page }).withTags(TAGS).exclude('button[data-open-modal]').analyze();
      const report = results.violations
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
      expect(report, `axe found ${results.violations.length} violation(s) on ${path} (${scheme})`).toBe('');
    });
  }
}

for (const path of SITEMAP_PATHS) {
  test(`readable at 375 px without horizontal scrolling: ${path}`, async ({ page }) => {
    test.setTimeout(SCAN_TIMEOUT_MS);
    await page.setViewportSize(PHONE);
    await page.goto(path);
    await settle(page);
    const { scrollWidth, offenders } = await page.evaluate((width) => {
      // What sticks out past the right edge without a scrolling or clipping ancestor to contain it: a box that is
      // too wide, or one whose content (a long unbreakable word, a wide table) overflows it. Deepest first.
      const clipped = (el: Element) => {
        for (let p = el.parentElement; p && p !== document.body; p = p.parentElement)
          if (getComputedStyle(p).overflowX !== 'visible') return true;
        return false;
      };
      const sticksOut = [...document.querySelectorAll('body *')].filter((el) => {
        const box = el.getBoundingClientRect();
        if (box.width === 0) return false;
        const extent = Math.max(
          box.right,
          box.left + (getComputedStyle(el).overflowX === 'visible' ? el.scrollWidth : 0),
        );
        return extent > width + 0.5 && !clipped(el);
      });
      const deepest = sticksOut.filter((el) => !sticksOut.some((other) => other !== el && el.contains(other)));
      const describe = (el: Element) => {
        const box = el.getBoundingClientRect();
        const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
        return `${name} reaches ${Math.round(Math.max(box.right, box.left + el.scrollWidth))} px: "${(el.textContent ?? '').trim().slice(0, 80)}"`;
      };
      return { scrollWidth: document.documentElement.scrollWidth, offenders: deepest.slice(0, 8).map(describe) };
    }, PHONE.width);
    expect(
      scrollWidth,
      `${path} scrolls sideways at ${PHONE.width} px; widest elements:\n  ${offenders.join('\n  ')}`,
    ).toBeLessThanOrEqual(PHONE.width);
    // What scrolls sideways at this width (a wide table in its region) must be reachable by keyboard to scroll it.
    // Expressive Code makes a code block that scrolls focusable from a script once its size is known.
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.expressive-code pre')].every(
        (pre) => pre.scrollWidth <= pre.clientWidth || pre.hasAttribute('tabindex'),
      ),
    );
    const focusable = await new AxeBuilder({ page })
      .withRules(['scrollable-region-focusable'])
      .exclude('button[data-open-modal]')
      .analyze();
    expect(
      focusable.violations.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.html.slice(0, 120)}`)),
      `${path} has regions that scroll at ${PHONE.width} px but take no keyboard focus`,
    ).toEqual([]);
  });
}
