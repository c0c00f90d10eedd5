// The gateway and model-server pages in Chromium: each page's generator link opens the generator with that
// profile's preset, and the manifest there carries the page's values and the gateway's extra objects.
// Expected values are worked out by hand from the data files (removal + the 5 s margin, and so on).
// Their axe scans (WCAG 2.2 AA, both themes, 375 px) are pages.spec.ts's, which covers every page in the sitemap.
import { expect, test, type Page } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

type Obj = Record<string, any>;

/** preStop per gateway: removal p99 from content/gateways/*.yaml + 5 s margin. */
const PRESTOP: Record<string, number> = {
  gke: 35, // 30 (observed) + 5
  istio: 15,
  agentgateway: 15,
  'nginx-gateway-fabric': 15,
  'envoy-ai-gateway': 15,
  kgateway: 15, // 10 (estimate) + 5
  custom: 25, // example health checks: 5 s × 2 + 5 s timeout + 5 s propagation = 20, + 5
};

/** The generator query each gateway page links to: only values that differ from the defaults (gke is the default). */
const QUERY: Record<string, string> = Object.fromEntries(
  Object.keys(PRESTOP).map((id) => [id, id === 'gke' ? '?v=2' : `?v=2&gateway=${id}`]),
);

async function manifestDocs(page: Page): Promise<Obj[]> {
  await expect(page.locator('[data-hydrated="true"]')).toBeVisible();
  // The generator may load its emitter after hydration; until then the manifest is marked pending.
  await expect(page.getByTestId('manifest')).not.toHaveAttribute('data-pending', 'true');
  const text = (await page.getByTestId('manifest').textContent()) ?? '';
  return parseAllDocuments(text).map((d) => {
    expect(d.errors).toEqual([]);
    return d.toJS() as Obj;
  });
}

/** Follow the open profile page's generator link; the manifest there, as objects. */
async function followGeneratorLink(page: Page): Promise<Obj[]> {
  await page.getByTestId('generator-link').first().click();
  await expect(page).toHaveURL(/\/generator\/\?v=2/);
  return manifestDocs(page);
}

for (const [gateway, preStop] of Object.entries(PRESTOP)) {
  test(`the ${gateway} page links to a generator preset with its values`, async ({ page }) => {
    await page.goto(`/gateways/${gateway}/`);
    await expect(page.getByTestId('prestop-seconds')).toHaveText(`${preStop} s`);
    const docs = await followGeneratorLink(page);
    expect(new URL(page.url()).search).toBe(QUERY[gateway]);
    const deployment = docs.find((d) => d.kind === 'Deployment')!;
    expect(deployment.spec.template.spec.containers[0].lifecycle.preStop.sleep.seconds).toBe(preStop);
    // Grace: preStop + 738 s drain (492 s longest request × 1.5) + 15 s teardown.
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBe(preStop + 738 + 15);
    if (gateway === 'gke') {
      // No InferencePool document: the chart install in the header creates it, named after the release.
      expect(docs.map((d) => d.kind)).toEqual([
        'Deployment',
        'HealthCheckPolicy',
        'GCPBackendPolicy',
        'PodDisruptionBudget',
      ]);
      const [, health, backend] = docs;
      const target = { group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'vllm-qwen3-32b' };
      expect(health.spec.targetRef).toEqual(target);
      // portSpecification USE_FIXED_PORT beside port: the HealthCheckPolicy CRD's CEL rules reject a bare port.
      expect(health.spec.default.config).toEqual({
        type: 'HTTP',
        httpHealthCheck: { portSpecification: 'USE_FIXED_PORT', port: 8000, requestPath: '/v1/models' },
      });
      expect(backend.spec.targetRef).toEqual(target);
      // timeoutSec: 492 s × 1.5 = 738 needed, above the 300 s floor (GIE's GKE example, gke.yaml floorSeconds);
      // draining: 35 s preStop + 738 s drain = 773.
      expect(backend.spec.default).toEqual({ timeoutSec: 738, connectionDraining: { drainingTimeoutSec: 773 } });
    } else {
      expect(docs.map((d) => d.kind)).toEqual(['Deployment', 'PodDisruptionBudget']);
    }
  });
}

test('the GKE page shows the extra objects exactly as the generator emits them', async ({ page }) => {
  await page.goto('/gateways/gke/');
  const shown = page.getByTestId('extra-manifest');
  await expect(shown).toHaveCount(2);
  const fromPage: Obj[] = [];
  for (const section of await shown.all()) {
    // The blocks far down the page are laid out as the reader reaches them (content-visibility: auto), and only
    // laid-out text has an innerText: read each where the reader sees it.
    const pre = section.locator('pre');
    await pre.scrollIntoViewIfNeeded();
    await expect(pre).toContainText('kind:', { useInnerText: true });
    const text = await pre.innerText();
    fromPage.push(parseAllDocuments(text)[0].toJS() as Obj);
  }
  const docs = await followGeneratorLink(page);
  expect(fromPage).toEqual(docs.filter((d) => ['HealthCheckPolicy', 'GCPBackendPolicy'].includes(d.kind)));
});

test('pages without extra objects say so, and every page says where the sources are silent', async ({ page }) => {
  await page.goto('/gateways/istio/');
  await expect(page.getByTestId('no-extra-manifests')).toBeVisible();
  await expect(page.getByTestId('gaps').locator('li')).not.toHaveCount(0);
  await expect(page.locator('[data-testid=removal] [data-basis=estimate]')).toBeVisible();
  await expect(page.getByTestId('last-checked')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}$/);
});

test('each cited source says what it was checked against and when', async ({ page }) => {
  await page.goto('/model-servers/vllm/');
  // vllm.yaml: vllm-docs-serve is "vLLM v0.18.0 docs", checked 2026-12-01.
  await expect(
    page.locator('.sl-heading-wrapper:has(#sigterm) ~ p [data-testid=checked-against]').first(),
  ).toBeVisible();
  await expect(page.locator('li#source-vllm-docs-serve')).toContainText('vLLM v0.18.0 docs, checked 2026-12-01');
  // Facts by release: the flag from 0.18.0, none before.
  const flagRows = page.locator('[data-testid=facts-by-release] tr[data-topic=drain-flag]');
  await expect(flagRows).toHaveCount(2);
  await expect(flagRows.nth(0).locator('td').first()).toHaveText('before 0.18.0');
  await expect(flagRows.nth(1).locator('td').first()).toHaveText('from 0.18.0');
  await page.goto('/gateways/envoy-ai-gateway/');
  await expect(page.locator('.hl-knobs')).toContainText('minDrainDuration: default 10 s (Envoy Gateway 1.2 and later)');
});

test('the comparison page has one row per gateway, each linking to its page and preset', async ({ page }) => {
  await page.goto('/gateways/');
  const rows = page.locator('[data-testid=gateway-comparison] tbody tr');
  await expect(rows).toHaveCount(Object.keys(PRESTOP).length);
  for (const [gateway, preStop] of Object.entries(PRESTOP)) {
    const row = page.locator(`tr[data-gateway="${gateway}"]`);
    await expect(row.locator(`a[href="/gateways/${gateway}/"]`)).toBeVisible();
    await expect(row.getByTestId('generator-link')).toHaveAttribute('href', `/generator/${QUERY[gateway]}`);
    await expect(row.locator('td').nth(2)).toContainText(`${preStop} s`);
  }
  await expect(page.locator('tr[data-gateway="gke"]')).toContainText('GCPBackendPolicy');
});

test('each model-server page links to a generator preset with its drain setting', async ({ page }) => {
  // Drain 738 s with the default request inputs (492 s × 1.5); servers without a flag get none.
  const flags: Record<string, string | null> = {
    // TGI has --graceful-termination-timeout from 3.2.2, and the preset pins 3.3.5.
    vllm: '--shutdown-timeout=738',
    triton: '--exit-timeout-secs=738',
    tgi: '--graceful-termination-timeout=738',
    sglang: null,
    llamacpp: null,
  };
  // Every model-server data file (files starting with _ or . are not data, as the loader skips them).
  const ids = readdirSync(new URL('../../content/model-servers/', import.meta.url))
    .filter((f) => /^[^_.].*\.ya?ml$/.test(f))
    .map((f) => f.replace(/\.ya?ml$/, ''));
  expect(Object.keys(flags).sort(), 'add a row for each model server').toEqual(ids.sort());
  for (const [server, flag] of Object.entries(flags)) {
    await page.goto(`/model-servers/${server}/`);
    const docs = await followGeneratorLink(page);
    expect(new URL(page.url()).search).toBe(server === 'vllm' ? '?v=2' : `?v=2&model-server=${server}`);
    const args: string[] = docs[0].spec.template.spec.containers[0].args;
    if (flag) expect(args).toContain(flag);
    else expect(args.some((a) => /timeout/.test(a))).toBe(false);
  }
  await page.goto('/model-servers/');
  await expect(page.locator('[data-testid=model-server-comparison] tbody tr')).toHaveCount(Object.keys(flags).length);
});

for (const [path, table] of [
  ['/gateways/', 'gateway-comparison'],
  ['/model-servers/', 'model-server-comparison'],
] as const) {
  test(`${path}: at 1400 px the comparison table is not clipped, with no contents column beside it`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(path);
    // No "On this page" column takes the width (the page has no headings to list).
    await expect(page.locator('starlight-toc')).toHaveCount(0);
    // The table sits in a labelled scroll region that takes keyboard focus, and fits it at this width.
    const region = page.getByRole('region', { name: /compared$/ });
    await expect(region).toHaveAttribute('tabindex', '0');
    await expect(region.getByTestId(table)).toBeVisible();
    const { scrollWidth, clientWidth, right } = await region.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
      right: el.getBoundingClientRect().right,
    }));
    expect(scrollWidth, 'the table fits its region').toBeLessThanOrEqual(clientWidth);
    expect(right).toBeLessThanOrEqual(1400);
  });
}
