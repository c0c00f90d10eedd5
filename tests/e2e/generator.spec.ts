// The generator page in Chromium: default output, live edits, shared links, Copy, presets, no-JS.
import { expect, test, type Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));

async function open(page: Page, query = '') {
  await page.goto(`/generator/${query}`);
  await expect(page.locator('.gen[data-hydrated="true"]')).toBeVisible();
  // The emitter loads lazily for shared links; the text is final once the manifest is no longer pending.
  await expect(page.locator('[data-testid="manifest"][data-pending="false"]')).toBeVisible();
}

async function manifestText(page: Page): Promise<string> {
  return (await page.getByTestId('manifest').textContent()) ?? '';
}

function podOf(text: string) {
  const docs = parseAllDocuments(text).map((d) => d.toJS());
  const deployment = docs.find((d) => d.kind === 'Deployment');
  return { deployment, pod: deployment.spec.template.spec, container: deployment.spec.template.spec.containers[0], docs };
}

test('the default manifest has the hand-worked drain values', async ({ page }) => {
  await open(page);
  const { pod, container, deployment } = podOf(await manifestText(page));
  // gke 30 + 5 = 35; 4096 × 10 ms × 1.2 → 50 s × 1.5 = 75; 35 + 75 + 15 = 125
  expect(container.lifecycle.preStop.sleep.seconds).toBe(35);
  expect(pod.terminationGracePeriodSeconds).toBe(125);
  expect(container.args).toContain('--shutdown-timeout=75');
  expect(deployment.spec.progressDeadlineSeconds).toBe(725);
  const plan = JSON.parse((await page.getByTestId('plan').getAttribute('data-plan'))!);
  expect(plan.terminationGracePeriodSeconds).toBe(125);
  await expect(page.locator('.gen-manifest.is-highlighted')).toBeVisible();
  expect(await manifestText(page)).toContain('seconds: 35 # 30s removal p99 + 5s margin');
});

test('changing inputs updates the manifest and the link', async ({ page }) => {
  await open(page);
  await page.getByLabel('Gateway', { exact: true }).selectOption('istio');
  await page.locator('#in-max-output-tokens').fill('8192');
  // istio 10 + 5 = 15; 8192 × 10 ms × 1.2 = 98.304 → 99 s × 1.5 = 148.5 → 149; 15 + 149 + 15 = 179
  await expect(page.getByTestId('manifest')).toContainText('terminationGracePeriodSeconds: 179 # 15s preStop + 149s drain + 15s teardown');
  const { container } = podOf(await manifestText(page));
  expect(container.lifecycle.preStop.sleep.seconds).toBe(15);
  expect(container.args).toContain('--shutdown-timeout=149');
  await expect(page).toHaveURL(/\/generator\/\?v=1&gateway=istio&max-output-tokens=8192$/);
  await expect(page.locator('.gen-plan-line')).toContainText('Grace period 179s');
});

test('an invalid value shows an error at the field and keeps a valid manifest', async ({ page }) => {
  await open(page);
  await page.locator('#in-replicas').fill('0');
  await expect(page.locator('[data-testid="manifest"][data-pending="false"]')).toBeVisible();
  await expect(page.locator('#in-replicas-error')).toHaveText('replicas must be a whole number from 1 to 1,000 (got "0")');
  await expect(page.locator('#in-replicas')).toHaveAttribute('aria-invalid', 'true');
  expect(podOf(await manifestText(page)).deployment.spec.replicas).toBe(3);
});

test('a shared link reproduces its manifest, matching the CLI', async ({ page }) => {
  await open(page, '?v=1&gateway=custom&model-server=triton&spare-gpus=1&kubernetes-version=1.29');
  const text = await manifestText(page);
  const { container, deployment } = podOf(text);
  // custom example: 5 × 2 + 5 + 5 = 20 → 25 preStop, as an exec sleep on 1.29
  expect(container.lifecycle.preStop.exec.command).toEqual(['/bin/sleep', '25']);
  expect(container.args).toContain('--exit-timeout-secs=75');
  expect(deployment.spec.strategy.rollingUpdate).toEqual({ maxSurge: 1, maxUnavailable: 0 });
  const cli = spawnSync(process.execPath, [BIN, 'generate', '--gateway', 'custom', '--model-server', 'triton', '--spare-gpus', '1', '--kubernetes-version', '1.29'], { encoding: 'utf8' });
  expect(cli.status).toBe(0);
  expect(text).toBe(cli.stdout);
  const json = JSON.parse(spawnSync(process.execPath, [BIN, 'generate', '--gateway', 'custom', '--model-server', 'triton', '--spare-gpus', '1', '--kubernetes-version', '1.29', '--format', 'json'], { encoding: 'utf8' }).stdout);
  expect(JSON.parse((await page.getByTestId('plan').getAttribute('data-plan'))!)).toEqual(json.plan);
});

test('a tampered link falls back with a visible notice', async ({ page }) => {
  await open(page, '?v=1&replicas=%22%3E%3Cscript%3E&gateway=istio');
  await expect(page.getByTestId('notices')).toContainText('replicas must be a whole number from 1 to 1,000');
  const { deployment, container } = podOf(await manifestText(page));
  expect(deployment.spec.replicas).toBe(3);
  expect(container.lifecycle.preStop.sleep.seconds).toBe(15);
});

test('Copy puts exactly the manifest on the clipboard', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await open(page, '?v=1&gateway=kgateway');
  await page.getByTestId('copy').click();
  await expect(page.locator('.gen-copy-status')).toHaveText('Copied to the clipboard.');
  const clipboard = await page.evaluate(() => navigator.clipboard.readText());
  expect(clipboard).toBe(await manifestText(page));
  expect(clipboard).toContain('# Generated by Hitless');
});

test('choosing a gateway asks before replacing the reader\u2019s values', async ({ page }) => {
  await open(page);
  await page.locator('#in-removal-seconds').fill('12');
  await page.getByLabel('Gateway', { exact: true }).selectOption('istio');
  const confirm = page.getByTestId('preset-confirm');
  await expect(confirm).toContainText('removal-seconds (10)');
  await confirm.getByRole('button', { name: 'Keep my values' }).click();
  // kept: 12 + 5 = 17
  await expect(page.getByTestId('manifest')).toContainText('seconds: 17 # 12s removal p99 + 5s margin');
  await page.getByLabel('Gateway', { exact: true }).selectOption('gke');
  await page.getByTestId('preset-confirm').getByRole('button', { name: /Use the preset/ }).click();
  // preset: gke 30 + 5 = 35
  await expect(page.getByTestId('manifest')).toContainText('seconds: 35 # 30s removal p99 + 5s margin');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test('the page still shows the default manifest', async ({ page }) => {
    await page.goto('/generator/');
    const { pod } = podOf(await manifestText(page));
    expect(pod.terminationGracePeriodSeconds).toBe(125);
  });
});
