/**
 * What every page owes a reader around its content (#32): the gateway and model-server pages, built from data,
 * have Starlight's own heading links as its Markdown pages do; the landing page's title names the site once; on a
 * phone the landing page has Starlight's menu with every section; the checker's diff view is monospace.
 */
import { expect, test, type Page } from '@playwright/test';
import { hydrated, settle } from '../support/site.ts';

/** Each h2 in the content has Starlight's anchor link beside it, as a Markdown page's h2 has (rehype-heading-links). */
async function expectHeadingLinks(page: Page, path: string, firstId: string): Promise<void> {
  await page.goto(path);
  const headings = page.locator('.sl-markdown-content h2');
  const count = await headings.count();
  expect(count, `${path} has h2 headings`).toBeGreaterThan(3);
  for (let i = 0; i < count; i++) {
    const heading = headings.nth(i);
    const id = await heading.getAttribute('id');
    expect(id, `${path}: h2 #${i} has an id`).toBeTruthy();
    const wrapper = heading.locator('xpath=..');
    await expect(wrapper).toHaveClass(/\bsl-heading-wrapper\b/);
    const link = wrapper.locator(':scope > a.sl-anchor-link');
    await expect(link).toHaveAttribute('href', `#${id}`);
    // The link is named after its heading for assistive technology ("Section titled …").
    await expect(link).toHaveAccessibleName(
      new RegExp((await heading.innerText()).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    );
  }
  // It behaves as on the docs pages: following it puts the heading's fragment in the address.
  const first = page.locator(`#${firstId}`);
  await first.hover();
  await first.locator('xpath=..').locator('a.sl-anchor-link').click();
  await expect(page).toHaveURL(new RegExp(`#${firstId}$`));
  // The same markup as a Markdown page's heading (a guide), so the same styles apply.
  const markdownLink = await page.evaluate(async () => {
    const html = await (await fetch('/guides/why-requests-drop/')).text();
    const doc = new DOMParser().parseFromString(html, 'text/html');
    const a = doc.querySelector('.sl-markdown-content .sl-heading-wrapper.level-h2 > a.sl-anchor-link');
    return a ? { cls: a.className, icon: a.querySelector('.sl-anchor-icon svg') !== null } : null;
  });
  expect(markdownLink).toEqual({ cls: 'sl-anchor-link', icon: true });
  await expect(first.locator('xpath=..').locator('a.sl-anchor-link .sl-anchor-icon svg')).toHaveCount(1);
}

test('a gateway page has heading links as the Markdown pages have', async ({ page }) => {
  await expectHeadingLinks(page, '/gateways/istio/', 'defaults');
});

test('a model-server page has heading links as the Markdown pages have', async ({ page }) => {
  await expectHeadingLinks(page, '/model-servers/vllm/', 'probes');
});

test('the landing page names the site once in its title', async ({ page }) => {
  await page.goto('/');
  const title = await page.title();
  expect(title).toMatch(/^Hitless\b/);
  expect(title.match(/Hitless/g)).toHaveLength(1);
  // Other pages keep Starlight's "<page> | Hitless".
  await page.goto('/checker/');
  await expect(page).toHaveTitle('Manifest checker | Hitless');
});

test.describe('the landing page at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('has the menu, and it leads to every section', async ({ page }, testInfo) => {
    await page.goto('/');
    await settle(page);
    const toggle = page.getByRole('button', { name: 'Menu' });
    await expect(toggle, 'the landing page has the menu button').toBeVisible();
    await toggle.click();
    const menu = page.locator('#starlight__sidebar');
    await expect(menu).toBeVisible();
    const shot = testInfo.outputPath('landing-390x844-menu.png');
    await page.screenshot({ path: shot });
    await testInfo.attach('landing page at 390x844, menu open', { path: shot, contentType: 'image/png' });
    // Every top-level section of the sidebar (astro.config.mjs) is in the menu.
    for (const section of ['Start here', 'Guides', 'Gateways', 'Model servers']) {
      await expect(menu.getByText(section, { exact: true }).first()).toBeVisible();
    }
    for (const [name, href] of [
      ['Manifest generator', '/generator/'],
      ['Manifest checker', '/checker/'],
      ['The drain lab', '/lab/'],
      ['Compare gateways', '/gateways/'],
      ['Compare model servers', '/model-servers/'],
    ]) {
      await expect(menu.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    await menu.getByRole('link', { name: 'Compare model servers', exact: true }).click();
    await expect(page).toHaveURL(/\/model-servers\/$/);
  });
});

test("the checker's diff view is monospace, like the manifest it shows", async ({ page }) => {
  await page.goto('/checker/');
  await hydrated(page, '.chk');
  await page
    .getByTestId('checker-input')
    .fill(
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: chat}\nspec:\n  selector: {matchLabels: {app: chat}}\n  template:\n    metadata: {labels: {app: chat}}\n    spec:\n      containers:\n      - name: vllm\n        image: vllm/vllm-openai:v0.18.1\n        args: ["--model", "Qwen/Qwen3-8B"]\n',
    );
  await page.getByTestId('show-diff').click();
  const diff = page.getByTestId('fixed-diff');
  await expect(diff).toContainText('+ ');
  const fonts = await diff.evaluate((el) => ({
    diff: getComputedStyle(el).fontFamily,
    line: getComputedStyle(el.querySelector('.chk-diff-add') ?? el).fontFamily,
    body: getComputedStyle(document.body).fontFamily,
  }));
  expect(fonts.diff).toMatch(/\bmonospace\b/);
  expect(fonts.line).toBe(fonts.diff);
  expect(fonts.diff).not.toBe(fonts.body);
});
