/**
 * The site search (src/site/Search.astro) costs a page nothing until a reader reaches for it: loading a page
 * fetches none of Pagefind's UI code or index; opening the search (a click, Ctrl+K) loads it, and a query finds
 * real pages; Escape closes it. The dialog works before its code has arrived: a click opens it with the field
 * focused, what is typed there is kept, and searched once Pagefind's UI is in.
 */
import { expect, type Locator, type Page, test } from '@playwright/test';
import { holdRequests } from '../support/site.ts';

/** Text only Pagefind's UI code holds (its result template's class), to tell its script from any other. */
const PAGEFIND_UI_MARKER = 'pagefind-ui__result-link';

/** A word the site's guides use, and so its search index holds. */
const QUERY = 'preStop';

/**
 * Start recording what the page fetches of the search: scripts that are Pagefind's UI code (told by their text,
 * not their names, which the build chooses; each read again from the server, which is sure where reading the
 * page's own response is not) and anything from /pagefind/ (Pagefind's own loader, index, WebAssembly).
 * Call the result to read them.
 */
function recordSearchRequests(page: Page): () => Promise<string[]> {
  const requested: string[] = [];
  const isPagefindUi = new Map<string, Promise<boolean>>();
  page.on('request', (request) => {
    const url = request.url();
    if (new URL(url).pathname.startsWith('/pagefind/')) requested.push(url);
    else if (request.resourceType() === 'script') requested.push(url);
  });
  const check = (url: string): Promise<boolean> => {
    if (new URL(url).pathname.startsWith('/pagefind/')) return Promise.resolve(true);
    if (!isPagefindUi.has(url))
      isPagefindUi.set(
        url,
        page.request.get(url).then(async (response) => (await response.text()).includes(PAGEFIND_UI_MARKER)),
      );
    return isPagefindUi.get(url)!;
  };
  return async () => {
    const urls = [...requested];
    const found = await Promise.all(urls.map(check));
    return urls.filter((_, i) => found[i]);
  };
}

/** Wait until the page has loaded, its network is quiet and the browser has had idle time (when Starlight's own search loaded Pagefind's UI). */
async function loadAndIdle(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.waitForLoadState('networkidle');
  for (let i = 0; i < 2; i++) {
    await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 5_000 })));
  }
  await page.waitForLoadState('networkidle');
}

const searchButton = (page: Page): Locator => page.locator('button[data-open-modal]');
const dialog = (page: Page): Locator => page.locator('site-search dialog');
/** Pagefind's own search field (not the stand-in the dialog holds until Pagefind's UI is in). */
const pagefindInput = (page: Page): Locator =>
  page.locator('#starlight__search .pagefind-ui:not([data-search-stand-in]) .pagefind-ui__search-input');

/** Expect the first result to link to a page of this site that has the query in it. */
async function expectResultForQuery(page: Page): Promise<void> {
  const link = page.locator('#starlight__search .pagefind-ui__result-link').first();
  await expect(link).toBeVisible();
  const href = await link.getAttribute('href');
  expect(href, 'a result links within the site').toMatch(/^\/[\w/-]*$/);
  const response = await page.request.get(href!);
  expect(response.status(), `${href} is a page`).toBe(200);
  expect(await response.text(), `${href} has the word searched for`).toContain(QUERY);
}

for (const path of ['/', '/checker/']) {
  test(`loading ${path} fetches none of the search's code or index`, async ({ page }) => {
    const searched = recordSearchRequests(page);
    await page.goto(path);
    await loadAndIdle(page);
    expect(await searched(), "Pagefind's UI or index, fetched without the search being opened").toEqual([]);
    await expect(dialog(page)).toBeHidden();
  });
}

test('a click opens the search, which then loads Pagefind and finds pages', async ({ page }) => {
  const searched = recordSearchRequests(page);
  await page.goto('/');
  await loadAndIdle(page);
  expect(await searched(), 'nothing of the search before it is opened').toEqual([]);

  await searchButton(page).click();
  await expect(dialog(page)).toBeVisible();
  await expect(pagefindInput(page), "Pagefind's field replaces the stand-in, focused").toBeFocused();
  await page.keyboard.type(QUERY);
  await expectResultForQuery(page);
  const fetched = await searched();
  expect(
    fetched.some((url) => !url.includes('/pagefind/')),
    "Pagefind's UI code was fetched",
  ).toBe(true);
  expect(
    fetched.some((url) => url.includes('/pagefind/')),
    'and its index',
  ).toBe(true);

  await page.keyboard.press('Escape');
  await expect(dialog(page)).toBeHidden();
});

test('Ctrl+K opens the search, which then loads Pagefind and finds pages; Escape closes it', async ({ page }) => {
  const searched = recordSearchRequests(page);
  await page.goto('/');
  await loadAndIdle(page);
  expect(await searched(), 'nothing of the search before it is opened').toEqual([]);

  await page.keyboard.press('Control+k');
  await expect(dialog(page)).toBeVisible();
  await expect(pagefindInput(page)).toBeFocused();
  await page.keyboard.type(QUERY);
  await expectResultForQuery(page);
  expect((await searched()).length, "Pagefind's UI and index were fetched").toBeGreaterThan(1);

  await page.keyboard.press('Escape');
  await expect(dialog(page)).toBeHidden();
  await page.keyboard.press('Control+k');
  await expect(dialog(page), 'and the shortcut opens it again').toBeVisible();
  await expect(pagefindInput(page)).toBeFocused();
});

test('before any of its code has arrived, the search opens, keeps what is typed, then searches it', async ({
  page,
}) => {
  // Every bundled script waits, as on a slow phone; only the page's inline scripts run.
  const release = await holdRequests(page, /\/_astro\/[^/]+\.js$/);
  // DOMContentLoaded and load wait for the held module scripts; the markup and inline scripts run before them.
  await page.goto('/', { waitUntil: 'commit' });
  await expect(searchButton(page), 'the inline script enabled the button').toBeEnabled();

  await searchButton(page).click();
  await expect(dialog(page)).toBeVisible();
  const standIn = page.locator('#starlight__search [data-search-stand-in] input');
  await expect(standIn, 'the field is there and focused before any code').toBeFocused();
  await page.keyboard.type(QUERY);
  const standInBox = await standIn.boundingBox();

  release();
  await expect(pagefindInput(page), 'Pagefind took over the field and the focus').toBeFocused();
  await expect(pagefindInput(page), 'with what was typed').toHaveValue(QUERY);
  await expect(page.locator('[data-search-stand-in]')).toHaveCount(0);
  const box = await pagefindInput(page).boundingBox();
  for (const key of ['x', 'y', 'width', 'height'] as const) {
    expect(box?.[key], `the stand-in field is where Pagefind's is (${key})`).toBeCloseTo(standInBox?.[key] ?? -1, 0);
  }
  await expectResultForQuery(page);

  await page.keyboard.press('Escape');
  await expect(dialog(page)).toBeHidden();
});
