/**
 * No outside requests from what fetches after a page has loaded: the site search (Pagefind, loaded on first use)
 * and the generator's first input (which loads the emitter lazily). That every page in the sitemap, loaded,
 * hydrated and scrolled through, requests nothing from another origin is checked in pages.spec.ts.
 */
import { expect, test } from '@playwright/test';
import { generate } from '../support/generate.ts';
import { recordRequests } from '../support/record.ts';
import { settle, SITEMAP_PATHS } from '../support/site.ts';

test('site search loads its index from the site itself', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const { outside } = recordRequests(page, origin);
  const pagefind: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/pagefind/')) pagefind.push(r.url());
  });
  await page.goto('/');
  await page.waitForLoadState('load');
  await page.locator('button[data-open-modal]').first().click();
  // The dialog opens on a stand-in field with Pagefind's classes; Pagefind's UI takes it over once loaded
  // (src/site/Search.astro), keeping what was typed.
  const input = page.locator('.pagefind-ui__search-input');
  await expect(input).toBeVisible({ timeout: 15_000 });
  await input.fill('drain');
  await expect(page.locator('.pagefind-ui__result, .pagefind-ui__message').first()).toBeVisible({ timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  expect(pagefind.length, 'searching fetched the Pagefind index').toBeGreaterThan(0);
  expect(outside, 'search requested other origins').toEqual([]);
});

test('the generator, once used, requests nothing from elsewhere', async ({ page, baseURL }) => {
  expect(SITEMAP_PATHS, 'the build has a /generator/ page').toContain('/generator/');
  const origin = new URL(baseURL!).origin;
  const { outside } = recordRequests(page, origin);
  await page.goto('/generator/');
  await settle(page);
  await page.locator('#in-max-output-tokens').fill('8192');
  const { plan } = generate({ 'max-output-tokens': '8192' });
  await expect(page.locator('[data-testid=manifest]')).toContainText(`--shutdown-timeout=${plan.drainSeconds}`);
  await page.waitForLoadState('networkidle');
  expect(outside, 'the generator requested other origins').toEqual([]);
});
