/** Take a screenshot of a page of the built site, for a person to look at: node scripts/screenshot.ts PATH OUT [WIDTH]. */
import { chromium } from '@playwright/test';

const [path = '/', out = '/tmp/shot.png', width = '1400'] = process.argv.slice(2);
const base = process.env.BASE_URL ?? 'http://127.0.0.1:48232';
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage({ viewport: { width: Number(width), height: 900 } });
  page.on('console', (m) => {
    if (m.type() === 'error') console.error('console:', m.text());
  });
  page.on('pageerror', (e) => console.error('pageerror:', e.message));
  await page.goto(`${base}${path}`);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: out, fullPage: process.env.FULL === '1' });
} finally {
  await browser.close();
}
