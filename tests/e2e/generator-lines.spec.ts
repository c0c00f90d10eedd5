/**
 * A change re-renders only the manifest lines it changed (manifest-lines.ts): the other lines keep their elements
 * and their colours while the highlighter works on the new text, and <code> gains or loses no child when the line
 * count stays the same. Before, every change replaced all ~200 lines twice (plain, then highlighted).
 */
import { expect, test } from '@playwright/test';
import { hydrated } from '../support/site.ts';

test('a change replaces only its own lines, and the others keep their colours until the highlighter answers', async ({
  page,
}) => {
  await page.goto('/generator/');
  await hydrated(page, '.gen');
  const manifest = page.getByTestId('manifest');
  const field = page.locator('#in-max-output-tokens');
  await field.fill('8192');
  await expect(manifest).toContainText('8192');
  await expect(manifest).toHaveClass(/is-highlighted/);

  // Hold the highlighter's next requests, remember every line element, and watch <code>'s children.
  await page.evaluate(() => {
    const w = window as unknown as { held: (() => void)[]; lines: Element[]; childChanges: number };
    w.held = [];
    const send = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, ...args: Parameters<Worker['postMessage']>) {
      w.held.push(() => send.apply(this, args));
    } as Worker['postMessage'];
    const code = document.querySelector('[data-testid=manifest] > code')!;
    w.lines = [...code.children];
    w.childChanges = 0;
    new MutationObserver((records) => {
      w.childChanges += records.length;
    }).observe(code, { childList: true });
  });
  await field.fill('8200');
  await expect(manifest).toContainText('8200');
  await expect(manifest).not.toHaveClass(/is-highlighted/);
  // The request to the highlighter follows the render (a busy machine can run this page's script before it is sent).
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { held: unknown[] }).held.length), {
      message: 'the highlighter was asked for the new text and is held',
    })
    .toBeGreaterThan(0);

  const seen = await page.evaluate(() => {
    const w = window as unknown as { held: (() => void)[]; lines: Element[]; childChanges: number };
    const now = [...document.querySelectorAll('[data-testid=manifest] > code > .line')];
    const kept = now.filter((line, i) => line === w.lines[i]).length;
    const plain = now.filter(
      (line) => line.querySelector('span[class^="tok-"]') === null && line.textContent!.trim() !== '',
    );
    return {
      lines: now.length,
      kept,
      childChanges: w.childChanges,
      text: now.map((line) => line.textContent).join(''),
      plain: plain.map((line) => line.textContent!.trim()),
      held: w.held.length,
    };
  });
  expect(seen.held, 'the highlighter was asked for the new text and is held').toBeGreaterThan(0);
  expect(seen.text, 'the lines read back as the manifest').toBe(await manifest.textContent());
  expect(seen.childChanges, 'no line element was added to or removed from <code>').toBe(0);
  expect(seen.kept, 'every line keeps its element').toBe(seen.lines);
  // Only lines whose text changed are plain until the answer; each of them carries the new value or a value
  // derived from it (the request time and the grace period).
  expect(seen.plain.length).toBeGreaterThan(0);
  expect(seen.plain.length).toBeLessThan(seen.lines / 10);
  expect(
    await manifest.locator('.line').first().locator('span[class^="tok-"]').count(),
    'line 1 keeps its colours',
  ).toBeGreaterThan(0);

  await page.evaluate(() => {
    const w = window as unknown as { held: (() => void)[] };
    for (const send of w.held) send();
  });
  await expect(manifest).toHaveClass(/is-highlighted/);
  expect(await manifest.textContent()).toContain('8200');
});
