/**
 * No dead ends: from the generator and the checker a reader on a phone (375 px) has the site's menu, reaches the
 * gateway comparison through it, and has the theme switch; the 404 page offers the main entry points; no page links
 * a made-up repository.
 */
import { expect, test, type Page } from '@playwright/test';
import { settle } from '../support/site.ts';

const PHONE = { width: 375, height: 812 };

/** Open the phone menu (Starlight's sidebar in a popover) and return it. */
async function openMenu(page: Page) {
  const toggle = page.getByRole('button', { name: 'Menu' });
  await expect(toggle, 'the page has the menu button').toBeVisible();
  await toggle.click();
  const menu = page.locator('#starlight__sidebar');
  await expect(menu).toBeVisible();
  return menu;
}

for (const path of ['/generator/', '/checker/']) {
  test.describe(`${path} at 375 px`, () => {
    test.use({ viewport: PHONE });

    test('the menu has the theme switch, and it switches; it leads to the gateway comparison', async ({ page }) => {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.goto(path);
      await settle(page);
      const menu = await openMenu(page);
      const theme = menu.getByRole('combobox', { name: 'Select theme' });
      await expect(theme).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      await theme.selectOption('light');
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
      // The same menu, still open, leads on to the gateway comparison.
      await menu.getByRole('link', { name: 'Compare gateways' }).click();
      await expect(page).toHaveURL(/\/gateways\/$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Compare gateways');
    });
  });
}

test.describe('404 at 375 px', () => {
  test.use({ viewport: PHONE });

  test('offers the main entry points and the menu', async ({ page }) => {
    const response = await page.goto('/not/a/page/');
    expect(response?.status()).toBe(404);
    const main = page.locator('main');
    for (const [name, href] of [
      ['Manifest generator', '/generator/'],
      ['Manifest checker', '/checker/'],
      ['Compare gateways', '/gateways/'],
      ['Compare model servers', '/model-servers/'],
    ]) {
      await expect(main.getByRole('link', { name })).toHaveAttribute('href', href);
    }
    await openMenu(page);
  });
});

// There is no public repository or site yet: no page links a made-up address (#32). The header has no repository
// icon, and the overview names the CLI's install, not a repository.
test('no page links a repository or a made-up address', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  for (const path of ['/', '/generator/', '/checker/', '/gateways/', '/lab/']) {
    await page.goto(path);
    await expect(page.locator('header a[href*="github.com"]')).toHaveCount(0);
    const hrefs = await page.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
    expect(
      hrefs.filter((h) => /\.invalid\b|github\.com\/[^/]+\/hitless/.test(h)),
      path,
    ).toEqual([]);
  }
});
