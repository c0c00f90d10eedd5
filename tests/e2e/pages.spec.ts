/**
 * Every page in the built sitemap, loaded once and checked for what each page owes on its own:
 * - the Content-Security-Policy: a hash-based policy (no 'unsafe-inline' for scripts), and no violation while the
 *   page loads, hydrates, is scrolled to the end, is scanned, switches theme and narrows to a phone;
 * - no outside requests over the same visit: no fonts, analytics, CDNs or images from another origin;
 * - accessibility: an axe scan at WCAG 2.2 AA (wcag2a, wcag2aa, wcag21a, wcag21aa, wcag22aa) in the light theme,
 *   and the rules that read colours again in the dark theme (tests/support/axe.ts says why those are all it needs);
 * - readability at phone width (375 px): no horizontal page scroll, and every region that scrolls sideways there
 *   takes keyboard focus (axe's scrollable-region-focusable).
 * Each check is a soft assertion, so a page that fails several says so in one run.
 * Starlight's search button is left out of the scans: see SEARCH_BUTTON in tests/support/axe.ts.
 * The site search, the generator in use, the theme switch and the 404 page are in csp.spec.ts and network.spec.ts.
 */
import { expect, type Page, test } from '@playwright/test';
import { describeViolations, scanDarkTheme, scanPage } from '../support/axe.ts';
import { recordCspViolations, recordRequests } from '../support/record.ts';
import { codeBlocksFocusable, SITEMAP_PATHS, scrollThrough, settle } from '../support/site.ts';

const PHONE = { width: 375, height: 812 };
/**
 * Loading a page, two axe scans and a third at phone width take seconds on an idle machine; a full scan of a large
 * page (the generator with its sidebar, the lab's charts) alone took over 30 s on a loaded one. The limit is for
 * a hung page, not a slow scan.
 */
const PAGE_TIMEOUT_MS = 180_000;

/**
 * How wide the page is, and what sticks out past the right edge without a scrolling or clipping ancestor to
 * contain it: a box that is too wide, or one whose content (a long unbreakable word, a wide table) overflows it.
 * Deepest first, at most eight.
 */
const measureWidth = (page: Page, width: number) =>
  page.evaluate((width) => {
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
  }, width);

test('the sitemap lists the pages, and the server serves the same sitemap', async ({ request }) => {
  expect(
    SITEMAP_PATHS.length,
    'no pages found in the built sitemap (was the site built into $HITLESS_OUT_DIR?)',
  ).toBeGreaterThan(1);
  for (const path of ['/', '/generator/', '/checker/', '/gateways/', '/model-servers/'])
    expect(SITEMAP_PATHS).toContain(path);
  const served = await (await request.get('/sitemap-0.xml')).text();
  const servedPaths = [...served.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  expect(servedPaths.length).toBeGreaterThan(0);
  for (const p of servedPaths)
    expect(SITEMAP_PATHS, `the served sitemap lists ${p}, the build's does not`).toContain(p);
});

// One test per page; the pages are independent, so both workers share them (the config runs a file's tests in order).
test.describe.configure({ mode: 'parallel' });

for (const path of SITEMAP_PATHS) {
  test(`${path}: CSP and no violation, only same-origin requests, axe WCAG 2.2 AA in both themes, readable at 375 px`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(PAGE_TIMEOUT_MS);
    const cspViolations = await recordCspViolations(page);
    const requests = recordRequests(page, new URL(baseURL!).origin);

    await test.step('load, hydrate and scroll through, in the light theme', async () => {
      await page.emulateMedia({ colorScheme: 'light' });
      const response = await page.goto(path);
      expect(response?.status(), `${path} should load`).toBe(200);
      // A classic inline script in the body stops the parser until the stylesheets load (src/site/unblock-parser.mjs).
      const parserBlocking = await page.evaluate(() =>
        [...document.body.querySelectorAll('script:not([src])')]
          .filter((s) =>
            /^\s*((text|application)\/(x-)?(java|ecma)script(1\.[0-5])?|text\/jscript|text\/livescript)?\s*$/i.test(
              s.getAttribute('type') ?? '',
            ),
          )
          .map((s) => s.outerHTML.slice(0, 80)),
      );
      expect.soft(parserBlocking, `${path} has classic inline scripts in its body`).toEqual([]);
      // An SVG favicon is rasterized as an SVG document on the page's main thread (scripts/render-favicon.ts).
      const icons = await page.evaluate(() =>
        [...document.querySelectorAll('link[rel~="icon"]')].map((l) => (l as HTMLLinkElement).href),
      );
      expect.soft(icons.length, `${path} links a favicon`).toBeGreaterThan(0);
      for (const href of icons) {
        const icon = await page.request.get(href);
        expect.soft(icon.headers()['content-type'], `${href} is a raster image`).toBe('image/png');
      }
      await settle(page);
      await scrollThrough(page);
      const policy = await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content');
      expect.soft(policy, 'the page has a Content-Security-Policy').toMatch(/script-src 'self'[^;]* 'sha256-/);
      expect.soft(policy, 'scripts are not allowed inline wholesale').not.toMatch(/script-src[^;]*'unsafe-inline'/);
    });

    await test.step('axe WCAG 2.2 AA, light theme', async () => {
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
      await codeBlocksFocusable(page);
      const light = await scanPage(page);
      expect.soft(describeViolations(light), `axe found ${light.length} violation(s) on ${path} (light)`).toBe('');
    });

    await test.step('axe, dark theme: the rules that read colours (all, where the theme hides elements)', async () => {
      const dark = await scanDarkTheme(page);
      expect.soft(describeViolations(dark), `axe found ${dark.length} violation(s) on ${path} (dark)`).toBe('');
    });

    await test.step(`readable at ${PHONE.width} px without horizontal scrolling`, async () => {
      await page.setViewportSize(PHONE);
      // Resize observers report in the frame after the resize; what they change is laid out by the next.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const { scrollWidth, offenders } = await measureWidth(page, PHONE.width);
      expect
        .soft(
          scrollWidth,
          `${path} scrolls sideways at ${PHONE.width} px; widest elements:\n  ${offenders.join('\n  ')}`,
        )
        .toBeLessThanOrEqual(PHONE.width);
      // What scrolls sideways at this width (a wide table in its region) must be reachable by keyboard to scroll it.
      await codeBlocksFocusable(page);
      const focusable = await scanPage(page, ['scrollable-region-focusable']);
      expect
        .soft(
          focusable.flatMap((v) => v.nodes.map((n) => `${n.target.join(' ')}: ${n.html.slice(0, 120)}`)),
          `${path} has regions that scroll at ${PHONE.width} px but take no keyboard focus`,
        )
        .toEqual([]);
    });

    // Over the whole visit: load, hydration, scrolling, the scans, the theme switch and the narrowing.
    expect.soft(requests.sameOrigin(), 'the recorder saw the page load').toBeGreaterThan(0);
    expect.soft(requests.outside, `${path} requested other origins`).toEqual([]);
    expect.soft(await cspViolations(), `${path} reported CSP violations`).toEqual([]);
  });
}
