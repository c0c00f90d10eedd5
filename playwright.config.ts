import { defineConfig } from '@playwright/test';

/** An unusual port, so that a stray server on a common one is never tested by mistake. */
const PORT = Number(process.env.PW_PORT ?? 48231);

export default defineConfig({
  testDir: './tests/e2e',
  // Parallel runs each keep their own artifacts.
  outputDir: process.env.PW_OUTPUT_DIR ?? 'test-results',
  // Every test loads its own page, so any test can go to either worker: the two finish together, with no long file
  // left to one of them at the end.
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // A test's limit catches a hung page, not a slow machine: axe scans of the checker with findings took 40-50 s
  // at load average 17-22 on 2 cores (a few seconds idle).
  timeout: 90_000,
  // An expectation's retry limit, likewise: hydration of the generator and a first check took over the default 5 s
  // at load average 15 (a passing expectation returns as soon as it holds, so this costs nothing when all is well).
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `npm run preview -- --ignore-lock --port ${PORT}`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
