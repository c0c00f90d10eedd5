/**
 * Helpers for the Playwright specs: the built site's pages (from its sitemap) and waiting for a page to settle
 * (islands hydrated, lazy highlighting applied) before it is measured.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The folder the preview server serves: $HITLESS_OUT_DIR, else dist. */
const OUT_DIR = resolve(ROOT, process.env.HITLESS_OUT_DIR ?? 'dist');

/** The `<loc>` URLs of the built sitemap files (sitemap-0.xml, sitemap-1.xml, …). */
function sitemapLocs(): string[] {
  if (!existsSync(OUT_DIR)) return [];
  return readdirSync(OUT_DIR)
    .filter((name) => /^sitemap-\d+\.xml$/.test(name))
    .flatMap((name) =>
      [...readFileSync(join(OUT_DIR, name), 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) =>
        m[1].replace(/&amp;/g, '&'),
      ),
    );
}

/**
 * Every page path in the sitemap (`/`, `/generator/`, …), read when the specs are collected so that each page
 * gets its own test. Pages added to the site are picked up by the next build; nothing here lists them.
 */
export const SITEMAP_PATHS: string[] = [...new Set(sitemapLocs().map((loc) => new URL(loc).pathname))].sort();

/** Whether the build has a page at this path (for specs about pages that may not exist yet, like /checker/). */
export const hasPage = (path: string): boolean => SITEMAP_PATHS.includes(path);

/**
 * Hydrate a `client:interaction` island (the generator, the checker) the way a reader's pointer does, by moving
 * over it, and wait until it says it has hydrated (`data-hydrated="true"` on its root, `selector`). Harmless on
 * one that has already hydrated (a link with settings hydrates the generator at once). Specs call this instead of
 * waiting on `data-hydrated` themselves, so how an island is brought to life is decided here alone.
 */
export async function hydrated(page: Page, selector: '.gen' | '.chk'): Promise<void> {
  await page.locator(selector).dispatchEvent('pointerover');
  // A slow machine takes longer than the usual limit to load and run an island's code; a hydrated one passes at once.
  await expect(page.locator(`${selector}[data-hydrated="true"]`)).toBeVisible({ timeout: 30_000 });
}

/** An island's component chunk as the build names it: /_astro/Generator.<hash>.js. */
const islandCode = (component: 'Generator' | 'Checker'): RegExp => new RegExp(`/_astro/${component}\\.[\\w-]+\\.js$`);

/** Hold back the requests for `url` until the returned function is called, as on a slow phone. */
export async function holdRequests(page: Page, url: string | RegExp): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Hold back an island's code until the returned function is called. */
export function holdIslandCode(page: Page, component: 'Generator' | 'Checker'): Promise<() => void> {
  return holdRequests(page, islandCode(component));
}

/** The requests for an island's code from now on (its URLs, in the order requested). */
export function recordIslandCode(page: Page, component: 'Generator' | 'Checker'): string[] {
  const requested: string[] = [];
  page.on('request', (r) => {
    if (islandCode(component).test(r.url())) requested.push(r.url());
  });
  return requested;
}

/**
 * The non-empty text nodes under `selector`, in document order. Equal before and after hydration means hydration
 * split or rewrote no text (a split text node is laid out again); an empty one changes nothing a reader sees.
 */
export async function textNodes(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluate((root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const texts: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node as Text).data;
      if (text !== '') texts.push(text);
    }
    return texts;
  });
}

/**
 * Wait until the page's eager islands have hydrated (Astro removes `ssr` from an island once it has) and, where
 * the page has a manifest view, until its lazy highlighting is applied, so that axe sees the final colours.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.waitForFunction(
    () => !document.querySelector('astro-island[ssr][client="load"], astro-island[ssr][client="idle"]'),
    undefined,
    { timeout: 10_000 },
  );
  if ((await page.locator('[data-testid=manifest]').count()) > 0) {
    await page
      .locator('[data-testid=manifest].is-highlighted')
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => {
        /* highlighting is optional */
      });
  }
}

/**
 * Scroll to the end one viewport at a time, a frame or two on each, so that every client:visible island (the
 * timelines) sees itself on screen and hydrates; then back to the top. Resolves once every client:visible island
 * with something on screen to show has hydrated (Astro removes `ssr` from it); a client:interaction island waits
 * for a reader, not for the scroll.
 */
export async function scrollThrough(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // A frame, or 100 ms if none comes: a renderer that has stopped drawing (seen twice under CI's load, each a
    // 3-minute hang here) must not stall the scroll.
    const frame = () =>
      new Promise<void>((r) => {
        requestAnimationFrame(() => r());
        setTimeout(r, 100);
      });
    for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight) {
      window.scrollTo(0, y);
      // An IntersectionObserver reports after the frame that drew the new position.
      await frame();
      await frame();
    }
    window.scrollTo(0, 0);
  });
  // An island is display: contents; what it shows is its children's boxes (none while inside a closed <details>).
  // One the scroll passed before its observer reported is brought into view again, one at a time.
  await page.waitForFunction(
    () => {
      const waiting = [...document.querySelectorAll('astro-island[ssr][client="visible"]')].filter((island) =>
        [...island.children].some((child) => child.getClientRects().length > 0),
      );
      waiting[0]?.firstElementChild?.scrollIntoView({ block: 'center' });
      return waiting.length === 0;
    },
    undefined,
    { polling: 250 },
  );
  await page.evaluate(() => window.scrollTo(0, 0));
}

/**
 * Wait until every Expressive Code block that scrolls sideways takes keyboard focus: Expressive Code's script
 * gives such a block its tabindex once it knows the block's size (and again after a resize).
 */
export async function codeBlocksFocusable(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.expressive-code pre')].every(
      (pre) => pre.scrollWidth <= pre.clientWidth || pre.hasAttribute('tabindex'),
    ),
  );
}
