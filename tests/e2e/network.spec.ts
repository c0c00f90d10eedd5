/**
 * No outside requests: every page in the built sitemap, loaded, settled (islands hydrated, lazy highlighting
 * loaded) and scrolled to the end, requests nothing from any origin but its own: no fonts, analytics, CDNs or
 * images from elsewhere. The site search (Pagefind, loaded on first use) and the generator's first input (which
 * loads the emitter lazily) are exercised too, since they fetch after the page has loaded.
 */
import { expect, test, type Page } from '@playwright/test';
import { generate } from '../support/generate.ts';
import { scrollThrough, settle, SITEMAP_PATHS } from '../support/site.ts';

/** Start recording every request (and WebSocket) the page makes to another origin. */
function recordOutside(page: Page, origin: string): string[] {
  const outside: string[] = [];
  const check = (url: string, what: string) => {
    if (/^(data|blob|about):/.test(url)) return;
    if (new URL(url).origin !== origin) outside.push(`${what} ${url}`);
  };
  page.on('request', (request) => check(request.url(), request.resourceType()));
  page.on('websocket', (ws) => check(ws.url(), 'websocket'));
  return outside;
}

for (const path of SITEMAP_PATHS) {
  test(`only same-origin requests: ${path}`, async ({ page, baseURL }) => {
    const origin = new URL(baseURL!).origin;
    const outside = recordOutside(page, origin);
    let sameOrigin = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).origin === origin) sameOrigin++;
    });
    await page.goto(path);
    await settle(page);
    await scrollThrough(page);
    expect(sameOrigin, 'the recorder saw the page load').toBeGreaterThan(0);
    expect(outside, `${path} requested other origins`).toEqual([]);
  });
}

test('site search loads its index from the site itself', async ({ page, baseURL }) => {
  const origin = new URL(baseURL!).origin;
  const outside = recordOutside(page, origin);
  const pagefind: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/pagefind/')) pagefind.push(r.url());
  });
  await page.goto('/');
  await page.waitForLoadState('load');
  await page.locator('button[data-open-modal]').first().click();
  // Pagefind builds its input when the dialog first opens; keys typed before that would be lost.
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
  const outside = recordOutside(page, origin);
  await page.goto('/generator/');
  await settle(page);
  await page.locator('#in-max-output-tokens').fill('8192');
  const { plan } = generate({ 'max-output-tokens': '8192' });
  await expect(page.locator('[data-testid=manifest]')).toContainText(`--shutdown-timeout=${plan.drainSeconds}`);
  await page.waitForLoadState('networkidle');
  expect(outside, 'the generator requested other origins').toEqual([]);
});
