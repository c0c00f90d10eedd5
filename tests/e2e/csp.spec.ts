/**
 * The Content-Security-Policy: every page in the built sitemap carries one (hash-based, no 'unsafe-inline' for
 * scripts), and no page reports a violation while it loads, hydrates, highlights and is scrolled to the end.
 * What must keep working under it is exercised too: the theme script and switch, Pagefind's search (WebAssembly),
 * the generator's lazy highlighter and the 404 page.
 */
import { expect, test, type Page } from '@playwright/test';
import { scrollThrough, settle, SITEMAP_PATHS } from '../support/site.ts';

/**
 * Start recording CSP violations: the `securitypolicyviolation` events the page fires (recorded from before any
 * of its scripts run) and the console errors Chromium writes for blocked resources.
 */
async function recordViolations(page: Page): Promise<() => Promise<string[]>> {
  const fromConsole: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) fromConsole.push(`console: ${msg.text()}`);
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => {
      seen.push(
        `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`,
      );
    });
  });
  return async () => [
    ...(await page.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])),
    ...fromConsole,
  ];
}

/** The page's policy, from its `<meta http-equiv>`. */
const policyOf = (page: Page) => page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content');

test('the sitemap lists the pages', () => {
  expect(
    SITEMAP_PATHS.length,
    'no pages found in the built sitemap (was the site built into $HITLESS_OUT_DIR?)',
  ).toBeGreaterThan(1);
  for (const path of ['/', '/generator/', '/checker/', '/gateways/', '/model-servers/'])
    expect(SITEMAP_PATHS).toContain(path);
});

for (const path of SITEMAP_PATHS) {
  test(`no CSP violation: ${path}`, async ({ page }) => {
    // Loading, hydrating and scrolling through a long page takes seconds, and far more on a loaded machine.
    test.setTimeout(90_000);
    const violations = await recordViolations(page);
    await page.goto(path);
    await settle(page);
    await scrollThrough(page);
    const policy = await policyOf(page);
    expect(policy, 'the page has a Content-Security-Policy').toMatch(/script-src 'self'[^;]* 'sha256-/);
    expect(policy, 'scripts are not allowed inline wholesale').not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(await violations()).toEqual([]);
  });
}

test('under the policy, the theme script runs and the theme switch works', async ({ page }) => {
  const violations = await recordViolations(page);
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
  const violations = await recordViolations(page);
  await page.goto('/generator/');
  await expect(page.locator('.gen[data-hydrated=true]')).toBeVisible({ timeout: 10_000 });
  await expect(page.locator('[data-testid=manifest].is-highlighted')).toBeVisible({ timeout: 10_000 });
  // A change is highlighted by the Web Worker (worker-src 'self'), as the policy allows.
  await page.locator('#in-max-output-tokens').fill('8192');
  // (is-highlighted marks a manifest whose highlighted HTML is for its current text.)
  await expect(page.locator('[data-testid=manifest].is-highlighted')).toContainText(
    '# Inputs changed from defaults: --max-output-tokens 8192',
    { timeout: 20_000 },
  );
  expect(await page.locator('[data-testid=manifest] span[style]').count()).toBeGreaterThan(100);
  expect(await violations()).toEqual([]);
});

test('under the policy, site search finds pages (Pagefind compiles WebAssembly)', async ({ page }) => {
  const violations = await recordViolations(page);
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
  const violations = await recordViolations(page);
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
