/**
 * How pages lay out beyond the screen's first view: the generator in print (what it worked out, not its form),
 * its highlighted manifest (whole tokens, coloured by class), wide tables on a phone (they say they scroll), and
 * Copy's message (it moves nothing).
 */
import { expect, test } from '@playwright/test';
import { settle } from '../support/site.ts';

const PHONE = { width: 375, height: 812 };

test('the first highlighted token of the default manifest is apiVersion, whole', async ({ page }) => {
  await page.goto('/generator/');
  await settle(page);
  const manifest = page.locator('[data-testid=manifest].is-highlighted');
  await expect(manifest).toBeVisible({ timeout: 10_000 });
  // The first line that is neither the header comment nor blank: its tokens as the page shows them.
  const tokens = await manifest.locator('.line').evaluateAll((lines) => {
    const line = lines.find((l) => l.textContent!.trim() !== '' && !l.textContent!.startsWith('#'))!;
    return [...line.querySelectorAll('span[class^="tok-"]')].map((s) => s.textContent);
  });
  expect(tokens).toEqual(['apiVersion', ': ', 'apps/v1']);
  // Coloured by its class: the key green of github-dark-high-contrast (#72F088) in Starlight's dark theme, and
  // github-light-high-contrast's (#024C1A) in the light one.
  const key = manifest.locator('.tok-key', { hasText: 'apiVersion' }).first();
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
  await expect(key).toHaveCSS('color', 'rgb(114, 240, 136)');
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
  await expect(key).toHaveCSS('color', 'rgb(2, 76, 26)');
});

test('the generator prints the plan, the manifest and the opened derivation, not the form and buttons', async ({
  page,
}) => {
  await page.goto('/generator/');
  await settle(page);
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.gen-form')).toBeHidden();
  await expect(page.getByTestId('copy')).toBeHidden();
  await expect(page.getByTestId('download')).toBeHidden();
  await expect(page.getByRole('link', { name: 'Skip to the manifest' })).toBeHidden();
  await expect(page.getByTestId('plan')).toBeVisible();
  await expect(page.getByTestId('manifest')).toBeVisible();
  // The derivation is a closed <details> on screen; in print its entries show.
  const derivation = page.getByTestId('derivation');
  expect(await derivation.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
  await expect(derivation.locator('dt').first()).toBeVisible();
  // The timeline prints if it has loaded; its empty placeholder does not.
  await expect(page.locator('.gen-timeline.is-loading')).toBeHidden();
  // The manifest wraps instead of being cut at the page's edge.
  expect(await page.getByTestId('manifest').evaluate((el) => getComputedStyle(el).whiteSpace)).toBe('pre-wrap');
});

test.describe('at 375 px', () => {
  test.use({ viewport: PHONE });

  test('a wide table says that it scrolls, and which side hides columns', async ({ page }) => {
    await page.goto('/gateways/');
    const frame = page.locator('scroll-table').first();
    await expect(frame).toHaveAttribute('data-overflowing', '');
    await expect(frame.locator('.scroll-table-hint')).toBeVisible();
    await expect(frame).toHaveAttribute('data-more', 'end');
    await frame.locator('.scroll-table').evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await expect(frame).toHaveAttribute('data-more', 'start');
  });

  test('Copy\u2019s message moves neither the buttons nor the manifest', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/generator/');
    await settle(page);
    const copy = page.getByTestId('copy');
    await copy.scrollIntoViewIfNeeded();
    const boxes = async () => ({
      copy: await copy.boundingBox(),
      download: await page.getByTestId('download').boundingBox(),
      manifest: await page.getByTestId('manifest').boundingBox(),
    });
    const before = await boxes();
    await copy.click();
    await expect(page.locator('.gen-copy-status')).toHaveText('Copied to the clipboard.');
    // The button says it (its label swaps in place); the sentence is the live region's, for screen readers.
    await expect(copy).toHaveAccessibleName('Copied');
    expect(await boxes()).toEqual(before);
  });
});

test('at desktop width a table that fits says nothing about scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/guides/why-requests-drop/');
  const frames = page.locator('scroll-table');
  expect(await frames.count()).toBeGreaterThan(0);
  for (const frame of await frames.all()) {
    const fits = await frame.locator('.scroll-table').evaluate((el) => el.scrollWidth <= el.clientWidth + 1);
    if (fits) await expect(frame.locator('.scroll-table-hint')).toBeHidden();
  }
});
