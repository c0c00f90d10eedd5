/**
 * Renders public/favicon.svg to public/favicon.png (64 × 64, transparent corners) with the Chromium the tests use.
 * The site links the PNG: Chromium rasterizes an SVG favicon in the page's own renderer, as a separate SVG document
 * (7–11 ms of main-thread work after the first paint on every page here, 22 ms on a busy machine), while a PNG
 * decodes in well under a millisecond. Run after changing favicon.svg: node scripts/render-favicon.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const SIZE = 64;
const svg = readFileSync(fileURLToPath(new URL('../public/favicon.svg', import.meta.url)), 'utf8');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  await page.setContent(
    `<style>html,body{margin:0;background:transparent}img{display:block}</style><img src="${src}" width="${SIZE}" height="${SIZE}">`,
  );
  await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
  const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: SIZE, height: SIZE } });
  writeFileSync(fileURLToPath(new URL('../public/favicon.png', import.meta.url)), png);
  process.stdout.write(`public/favicon.png: ${SIZE} x ${SIZE}, ${png.length} bytes\n`);
} finally {
  await browser.close();
}
