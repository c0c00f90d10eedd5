import { expect, test } from '@playwright/test';

/*
 * Long pages lay out only what the reader nears (content-visibility: auto on the blocks from the fifth on, site.css):
 * a phone's first screen does not wait for the whole page. These tests hold both halves of that: the far blocks are
 * skipped at load, and a reader who scrolls or follows a link to them gets them laid out where expected.
 */

test.use({ viewport: { width: 375, height: 667 } });

/** Whether the element is laid out and painted now (false while content-visibility: auto skips it). */
const rendered = (el: Element) => el.checkVisibility({ contentVisibilityAuto: true });

for (const { path, far } of [
  { path: '/gateways/gke/', far: '.hl-gaps' },
  { path: '/guides/why-requests-drop/', far: '.sl-markdown-content > :is(p, ul, ol):last-of-type' },
]) {
  test(`${path}: the first screen is laid out at load, the far blocks only when scrolled to`, async ({ page }) => {
    await page.goto(path);
    const first = page.locator('.sl-markdown-content p').first();
    await expect(first).toBeInViewport();
    expect(await first.evaluate(rendered)).toBe(true);
    // The block itself keeps a box (its last height, or an estimate); what it skips is its content.
    const block = page.locator(far).last();
    const inside = block.locator('*').first();
    expect(await inside.evaluate(rendered), `the content of ${far} is skipped at load`).toBe(false);
    await block.scrollIntoViewIfNeeded();
    await expect
      .poll(() => inside.evaluate(rendered), { message: `the content of ${far} is laid out once reached` })
      .toBe(true);
  });
}

test('a link to a heading far down the page lands on it', async ({ page }) => {
  await page.goto('/gateways/gke/#sources');
  const heading = page.locator('#sources');
  await expect(heading).toBeInViewport();
  await expect(heading).toHaveText('Sources', { useInnerText: true });
});
