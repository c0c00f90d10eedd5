import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';

/**
 * The browser: Debian's chromium-headless-shell where it is installed (.ci/run installs it), else Debian's chromium.
 * The headless shell is what Playwright itself runs for headless Chromium: the same Blink and V8 without the full
 * browser around them (no WebUI renderer, no browser services), and it took about half the CPU for the same tests
 * (whole process tree, in a cpuacct cgroup): pages.spec.ts on 8 pages 47.7 against 88.3 CPU-s, on 8 others 46.8
 * against 73.7; generator.spec.ts 57.4 against 113.9. CHROMIUM_PATH overrides it.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

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
      executablePath: CHROMIUM,
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
