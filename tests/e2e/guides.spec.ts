// The guide pages: each renders and sits in the sidebar, the drain timeline answers its controls
// (a preStop shorter than removal refuses a request; a grace shorter than preStop + drain cuts one),
// and it fits a phone, where it passes an axe scan with requests refused and cut. The axe scan of each guide as
// it loads, timelines hydrated, is pages.spec.ts's.
import { expect, test, type Page } from '@playwright/test';
import { describeViolations, scanPage } from '../support/axe.ts';

const GUIDES: [slug: string, title: string][] = [
  ['why-requests-drop', 'Why requests drop during rollouts'],
  ['prestop-sleep', 'The preStop sleep'],
  ['draining-on-sigterm', 'Draining on SIGTERM, per model server'],
  ['probes', 'Readiness, liveness and startup probes'],
  ['grace-period-math', 'The grace-period math'],
  ['rolling-out-on-scarce-gpus', 'Rolling out on scarce GPUs'],
  ['unbounded-drain', 'Unbounded drain'],
  ['verify-a-rollout', 'Verify a rollout is hitless, and the log lines to expect'],
  ['enforce-with-admission-policies', 'Enforce the pattern for every InferencePool'],
];

/** The first timeline island on the page, hydrated. */
async function demo(page: Page) {
  const island = page.getByTestId('timeline-demo').first();
  await island.scrollIntoViewIfNeeded();
  await expect(island).toHaveAttribute('data-hydrated', 'true');
  return island;
}

/** The example requests of the full chart with a fate (the zoomed view of the first seconds draws them again). */
const fates = (scope: ReturnType<Page['locator']>, fate: string) =>
  scope.locator(`.tl-chart:not(.tl-zoom) [data-testid="timeline-request"][data-fate="${fate}"]`);

for (const [slug, title] of GUIDES) {
  test(`${slug}: renders with its title and is the current page in the sidebar`, async ({ page }) => {
    await page.goto(`/guides/${slug}/`);
    await expect(page.locator('h1')).toHaveText(title);
    await expect(page.locator('nav[aria-label="Main"] a[aria-current="page"]')).toHaveAttribute(
      'href',
      `/guides/${slug}/`,
    );
    await expect(page.getByRole('heading', { name: 'Sources', exact: true })).toBeVisible();
    // Every number comes from an MDX expression; one left unevaluated (inside backticks) would show as {d.x}.
    expect(await page.locator('main').innerText()).not.toMatch(/\{[a-z]\w*(\.\w+|\()[^}]*\}/);
    const sourceLinks = await page.locator('main a[href^="https://"]').evaluateAll((links) => {
      const heading = document.getElementById('sources')!;
      return links.filter((a) => heading.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING).length;
    });
    expect(sourceLinks).toBeGreaterThan(0);
  });
}

test('every guide is listed in the sidebar, in order', async ({ page }) => {
  await page.goto('/guides/why-requests-drop/');
  const hrefs = await page
    .locator('nav[aria-label="Main"] a[href^="/guides/"]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  expect(hrefs).toEqual(GUIDES.map(([slug]) => `/guides/${slug}/`));
});

test('a preStop sleep shorter than removal shows a refused request', async ({ page }) => {
  await page.goto('/guides/why-requests-drop/');
  const island = await demo(page);
  const timeline = island.getByTestId('timeline');
  await expect(fates(timeline, 'ok')).toHaveCount(3);
  await island.getByLabel('preStop sleep (s)').fill('20'); // removal p99 stays 30
  await expect(fates(timeline, 'refused')).toHaveCount(1);
  await expect(timeline.locator('.tl-chart:not(.tl-zoom) [data-request="short-routed-late"]')).toHaveAttribute(
    'data-fate',
    'refused',
  );
  await expect(timeline.locator('[data-code="front-window"]')).toContainText('between 20s (SIGTERM) and 30s');
  await expect(timeline.getByRole('cell', { name: /^Refused: reaches the pod at 25s/ })).toBeVisible();
});

test('a grace period shorter than preStop + drain shows a cut request', async ({ page }) => {
  await page.goto('/guides/why-requests-drop/');
  const island = await demo(page);
  const timeline = island.getByTestId('timeline');
  // preStop 35 + drain 738 = 773 > 60. All three example requests run past 60 s: the two 492 s ones (from 0 s and
  // from 29 s) and the 99 s one routed at 29 s.
  await island.getByLabel('Grace period (s)').fill('60');
  await expect(fates(timeline, 'cut')).toHaveCount(3);
  await expect(timeline.locator('.tl-chart:not(.tl-zoom) [data-request="longest-last-accepted"]')).toHaveAttribute(
    'data-fate',
    'cut',
  );
  await expect(timeline.locator('[data-code="drain-past-sigkill"]')).toContainText('SIGKILL comes at 60s');
  await island.getByRole('button', { name: 'Reset' }).click();
  await expect(fates(timeline, 'cut')).toHaveCount(0);
});

test('the model inputs move the plan: a longer removal lengthens the sleep and the grace period', async ({ page }) => {
  await page.goto('/guides/grace-period-math/');
  const island = await demo(page);
  const timeline = island.getByTestId('timeline');
  await expect(timeline.locator('.tl-summary')).toContainText('SIGKILL at 788s');
  await island.getByLabel('Removal p99 (s)').fill('50'); // 50 + 5 = 55 sleep; 55 + 738 + 15 = 808
  await expect(timeline.locator('.tl-summary')).toContainText('SIGKILL at 808s: SIGTERM at 55s');
  await expect(fates(timeline, 'ok')).toHaveCount(3);
  // vLLM's default, 0, aborts at SIGTERM (55 s): all three are still running then (0 → 492 s, 49 → 541 s, 49 → 148 s).
  await island.getByLabel(/^Drain/).fill('0');
  await expect(fates(timeline, 'cut')).toHaveCount(3);
  await expect(timeline.locator('.tl-chart:not(.tl-zoom) [data-request="longest-at-deletion"]')).toHaveAttribute(
    'data-fate',
    'cut',
  );
  await expect(timeline.locator('[data-code="server-aborts"]')).toBeVisible();
});

test('a bad override is named and the plan value is kept', async ({ page }) => {
  await page.goto('/guides/why-requests-drop/');
  const island = await demo(page);
  const input = island.getByLabel('Grace period (s)');
  await input.fill('ten');
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(island.getByText(/Enter whole seconds from 1 to 86400/)).toBeVisible();
  await expect(island.getByTestId('timeline').locator('.tl-summary')).toContainText('SIGKILL at 788s');
});

test('the timeline fits a 375 px phone, refused and cut states included', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/guides/why-requests-drop/');
  const island = await demo(page);
  await island.getByLabel('preStop sleep (s)').fill('20');
  await island.getByLabel('Grace period (s)').fill('60');
  const timeline = island.getByTestId('timeline');
  await expect(fates(timeline, 'refused')).toHaveCount(1);
  const {
    figure,
    svg,
    page: pageWidth,
  } = await timeline.evaluate((el) => ({
    figure: el.getBoundingClientRect().right,
    svg: el.querySelector('svg')!.getBoundingClientRect().right,
    page: document.documentElement.clientWidth,
  }));
  expect(svg).toBeLessThanOrEqual(figure);
  expect(figure).toBeLessThanOrEqual(pageWidth);
  const violations = await scanPage(page);
  expect(describeViolations(violations), `axe found ${violations.length} violation(s)`).toBe('');
});

test('the generator shows the timeline for its plan', async ({ page }) => {
  await page.goto('/generator/');
  // The timeline sits under the manifest and loads when the reader scrolls near it.
  await page.locator('.gen-timeline').scrollIntoViewIfNeeded();
  const timeline = page.getByTestId('timeline');
  await expect(timeline).toBeVisible();
  await expect(timeline.locator('.tl-summary')).toContainText('SIGKILL at 788s'); // 35 + 738 + 15
  await expect(fates(timeline, 'ok')).toHaveCount(3);
});
