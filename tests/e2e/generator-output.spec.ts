// The generator's Output form select: each form from the same core as `hitless generate --output`, in the link.
import { expect, test, type Page } from '@playwright/test';
import { hydrated } from '../support/site.ts';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));

async function open(page: Page, query = '') {
  await page.goto(`/generator/${query}`);
  await hydrated(page, '.gen');
  await expect(page.locator('[data-testid="manifest"][data-pending="false"]')).toBeVisible();
}

test('choosing the patch form shows the kustomization and both patches, as the CLI writes them', async ({ page }) => {
  await open(page);
  await page.getByLabel('Output form').selectOption('patch');
  await page.locator('#in-container').fill('server');
  await expect(page.getByTestId('manifest')).toContainText('# File: drain-flag.yaml');
  await expect(page).toHaveURL(/output=patch/);
  const cli = spawnSync(process.execPath, [BIN, 'generate', '--output', 'patch', '--container', 'server'], {
    encoding: 'utf8',
  });
  expect(await page.getByTestId('manifest').textContent()).toBe(cli.stdout);
});

test('the lws form works at its defaults (2 nodes); over one node it names the Nodes per replica field', async ({
  page,
}) => {
  await open(page, '?v=2&output=lws');
  await expect(page.getByTestId('manifest')).toContainText('kind: LeaderWorkerSet');
  await page.locator('#in-nodes-per-replica').fill('1');
  await expect(page.getByTestId('manifest')).toContainText('No lws output for these inputs');
  await expect(page.locator('#in-nodes-per-replica')).toHaveAttribute('aria-invalid', 'true');
  await page.locator('#in-nodes-per-replica').fill('2');
  await page.locator('#in-gpus-per-replica').fill('16');
  await expect(page.getByTestId('manifest')).toContainText('kind: LeaderWorkerSet');
});

test('the helm-values form shows the chart values and the install command', async ({ page }) => {
  await open(page, '?v=2&output=helm-values');
  await expect(page.getByTestId('manifest')).toContainText(
    'helm install vllm-qwen3-32b oci://registry.k8s.io/gateway-api-inference-extension/charts/inferencepool --version v1.5.0',
  );
  await expect(page.getByTestId('manifest')).toContainText('# File: model-server.yaml');
});
