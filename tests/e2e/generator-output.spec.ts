// The generator's Output form select: each form from the same core as `hitless generate --output`, in the link.
import { expect, test, type Page } from '@playwright/test';
import { hydrated } from '../support/site.ts';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/hitless.mjs', import.meta.url));

/** Every file tab's text, joined as `hitless generate` prints a form of several files (emit/files.ts joinFiles). */
async function joinedTabs(page: Page): Promise<string> {
  const texts: string[] = [];
  for (const tab of await page.getByRole('tab').all()) {
    await tab.click();
    texts.push(
      `# File: ${await tab.textContent()}: ${await tab.getAttribute('title')}\n${await page.getByTestId('manifest').textContent()}`,
    );
  }
  return texts.join('---\n');
}

async function open(page: Page, query = '') {
  await page.goto(`/generator/${query}`);
  await hydrated(page, '.gen');
  await expect(page.locator('[data-testid="manifest"][data-pending="false"]')).toBeVisible();
}

test('choosing the patch form shows the kustomization and both patches, as the CLI writes them', async ({ page }) => {
  await open(page);
  await page.getByLabel('Output form').selectOption('patch');
  await page.locator('#in-container').fill('server');
  // One tab per file (generator-ux.spec.ts holds each file's text to the CLI's --out-dir); all of them, joined as
  // `hitless generate` prints them, are the CLI's output.
  await expect(page.getByRole('tab', { name: 'drain-flag.yaml' })).toBeVisible();
  await expect(page).toHaveURL(/output=patch/);
  const cli = spawnSync(process.execPath, [BIN, 'generate', '--output', 'patch', '--container', 'server'], {
    encoding: 'utf8',
  });
  expect(await joinedTabs(page)).toBe(cli.stdout);
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
  await expect(page.getByRole('tab', { name: 'model-server.yaml' })).toHaveAttribute('title', /Deployment/);
});

test('the bundle states the one chart install that creates its pool, and the install follows the link\u2019s name', async ({
  page,
}) => {
  // Server-rendered (before the emitter loads) and in the browser after an edit: the same header line.
  await page.goto('/generator/');
  await expect(page.getByTestId('manifest')).toContainText(
    '#   helm install vllm-qwen3-32b oci://registry.k8s.io/gateway-api-inference-extension/charts/inferencepool --version v1.5.0 --namespace default --set-string inferencePool.modelServers.matchLabels.app=vllm-qwen3-32b ',
  );
  // No document of its own (the policies' targetRef names the kind, indented).
  await expect(page.getByTestId('manifest')).not.toContainText(/^kind: InferencePool$/m);
  // Emitted in the browser from the link's name.
  await open(page, '?v=2&name=chat');
  await expect(page.getByTestId('manifest')).toContainText(
    'helm install chat oci://registry.k8s.io/gateway-api-inference-extension/charts/inferencepool --version v1.5.0 --namespace default --set-string inferencePool.modelServers.matchLabels.app=chat ',
  );
  await expect(page.getByTestId('manifest')).toContainText('Deployment and Service chat-epp');
});

test('a name starting with a digit gets no bundle, and the Name field says why', async ({ page }) => {
  // The chart would name its picker Service 1chat-epp, which Kubernetes refuses (a Service's name starts with a letter).
  await open(page, '?v=2&name=1chat');
  await expect(page.getByTestId('manifest')).toContainText('No bundle output for these inputs');
  await expect(page.locator('#in-name')).toHaveAttribute('aria-invalid', 'true');
});
