/**
 * The Content-Security-Policy, for what must keep working under it: the theme script and switch, Pagefind's search
 * (WebAssembly), the generator's lazy highlighter and the 404 page. That every page in the sitemap carries the
 * policy and reports no violation while it loads, hydrates and is scrolled through is checked in pages.spec.ts.
 */
import { expect, test, type Page } from '@playwright/test';
import { hydrated } from '../support/site.ts';
import { recordCspViolations } from '../support/record.ts';

/** The page's policy, from its `<meta http-equiv>`. */
const policyOf = (page: Page) => page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content');

test('under the policy, the theme script runs and the theme switch works', async ({ page }) => {
  const violations = await recordCspViolations(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  // The inline theme script set the theme from the system preference before first paint.
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.locator('starlight-theme-select select').first().selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(page.locator('html'), 'the choice is kept across pages').toHaveAttribute('data-theme', 'dark');
  expect(await violations()).toEqual([]);
});

test('under the policy, the generator hydrates and highlights its manifest', async ({ page }) => {
  const violations = await recordCspViolations(page);
  await page.goto('/generator/');
  await hydrated(page, '.gen');
  await expect(page.locator('[data-testid=manifest].is-highlighted')).toBeVisible({ timeout: 10_000 });
  // A change is highlighted by the Web Worker (worker-src 'self'), as the policy allows.
  await page.locator('#in-max-output-tokens').fill('8192');
  // (is-highlighted marks a manifest whose highlighted HTML is for its current text.)
  await expect(page.locator('[data-testid=manifest].is-highlighted')).toContainText(
    '# Inputs changed from defaults: --max-output-tokens 8192',
    { timeout: 20_000 },
  );
  expect(await page.locator('[data-testid=manifest] span[class^="tok-"]').count()).toBeGreaterThan(100);
  expect(await violations()).toEqual([]);
});

test('under the policy, site search finds pages (Pagefind compiles WebAssembly)', async ({ page }) => {
  const violations = await recordCspViolations(page);
  await page.goto('/');
  await page.waitForLoadState('load');
  await page.locator('button[data-open-modal]').first().click();
  const input = page.locator('.pagefind-ui__search-input');
  await expect(input).toBeVisible({ timeout: 15_000 });
  await input.fill('preStop');
  await expect(page.locator('.pagefind-ui__result').first()).toBeVisible({ timeout: 15_000 });
  expect(await violations()).toEqual([]);
});

test('the 404 page has the policy, no violation, and the ways back in', async ({ page }) => {
  const violations = await recordCspViolations(page);
  const response = await page.goto('/no-such-page/');
  expect(response?.status()).toBe(404);
  await page.waitForLoadState('load');
  expect(await policyOf(page)).toMatch(/script-src 'self'/);
  const main = page.locator('main');
  for (const href of ['/generator/', '/checker/', '/gateways/', '/model-servers/']) {
    await expect(main.locator(`a[href="${href}"]`)).toHaveCount(1);
  }
  expect(await violations()).toEqual([]);
});
