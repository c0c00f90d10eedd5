// The lab page and the scenario pages it links to: every scenario is one link away, and each scenario's page
// carries its own numbers. (Each page's CSP, axe and 375 px checks are pages.spec.ts's.)
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';

const results = JSON.parse(readFileSync(new URL('../../content/lab/results.json', import.meta.url), 'utf8')) as {
  scenarios: { id: string; title: string; median: { lost: number } }[];
};

test('the lab page links every scenario to a page of its own, with its numbers and its neighbours', async ({
  request,
}) => {
  const lab = await (await request.get('/lab/')).text();
  // Worked by hand from the first scenario's id, recommended@gke/vllm.
  expect(lab).toContain('href="/lab/recommended-gke-vllm/"');
  // The lab page is an overview: no scenario's chart or run table is on it.
  expect(lab).not.toContain('data-testid="lab-predicted-measured"');
  expect(lab).not.toContain('<svg viewBox="0 0 640 260"');
  for (const [i, s] of results.scenarios.entries()) {
    const path = `/lab/${s.id.replace(/[@/]/g, '-')}/`;
    expect(lab, `the lab page links ${s.id}`).toContain(`href="${path}"`);
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const html = await response.text();
    expect.soft(html, `${path}: the table of predicted and measured`).toContain('data-testid="lab-predicted-measured"');
    // The median row's lost cell (Astro adds its scoping class to each element).
    expect
      .soft(html, `${path}: the median's lost requests`)
      .toMatch(new RegExp(`>median</th>(<td[^>]*>[^<]*</td>){4}<td[^>]*><strong[^>]*>${s.median.lost}</strong></td>`));
    expect
      .soft(html, `${path}: its place among the scenarios`)
      .toContain(`Scenario ${i + 1} of the ${results.scenarios.length}`);
    if (i > 0) expect.soft(html, `${path}: previous`).toContain('rel="prev"');
    if (i < results.scenarios.length - 1) expect.soft(html, `${path}: next`).toContain('rel="next"');
  }
});
