// The generator's layout and output (issue #32): the manifest in view beside the inputs on a wide screen, one tap away
// on a phone; the lines a change made marked for a moment; one tab per file with Copy, and a zip of them all.
import { expect, test, type Page } from '@playwright/test';
import { hydrated } from '../support/site.ts';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strFromU8, unzipSync } from 'fflate';

const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/** The files `hitless generate --out-dir` writes for these flags, by name. */
function cliFiles(flags: string[]): Map<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'hitless-gen-'));
  const run = spawnSync(process.execPath, [BIN, 'generate', ...flags, '--out-dir', dir], { encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
  return new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}

async function shot(page: Page, name: string): Promise<void> {
  const path = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path });
  await test.info().attach(name, { path, contentType: 'image/png' });
}

/** The manifest's top edge, in viewport pixels. */
async function manifestTop(page: Page): Promise<number> {
  return page.getByTestId('manifest').evaluate((el) => el.getBoundingClientRect().top);
}

test('on 1280x800 the manifest is in view on load and stays beside the inputs after the last one is changed', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/generator/');
  const onLoad = await manifestTop(page);
  expect(onLoad).toBeGreaterThanOrEqual(0);
  expect(onLoad).toBeLessThan(DESKTOP.height - 100);
  await shot(page, 'desktop-on-load');

  await hydrated(page, '.gen');
  const last = page.locator('.gen-form :is(input, select)').last();
  await last.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY), 'the page scrolled to the last input').toBeGreaterThan(1000);
  const before = await page.getByTestId('manifest').textContent();
  await last.selectOption('helm-values');
  await expect(page.getByTestId('manifest')).not.toHaveText(before ?? '');
  const top = await manifestTop(page);
  expect(top).toBeGreaterThanOrEqual(0);
  expect(top).toBeLessThan(DESKTOP.height / 2);
  await expect(page.getByTestId('manifest')).toBeInViewport();
  // Its lines wrap: nothing runs off the right edge.
  const overflow = await page.getByTestId('manifest').evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow).toBeLessThanOrEqual(1);
  await shot(page, 'desktop-after-last-input');
});

test('on a 390 px phone one tap on Manifest shows the manifest at the top, and one on Inputs the inputs', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await page.goto('/generator/');
  const switcher = page.getByTestId('view-switch');
  const manifestButton = switcher.getByRole('button', { name: 'Manifest' });
  const inputsButton = switcher.getByRole('button', { name: 'Inputs' });
  await expect(inputsButton).toHaveAttribute('aria-pressed', 'true');
  await expect(manifestButton).toHaveAttribute('aria-pressed', 'false');
  await shot(page, 'phone-on-load');
  // The first tap also hydrates the island; the click is held until it has, then made.
  await manifestButton.click();
  await expect(manifestButton).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => manifestTop(page)).toBeGreaterThanOrEqual(0);
  await expect.poll(() => manifestTop(page)).toBeLessThan(PHONE.height / 4);
  await expect(switcher).toBeInViewport();
  await shot(page, 'phone-manifest');

  // Keyboard: Tab reaches the switch, Enter presses it.
  await inputsButton.focus();
  await page.keyboard.press('Enter');
  await expect(inputsButton).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('manifest')).toBeHidden();
  const formTop = await page.locator('.gen-form').evaluate((el) => el.getBoundingClientRect().top);
  expect(formTop).toBeGreaterThanOrEqual(0);
  expect(formTop).toBeLessThan(PHONE.height / 4);
  await shot(page, 'phone-inputs');
  // Print shows the manifest whichever part the switch shows.
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('manifest')).toBeVisible();
  await expect(switcher).toBeHidden();
});

for (const viewport of [DESKTOP, PHONE])
  test(`after replicas change, the changed lines are marked for a moment and no others (${viewport.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/generator/');
    await hydrated(page, '.gen');
    const old = new Set(((await page.getByTestId('manifest').textContent()) ?? '').split('\n'));
    await page.locator('#in-replicas').fill('4');
    const marked = page.locator('[data-testid=manifest] .line.is-changed');
    await expect(marked.filter({ hasText: /^\s*replicas: 4\s*$/ })).toHaveCount(1);
    const markedTexts = (await marked.allTextContents()).map((t) => t.replace(/\n$/, ''));
    const lineCount = await page.locator('[data-testid=manifest] .line').count();
    // Only lines the change made carry the mark: none of them was in the manifest before, and most lines were not touched.
    for (const text of markedTexts) expect(old.has(text), `marked but unchanged: ${text}`).toBe(false);
    expect(markedTexts.length).toBeLessThan(lineCount / 10);
    await expect(page.locator('[data-testid=manifest] .line', { hasText: /^kind: Deployment\s*$/ })).not.toHaveClass(
      /is-changed/,
    );
    if (viewport === PHONE) await page.getByTestId('view-switch').getByRole('button', { name: 'Manifest' }).click();
    await marked.first().scrollIntoViewIfNeeded();
    await shot(page, `changed-lines-${viewport.width}`);
    // The mark goes after two seconds.
    await expect(marked).toHaveCount(0, { timeout: 5000 });
  });

test('the patch form shows one tab per file; Copy copies that file; the zip holds every file', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize(DESKTOP);
  await page.goto('/generator/?v=2&output=patch&container=server');
  await hydrated(page, '.gen');
  await expect(page.locator('[data-testid="manifest"][data-pending="false"]')).toBeVisible({ timeout: 30_000 });
  const cli = cliFiles(['--output', 'patch', '--container', 'server']);
  const tabs = page.getByTestId('file-tabs').getByRole('tab');
  await expect(tabs).toHaveCount(4);
  expect((await tabs.allTextContents()).sort()).toEqual([...cli.keys()].sort());
  for (const tab of await tabs.all()) {
    const name = (await tab.textContent()) ?? '';
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    expect(await tab.getAttribute('title')).toBeTruthy();
    await expect(page.getByTestId('manifest')).toHaveText(cli.get(name) ?? 'missing');
    await page.getByTestId('copy').click();
    await expect(page.locator('.gen-copy-status')).toHaveText('Copied to the clipboard.');
    await expect(page.getByTestId('copy')).toHaveAccessibleName(`Copy ${name}`);
    await expect(page.getByTestId('copy')).toContainText('Copied');
    // While it says so, nothing covers a tab: the pointer finds the tab at every point of a grid over it (the
    // message, shown as a label under the buttons, covered the top of the last tab for 2.5 s).
    const covered = await tabs.evaluateAll((els) =>
      els
        .filter((el) => {
          const r = el.getBoundingClientRect();
          const points = [0.1, 0.3, 0.5, 0.7, 0.9].flatMap((x) => [0.15, 0.5, 0.85].map((y) => [x, y]));
          return points.some(
            ([x, y]) => !el.contains(document.elementFromPoint(r.x + r.width * x, r.y + r.height * y)),
          );
        })
        .map((el) => el.textContent),
    );
    expect(covered).toEqual([]);
    expect(await page.evaluate(() => navigator.clipboard.readText()), name).toBe(cli.get(name));
  }
  // Arrow keys move between the tabs.
  await tabs.first().click();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.nth(1)).toBeFocused();
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  await shot(page, 'patch-tabs');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-zip').click()]);
  expect(download.suggestedFilename()).toBe('vllm-qwen3-32b-patch.zip');
  const entries = unzipSync(new Uint8Array(readFileSync(await download.path())));
  const unzipped = new Map(Object.entries(entries).map(([name, bytes]) => [name, strFromU8(bytes)]));
  expect(unzipped).toEqual(cli);
});

test('field help is a sentence or two; the time per token folds where its default comes from, its sources as links', async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  await page.goto('/generator/');
  // No help paragraph carries a URL, and none runs past a few lines in the form's column.
  const helps = page.locator('.gen-help');
  for (const text of await helps.allTextContents()) expect(text).not.toMatch(/https?:\/\//);
  const tallest = await helps.evaluateAll((els) => Math.max(...els.map((el) => el.getBoundingClientRect().height)));
  const lineHeight = await helps.first().evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight));
  expect(tallest / lineHeight).toBeLessThanOrEqual(6);
  const tpotHelp = page.locator('#in-tpot-ms-help');
  expect(((await tpotHelp.textContent()) ?? '').length).toBeLessThan(160);

  const origin = page.getByTestId('origin-tpot-ms');
  await origin.locator('summary').click();
  await expect(origin).toContainText('47 ms for the same model on H100');
  const links = origin.getByRole('link');
  await expect(links).toHaveCount(2);
  expect(await links.evaluateAll((els) => els.map((el) => el.getAttribute('href')))).toEqual([
    'https://github.com/kubernetes-sigs/gateway-api-inference-extension/blob/v1.5.0/config/manifests/vllm/gpu-deployment.yaml',
    'https://github.com/llm-d/llm-d/pull/1653',
  ]);
  await origin.scrollIntoViewIfNeeded();
  await shot(page, 'tpot-help');
});
